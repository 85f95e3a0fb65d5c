import type { PlaybookParameter } from '@opsdeck/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import {
  ResourceSelector,
  type ResourceOption,
} from '../../../components/resource-selector/resource-selector';
import { resourceSearchOf } from '../../../components/resource-selector/search-resources';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast } from '../../../components/toasts/toasts';
import { hasTarget, usePlaybookParams, useRunPlaybook, type PlaybookTarget } from '../api/playbooks';
import {
  BYTE_UNITS,
  formatOf,
  initialValue,
  parameterProblem,
  requestParams,
  splitBytes,
} from '../lib/parameters';

export const SELECT_RESOURCE_MESSAGE = 'Please select a resource to see the parameters.';
export const NO_PARAMETERS_MESSAGE = 'No parameters for this playbook.';

export interface RunnablePlaybook {
  id: string;
  title: string | null;
  name: string;
}

/** The resource the dialog was opened on (a check's or config's menu), with its name. */
export interface PresetResource {
  kind: 'check' | 'config' | 'component';
  id: string;
  name: string;
}

type ResourceKind = PresetResource['kind'];

/** The run dialog's resource kinds as POST /api/resources/search names its lists (core §7). */
const SEARCH_KINDS = { check: 'checks', config: 'configs', component: 'components' } as const;

const KIND_LABELS: Record<ResourceKind, string> = {
  config: 'Config',
  check: 'Check',
  component: 'Component',
};
const KIND_KEYS: Record<ResourceKind, keyof PlaybookTarget> = {
  config: 'config_id',
  check: 'check_id',
  component: 'component_id',
};

/** Form keys by index: parameter names may hold dots, which the form would read as paths. */
const fieldKey = (index: number) => `p${index}`;

function ParameterField({
  parameter,
  index,
  form,
  unit,
  onUnit,
}: {
  parameter: PlaybookParameter;
  index: number;
  form: ReturnType<typeof useForm<Record<string, unknown>>>;
  unit: string;
  onUnit(unit: string): void;
}) {
  const key = fieldKey(index);
  const { register, formState } = form;
  const error =
    formState.touchedFields[key] || formState.isSubmitted ? formState.errors[key]?.message : undefined;
  const label = parameter.label || parameter.name;
  const rules = { validate: (value: unknown) => parameterProblem(parameter, value) ?? true };
  const properties = parameter.properties ?? {};
  if (parameter.type === 'checkbox') {
    return (
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...register(key)} />
        {label}
      </label>
    );
  }
  let control;
  if (parameter.type === 'list') {
    control = (
      <Controller
        control={form.control}
        name={key}
        rules={rules}
        render={({ field }) => (
          <SelectMenu
            floating
            placeholder="Select…"
            value={typeof field.value === 'string' ? field.value : String(field.value ?? '')}
            onChange={(value) => {
              field.onChange(value);
              field.onBlur();
            }}
            options={(properties.options ?? []).map((option) => ({
              value: String(option.value),
              label: option.label ?? String(option.value),
            }))}
          />
        )}
      />
    );
  } else if (parameter.type === 'code' || properties.multiline === true || properties.multiline === 'true') {
    control = (
      <Textarea
        code={parameter.type === 'code'}
        rows={parameter.type === 'code' ? 8 : 4}
        {...register(key, rules)}
      />
    );
  } else if (formatOf(parameter) === 'bytes') {
    control = (
      <div className="flex gap-2">
        <Input inputMode="decimal" {...register(key, rules)} />
        <SelectMenu
          floating
          aria-label={`${label} unit`}
          value={unit}
          onChange={onUnit}
          className="w-24"
          options={BYTE_UNITS.map((option) => ({ value: option }))}
        />
      </div>
    );
  } else if (formatOf(parameter) === 'millicores') {
    control = (
      <div className="flex items-center gap-2">
        <Input inputMode="numeric" {...register(key, rules)} />
        <span className="text-sm text-gray-600">m</span>
      </div>
    );
  } else {
    // A secret is typed unseen; other formats that are input types (email, url, ...) are used as such.
    const inputType =
      parameter.type === 'secret'
        ? 'password'
        : properties.format && !['dns1123', 'bytes', 'millicores'].includes(properties.format)
          ? properties.format
          : 'text';
    control = <Input type={inputType} {...register(key, rules)} />;
  }
  return (
    <FormField label={label} required={parameter.required} error={error as string | undefined}>
      {control}
    </FormField>
  );
}

