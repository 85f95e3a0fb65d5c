import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { asJsonSchema, validateJsonSchema } from '../../../components/code-editor/json-schema';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import {
  useDeleteIncidentRule,
  useIncidentRule,
  useIncidentRuleSchema,
  useSaveIncidentRule,
} from '../api/incident-rules';
import {
  EMPTY_RULE_FORM,
  ruleToForm,
  validateIncidentRuleForm,
  type IncidentRuleErrors,
  type IncidentRuleFormValues,
  type IncidentRuleRow,
} from '../lib/incident-rule-form';
import { INCIDENT_RULES_PATH } from './incident-rules-page';

const FORM_ID = 'incident-rule-form';
const inputClass = 'mt-1 block w-full rounded border border-gray-300 px-2 py-1.5 text-sm disabled:bg-gray-50';
const labelClass = 'text-sm font-medium text-gray-700';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-xs text-red-600">
      {message}
    </p>
  );
}

/**
 * The Job History tab's content for a saved rule: the app composes the shared jobs table in
 * (features do not import each other), showing the rule's evaluations (job `IncidentRule`).
 */
export type RenderRuleJobHistory = (ruleId: string) => ReactNode;

function RuleForm({
  rule,
  renderJobHistory,
}: {
  rule: IncidentRuleRow | null;
  renderJobHistory: RenderRuleJobHistory;
}) {
  const navigate = useNavigate();
  const canWrite = useCan('database', 'write');
  const [values, setValues] = useState<IncidentRuleFormValues>(rule ? ruleToForm(rule) : EMPTY_RULE_FORM);
  const [errors, setErrors] = useState<IncidentRuleErrors>({});
  const save = useSaveIncidentRule();
  const remove = useDeleteIncidentRule();
  const schemaQuery = useIncidentRuleSchema();
  const schema = useMemo(() => asJsonSchema(schemaQuery.data), [schemaQuery.data]);
  const editing = Boolean(rule);
  const set = (field: keyof IncidentRuleFormValues) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateIncidentRuleForm(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    const schemaErrors = schema ? validateJsonSchema(result.value.spec, schema) : [];
    if (schemaErrors.length > 0) {
      setErrors({ spec: `${schemaErrors[0]!.path}: ${schemaErrors[0]!.message}` });
      return;
    }
    setErrors({});
    save.mutate(
      { id: rule?.id, input: result.value },
      {
        onSuccess: () => {
          // Spec core §2: '{name} updated successfully', back to the list.
          showSuccessToast(`${result.value.name} updated successfully`);
          void navigate(INCIDENT_RULES_PATH);
        },
        onError: (error) => showErrorToast(error),
      },
    );
  };

  const specTab = (
    <form id={FORM_ID} noValidate onSubmit={submit} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <div>
          <label className={labelClass}>
            Name
            <input
              className={inputClass}
              value={values.name}
              disabled={editing || !canWrite}
              onChange={(e) => set('name')(e.target.value)}
              aria-invalid={Boolean(errors.name)}
              aria-describedby="rule-name-error"
            />
          </label>
          <FieldError id="rule-name-error" message={errors.name} />
        </div>
        <label className={labelClass}>
          Namespace
          <input
            className={inputClass}
            value={values.namespace}
            disabled={editing || !canWrite}
            onChange={(e) => set('namespace')(e.target.value)}
          />
        </label>
      </div>
      <div>
        <label className={labelClass}>
          Labels
          <textarea
            className={`${inputClass} font-mono`}
            rows={3}
            value={values.labels}
            disabled={!canWrite}
            onChange={(e) => set('labels')(e.target.value)}
            aria-invalid={Boolean(errors.labels)}
            aria-describedby="rule-labels-error"
          />
        </label>
        <FieldError id="rule-labels-error" message={errors.labels} />
      </div>
      <div className="flex flex-col gap-1">
        <span className={labelClass}>Spec</span>
        <CodeEditor
          label="Spec"
          language="yaml"
          value={values.spec}
          onChange={set('spec')}
          schema={schema}
          readOnly={!canWrite}
          height="24rem"
        />
        <FieldError id="rule-spec-error" message={errors.spec} />
      </div>
    </form>
  );

  return (
    <ResourceEditor
      list={{ label: 'Incident Rules', path: INCIDENT_RULES_PATH }}
      name={rule?.name}
      newLabel="New rule"
      tabsLabel="Incident rule"
      jobHistory={rule ? renderJobHistory(rule.id) : undefined}
      save={canWrite ? { pending: save.isPending, form: FORM_ID } : undefined}
      remove={
        rule && canWrite
          ? {
              title: 'Delete rule',
              description: `Delete '${rule.name}'? It stops opening incidents.`,
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(rule.id, {
                  onSuccess: () => {
                    close();
                    showSuccessToast(`${rule.name} deleted successfully`);
                    void navigate(INCIDENT_RULES_PATH);
                  },
                  onError: (error) => showErrorToast(error),
                }),
            }
          : undefined
      }
    >
      {specTab}
    </ResourceEditor>
  );
}

/** /settings/incident_rules/{id} ('new' to add one): the incident rule editor (settings §2.4). */
export function IncidentRuleEditPage({ renderJobHistory }: { renderJobHistory: RenderRuleJobHistory }) {
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const rule = useIncidentRule(isNew ? undefined : id);
  if (isNew) return <RuleForm rule={null} renderJobHistory={renderJobHistory} />;
  if (rule.isPending) return <PageSkeleton label="Loading rule" />;
  if (rule.isError) throw rule.error;
  if (!rule.data) return <NoDetailsFound />;
  return <RuleForm key={rule.data.id} rule={rule.data} renderJobHistory={renderJobHistory} />;
}
