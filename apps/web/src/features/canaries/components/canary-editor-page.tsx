import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { stringify } from 'yaml';
import { Button } from '../../../components/button/button';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { JobHistoryTable } from '../../../components/job-history-table/job-history-table';
import {
  ResourceEditor,
  SpecViewTabs,
  type SpecView,
} from '../../../components/resource-editor/resource-editor';
import { deleteAction, ResourceEditorRoute } from '../../../components/resource-editor/resource-editor-route';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import { isFileOwned } from '../../../lib/resource-api';
import {
  useCanary,
  useCanarySchema,
  useDeleteCanary,
  useSaveCanary,
  type CanaryDetail,
} from '../api/canaries';
import {
  CHECK_FORMS,
  chooseSpecType,
  newCanarySpec,
  parseSpec,
  readEditor,
  type CanarySpec,
} from '../lib/check-forms';
import { detectSpecType, type SpecType } from '../lib/spec-types';
import { CANARIES_PATH } from './canaries-page';
import { CheckForm } from './check-form';
import { SpecTypePicker } from './spec-type-picker';

/** Id segment of the editor for a health check that does not exist yet. */
export const NEW_CANARY_ID = 'new';

/** What the server said about a refused save (400 with the field's path, 409 conflicts). */
interface ServerProblem {
  message: string;
  field?: string;
  issues: { path: string; message: string }[];
}

function serverProblem(error: Error): ServerProblem {
  const body = error instanceof ApiError ? (error.body as Partial<ServerProblem> | undefined) : undefined;
  const issues = Array.isArray(body?.issues) ? body.issues : [];
  return { message: error.message, field: body?.field, issues };
}