function ParametersForm({
  playbook,
  target,
  parameters,
  onClose,
}: {
  playbook: RunnablePlaybook;
  target: PlaybookTarget;
  parameters: PlaybookParameter[];
  onClose(): void;
}) {
  const navigate = useNavigate();
  const run = useRunPlaybook();
  const form = useForm<Record<string, unknown>>({
    mode: 'onTouched',
    defaultValues: Object.fromEntries(
      parameters.map((parameter, index) => [fieldKey(index), initialValue(parameter)]),
    ),
  });
  const [units, setUnits] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      parameters
        .filter((parameter) => formatOf(parameter) === 'bytes')
        .map((parameter) => [parameter.name, splitBytes(parameter.default).unit]),
    ),
  );
  const submit = form.handleSubmit((values) => {
    const byName = Object.fromEntries(
      parameters.map((parameter, index) => [parameter.name, values[fieldKey(index)]]),
    );
    run.mutate(
      { id: playbook.id, ...target, params: requestParams(parameters, byName, units) },
      {
        onSuccess: (answer) => {
          onClose();
          void navigate(`/playbooks/runs/${answer.run_id}`);
        },
        // Settings §8: the response's error field, else its message.
        onError: (error) => showErrorToast(error),
      },
    );
  });
  const invalid = form.formState.isSubmitted && !form.formState.isValid;
  return (
    <form className="flex flex-col gap-3" onSubmit={(event) => void submit(event)} aria-label="Parameters">
      {parameters.length === 0 ? (
        <p className="text-sm text-gray-600">{NO_PARAMETERS_MESSAGE}</p>
      ) : (
        parameters.map((parameter, index) => (
          <ParameterField
            key={parameter.name}
            parameter={parameter}
            index={index}
            form={form}
            unit={units[parameter.name] ?? 'Mi'}
            onUnit={(unit) => setUnits((previous) => ({ ...previous, [parameter.name]: unit }))}
          />
        ))
      )}
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" disabled={!playbook.id || invalid || run.isPending}>
          {run.isPending ? 'Running...' : 'Run'}
        </Button>
      </div>
    </form>
  );
}

/**
 * Settings §2.3: the run dialog. Title: the playbook's title, or 'Run Playbook'. A Resource
 * section, then the parameters (fetched once a resource is chosen, never cached), then Run.
 */
export function RunPlaybookDialog({
  playbook,
  preset,
  needsResource = true,
  onClose,
}: {
  playbook: RunnablePlaybook;
  preset?: PresetResource;
  /** False for a playbook without resource selectors: it runs on nothing. */
  needsResource?: boolean;
  onClose(): void;
}) {
  const [kind, setKind] = useState<ResourceKind>(preset?.kind ?? 'check');
  const [chosen, setChosen] = useState<ResourceOption | null>(
    preset ? { id: preset.id, name: preset.name } : null,
  );
  const target: PlaybookTarget = chosen ? { [KIND_KEYS[kind]]: chosen.id } : {};
  const ready = !needsResource || hasTarget(target);
  const params = usePlaybookParams(playbook.id, target, ready);
  return (
    <Modal open onClose={onClose} title={playbook.title || 'Run Playbook'} size="small">
      <div className="flex flex-col gap-4">
        {needsResource && (
          <section aria-label="Resource" className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold text-gray-800">Resource</h3>
            {preset ? (
              <p className="text-sm">
                {KIND_LABELS[preset.kind]}: <span className="font-medium">{preset.name}</span>
              </p>
            ) : (
              <div className="flex flex-col gap-2">
                <FormField label="Resource type">
                  <SelectMenu<ResourceKind>
                    floating
                    value={kind}
                    onChange={(value) => {
                      setKind(value);
                      setChosen(null);
                    }}
                    options={(Object.keys(KIND_LABELS) as ResourceKind[]).map((option) => ({
                      value: option,
                      label: KIND_LABELS[option],
                    }))}
                  />
                </FormField>
                <ResourceSelector
                  label={KIND_LABELS[kind]}
                  value={chosen}
                  onChange={setChosen}
                  search={resourceSearchOf(SEARCH_KINDS[kind])}
                />
              </div>
            )}
          </section>
        )}
        <section aria-label="Parameters" className="flex flex-col gap-2">
          {!ready ? (
            <p className="text-sm text-gray-600">{SELECT_RESOURCE_MESSAGE}</p>
          ) : params.isPending ? (
            <Skeleton className="h-24" />
          ) : params.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {params.error.message}
            </p>
          ) : (
            <ParametersForm
              key={JSON.stringify(target)}
              playbook={playbook}
              target={target}
              parameters={params.data.params}
              onClose={onClose}
            />
          )}
        </section>
      </div>
    </Modal>
  );
}
