import { useMemo, useState } from 'react';
import { Button } from '../../../components/button/button';
import { CodeEditor, parseCode } from '../../../components/code-editor/code-editor';
import { asJsonSchema, validateJsonSchema } from '../../../components/code-editor/json-schema';
import { EditorTab } from '../../../components/resource-editor/resource-editor';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { useChartValuesSchema } from '../api/chart-values-schema';
import {
  DEFAULT_INTEGRATION_INTERVAL,
  DEFAULT_INTEGRATION_NAMESPACE,
  fluxManifest,
  helmCommand,
  validateGitopsFields,
  type GitopsOption,
} from '../lib/gitops';

type OutputTab = 'flux' | 'helm';

/** The start of the note shown when the registry's schema could not be fetched. */
export const BUNDLED_NOTE_PREFIX = "The registry's schema could not be fetched";

/** Settings §2.6: "Both tabs warn that the Kubernetes chart must be installed in flux." */
export const KUBERNETES_CHART_WARNING =
  'The Kubernetes chart (mission-control-kubernetes) must be installed in flux before this integration.';

function readValues(text: string): { values?: Record<string, unknown>; problem?: string } {
  const parsed = parseCode(text, 'yaml');
  if (!parsed.ok) return { problem: 'Values must be valid YAML' };
  if (parsed.value === undefined || parsed.value === null) return { values: {} };
  if (typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    return { problem: 'Values must be a YAML mapping' };
  return { values: parsed.value as Record<string, unknown> };
}

function Output({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="relative">
      <pre
        aria-label={label}
        className="max-h-72 overflow-auto rounded bg-gray-900 p-3 font-mono text-xs text-gray-100"
      >
        {text}
      </pre>
      {navigator.clipboard && (
        <Button
          size="sm"
          className="absolute top-2 right-2"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(() => {
              setCopied(true);
            })
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </div>
  );
}

export interface GitopsFormProps {
  option: GitopsOption;
  onBack(): void;
  onDone(): void;
}

/**
 * A GitOps option's form (settings §2.6): Namespace, Interval, values checked against the chart's
 * values schema, and the Flux manifest / Helm CLI command that install it.
 */
export function GitopsForm({ option, onBack, onDone }: GitopsFormProps) {
  const [namespace, setNamespace] = useState(DEFAULT_INTEGRATION_NAMESPACE);
  const [interval, setInterval] = useState(DEFAULT_INTEGRATION_INTERVAL);
  const [valuesText, setValuesText] = useState(option.exampleValues);
  const [tab, setTab] = useState<OutputTab>('flux');
  const schemaQuery = useChartValuesSchema(option.chart);
  const schema = asJsonSchema(schemaQuery.data?.schema);

  const fields = validateGitopsFields(namespace, interval);
  const { values, problem } = readValues(valuesText);
  const schemaErrors = useMemo(
    () => (values && schema ? validateJsonSchema(values, schema) : []),
    [values, schema],
  );
  const valid =
    fields.namespace === undefined &&
    fields.interval === undefined &&
    values !== undefined &&
    schemaErrors.length === 0 &&
    schema !== undefined;
  const input = values ? { option, namespace, interval, values } : undefined;

  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Namespace" required error={fields.namespace}>
          <Input compact value={namespace} onChange={(event) => setNamespace(event.target.value)} />
        </FormField>
        <FormField label="Interval" required error={fields.interval}>
          <Input compact value={interval} onChange={(event) => setInterval(event.target.value)} />
        </FormField>
      </div>
      <CodeEditor
        label="Values"
        value={valuesText}
        onChange={setValuesText}
        language="yaml"
        schema={schema}
        height="10rem"
      />
      {problem && <p className="text-xs text-red-700">{problem}</p>}
      <p role="status" aria-label="Values schema" className="text-xs text-gray-600">
        {schemaQuery.isPending
          ? 'Loading the chart values schema...'
          : schemaQuery.isError
            ? `The chart values schema could not be loaded: ${schemaQuery.error.message}`
            : schemaQuery.data.source === 'registry'
              ? `Values are checked against the chart's schema from the registry (${schemaQuery.data.url}).`
              : `${BUNDLED_NOTE_PREFIX} (${schemaQuery.data.problem ?? 'unknown reason'}): values are checked against the minimal schema shipped with Opsdeck.`}
      </p>
      <div role="tablist" aria-label="Output" className="flex gap-1 border-b border-gray-200">
        <EditorTab selected={tab === 'flux'} onClick={() => setTab('flux')}>
          Flux
        </EditorTab>
        <EditorTab selected={tab === 'helm'} onClick={() => setTab('helm')}>
          Helm CLI
        </EditorTab>
      </div>
      <div role="tabpanel" className="flex flex-col gap-2">
        <p
          role="note"
          className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {KUBERNETES_CHART_WARNING}
        </p>
        {input && valid ? (
          tab === 'flux' ? (
            <Output label="Flux manifest" text={fluxManifest(input)} />
          ) : (
            <Output label="Helm command" text={helmCommand(input)} />
          )
        ) : (
          <p className="text-sm text-gray-600">
            Fix the problems above to see the {tab === 'flux' ? 'manifest' : 'command'}.
          </p>
        )}
      </div>
      <div className="flex justify-between">
        <Button onClick={onBack}>Back</Button>
        <Button variant="primary" disabled={!valid} onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