function CanaryForm({ canary }: { canary: CanaryDetail | undefined }) {
  const navigate = useNavigate();
  const canWrite = useCan('canaries', 'write');
  const fileOwned = canary ? isFileOwned(canary.source) : false;
  const readOnly = !canWrite || fileOwned;
  const schema = useCanarySchema();
  const save = useSaveCanary(canary?.id);
  const remove = useDeleteCanary(canary?.id ?? '');

  const initialSpec = canary?.spec ?? newCanarySpec();
  const [name, setName] = useState(canary?.name ?? '');
  const [namespace, setNamespace] = useState(canary?.namespace ?? 'default');
  const [labelsText, setLabelsText] = useState(JSON.stringify(canary?.labels ?? {}, null, 2));
  const [specText, setSpecText] = useState(stringify(initialSpec));
  // The last spec that parsed: unparsable YAML while typing is ignored (settings §5).
  const [spec, setSpec] = useState<CanarySpec>(initialSpec);
  // `?type=` (the health panel's Edit link) names the check type to open on.
  const [searchParams] = useSearchParams();
  const [specType, setSpecType] = useState<SpecType | undefined>(
    canary ? detectSpecType(canary.spec, searchParams.get('type') ?? undefined) : undefined,
  );
  const [view, setView] = useState<SpecView>(specType?.hasForm ? 'form' : 'code');
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<ServerProblem>();

  const formType = specType?.hasForm ? specType.key : undefined;
  const result = readEditor({ name, labelsText, specText, typeKey: formType });
  const problems = result.ok ? { check: {} as Record<string, string> } : result.problems;
  const touch = (key: string) =>
    setTouched((previous) => (previous.has(key) ? previous : new Set(previous).add(key)));
  const shown = (key: string) => submitted || touched.has(key);
  const checkTouched: ReadonlySet<string> = submitted ? new Set(Object.keys(problems.check)) : touched;

  const editSpec = (next: CanarySpec) => {
    setSpec(next);
    setSpecText(stringify(next));
  };
  const editCode = (text: string) => {
    setSpecText(text);
    const parsed = parseSpec(text);
    if (parsed) setSpec(parsed);
  };
  const choose = (type: SpecType) => {
    setSpecType(type);
    setView(type.hasForm ? 'form' : 'code');
    if (!readOnly) editSpec(chooseSpecType(spec, type.key));
  };

  const submit = () => {
    setSubmitted(true);
    if (!result.ok) return;
    setProblem(undefined);
    save.mutate(
      {
        name: result.name,
        namespace: namespace.trim() || 'default',
        labels: result.labels,
        spec: result.spec,
      },
      {
        onSuccess: (saved) => {
          // Spec core §2: the generic edit page confirms and returns to the list.
          showSuccessToast(`${saved.name} updated successfully`);
          void navigate(CANARIES_PATH);
        },
        onError: (error) => setProblem(serverProblem(error)),
      },
    );
  };

  const checkProblems = Object.entries(problems.check);
  const fieldLabel = (key: string) =>
    (formType && CHECK_FORMS[formType]?.find((field) => field.key === key)?.label) ?? key;

  return (
    <ResourceEditor
      list={{ label: 'Health Checks', path: CANARIES_PATH }}
      name={canary?.name}
      newLabel="New health check"
      tabsLabel="Health check"
      jobHistory={canary && <JobHistoryTable resourceId={canary.id} tableId="canary-jobs" />}
      managedBy={fileOwned && canary ? { source: canary.source, noun: 'health check' } : undefined}
      save={readOnly ? undefined : { pending: save.isPending, onSave: submit }}
      remove={
        canary && !readOnly
          ? deleteAction({
              name: canary.name,
              description: 'Its checks stop running and leave the health page; their history is kept.',
              pending: remove.isPending,
              run: (callbacks) => remove.mutate(undefined, callbacks),
              onDeleted: () => void navigate(CANARIES_PATH),
              onError: (error) => {
                setProblem(serverProblem(error));
                showErrorToast(error);
              },
            })
          : undefined
      }
    >
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Name" error={shown('name') ? problems.name : undefined}>
          <Input
            compact
            value={name}
            disabled={Boolean(canary) || readOnly}
            // A name the server refused is marked too; its message is in the 'Save failed' box.
            aria-invalid={
              (shown('name') && problems.name) || problem?.field === 'metadata.name' ? true : undefined
            }
            onBlur={() => touch('name')}
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField label="Namespace">
          <Input
            compact
            value={namespace}
            disabled={Boolean(canary) || readOnly}
            onChange={(event) => setNamespace(event.target.value)}
          />
        </FormField>
      </div>
      <FormField label="Labels" error={shown('labels') ? problems.labels : undefined}>
        <Textarea
          code
          value={labelsText}
          readOnly={readOnly}
          rows={3}
          onBlur={() => touch('labels')}
          onChange={(event) => setLabelsText(event.target.value)}
        />
      </FormField>
      {specType === undefined ? (
        <SpecTypePicker onChoose={choose} />
      ) : (
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-3 border-b border-gray-200">
            <Button className="mb-1" onClick={() => setSpecType(undefined)}>
              <ArrowLeft aria-hidden className="size-3.5" />
              Back
            </Button>
            <span className="mb-1 flex items-center gap-1.5 text-sm font-medium">
              <ResourceIcon type={specType.key} />
              {specType.label}
            </span>
            {specType.hasForm && <SpecViewTabs view={view} onChange={setView} />}
          </div>
          {specType.hasForm && view === 'form' ? (
            <CheckForm
              typeKey={specType.key}
              spec={spec}
              onChange={editSpec}
              errors={problems.check}
              touched={checkTouched}
              onTouch={touch}
              readOnly={readOnly}
            />
          ) : (
            <CodeEditor
              label="Spec"
              value={specText}
              onChange={editCode}
              language="yaml"
              schema={schema.data}
              readOnly={readOnly}
              height="24rem"
            />
          )}
          {submitted && problems.spec && <p className="text-xs text-red-700">{problems.spec}</p>}
        </div>
      )}
      {submitted && checkProblems.length > 0 && view === 'code' && (
        <ul aria-label="Form errors" className="flex flex-col gap-0.5 text-sm text-red-700">
          {checkProblems.map(([key, message]) => (
            <li key={key}>
              {fieldLabel(key)}: {message}
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <div
          role="alert"
          aria-label="Save failed"
          className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          <p>{problem.message}</p>
          {problem.issues.length > 1 && (
            <ul className="mt-1 list-disc pl-5">
              {problem.issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  <span className="font-mono">{issue.path}</span>: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </ResourceEditor>
  );
}

/**
 * /settings/canaries/{id} (settings §2.4): Name and Namespace (fixed once saved), Labels (JSON
 * object), the spec through the type picker with Form and Code tabs (YAML checked against the
 * Canary schema), Save/Update, Cancel, Delete, and the Job History tab. `/settings/canaries/new`
 * creates one. Rows owned by a file are read-only.
 */
export function CanaryEditorPage() {
  const { id = '' } = useParams();
  const isNew = id === NEW_CANARY_ID;
  const query = useCanary(id, !isNew);
  return (
    <ResourceEditorRoute isNew={isNew} query={query} loadingLabel="Loading health check">
      {(canary) => <CanaryForm canary={canary} />}
    </ResourceEditorRoute>
  );
}
