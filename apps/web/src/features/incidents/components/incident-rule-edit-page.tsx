import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { asJsonSchema, validateJsonSchema } from '../../../components/code-editor/json-schema';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
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
  const [deleting, setDeleting] = useState(false);
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

  const confirmDelete = () => {
    if (!rule) return;
    remove.mutate(rule.id, {
      onSuccess: () => {
        setDeleting(false);
        showSuccessToast(`${rule.name} deleted successfully`);
        void navigate(INCIDENT_RULES_PATH);
      },
      onError: (error) => showErrorToast(error),
    });
  };

  const specTab = (
    <form id="incident-rule-form" noValidate onSubmit={submit} className="flex flex-col gap-3">
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
    <div className="flex flex-col gap-4">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm">
        <Link to={INCIDENT_RULES_PATH} className="text-blue-700 hover:underline">
          Incident Rules
        </Link>
        <span aria-hidden>/</span>
        <span>{rule ? rule.name : 'New rule'}</span>
      </nav>
      <TabGroup>
        <TabList className="flex gap-2 border-b border-gray-200">
          {['Spec', ...(rule ? ['Job History'] : [])].map((name) => (
            <Tab
              key={name}
              className="px-3 py-1 text-sm data-selected:border-b-2 data-selected:border-blue-600 data-selected:text-blue-700"
            >
              {name}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="pt-3">
          <TabPanel unmount={false}>{specTab}</TabPanel>
          {rule && <TabPanel>{renderJobHistory(rule.id)}</TabPanel>}
        </TabPanels>
      </TabGroup>
      {canWrite && (
        <div className="flex items-center gap-2">
          {editing && (
            <button
              type="button"
              onClick={() => setDeleting(true)}
              className="rounded border border-red-300 px-3 py-1.5 text-sm text-red-700"
            >
              Delete
            </button>
          )}
          <span className="flex-1" />
          {editing && (
            <Link to={INCIDENT_RULES_PATH} className="rounded border border-gray-300 px-3 py-1.5 text-sm">
              Cancel
            </Link>
          )}
          <button
            type="submit"
            form="incident-rule-form"
            disabled={save.isPending}
            className="rounded bg-blue-600 px-3 py-1.5 text-sm text-white disabled:opacity-60"
          >
            {editing ? (save.isPending ? 'Updating' : 'Update') : save.isPending ? 'Saving' : 'Save'}
          </button>
        </div>
      )}
      <ConfirmationDialog
        open={deleting}
        title="Delete rule"
        description={rule ? `Delete '${rule.name}'? It stops opening incidents.` : undefined}
        variant="delete"
        confirmLabel="Delete"
        isLoading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={confirmDelete}
      />
    </div>
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
