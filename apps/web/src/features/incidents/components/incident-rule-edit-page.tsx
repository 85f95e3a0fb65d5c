import { useMemo, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import {
  asJsonSchema,
  validateJsonSchema,
  type JsonSchema,
} from '../../../components/code-editor/json-schema';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { deleteAction, ResourceEditorRoute } from '../../../components/resource-editor/resource-editor-route';
import { Textarea } from '../../../components/textarea/textarea';
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
  type IncidentRuleFormResult,
  type IncidentRuleFormValues,
  type IncidentRuleInput,
  type IncidentRuleRow,
} from '../lib/incident-rule-form';
import { INCIDENT_RULES_PATH } from './incident-rules-page';

const FORM_ID = 'incident-rule-form';

/** The rule's own checks, then the server's JSON Schema of the spec once it has loaded. */
const incidentRuleResolver = validationResolver(
  (values: IncidentRuleFormValues, schema: JsonSchema | undefined): IncidentRuleFormResult => {
    const result = validateIncidentRuleForm(values);
    if (!result.ok || !schema) return result;
    const [problem] = validateJsonSchema(result.value.spec, schema);
    return problem ? { ok: false, errors: { spec: `${problem.path}: ${problem.message}` } } : result;
  },
);

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
  const save = useSaveIncidentRule();
  const remove = useDeleteIncidentRule();
  const schemaQuery = useIncidentRuleSchema();
  const schema = useMemo(() => asJsonSchema(schemaQuery.data), [schemaQuery.data]);
  const editing = Boolean(rule);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<IncidentRuleFormValues, JsonSchema, IncidentRuleInput>({
    resolver: incidentRuleResolver,
    context: schema,
    defaultValues: rule ? ruleToForm(rule) : EMPTY_RULE_FORM,
  });

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: rule?.id, input },
      {
        onSuccess: () => {
          // Spec core §2: '{name} updated successfully', back to the list.
          showSuccessToast(`${input.name} updated successfully`);
          void navigate(INCIDENT_RULES_PATH);
        },
        onError: (error) => showErrorToast(error),
      },
    ),
  );

  const specTab = (
    <form id={FORM_ID} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <FormField label="Name" error={errors.name?.message}>
          <Input {...register('name')} disabled={editing || !canWrite} />
        </FormField>
        <FormField label="Namespace">
          <Input {...register('namespace')} disabled={editing || !canWrite} />
        </FormField>
      </div>
      <FormField label="Labels" error={errors.labels?.message}>
        <Textarea code rows={3} {...register('labels')} disabled={!canWrite} />
      </FormField>
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-gray-700">Spec</span>
        <Controller
          control={control}
          name="spec"
          render={({ field }) => (
            <CodeEditor
              label="Spec"
              language="yaml"
              value={field.value}
              onChange={field.onChange}
              schema={schema}
              readOnly={!canWrite}
              height="24rem"
            />
          )}
        />
        <FieldError id="rule-spec-error" message={errors.spec?.message} />
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
          ? deleteAction({
              name: rule.name,
              title: 'Delete rule',
              description: `Delete '${rule.name}'? It stops opening incidents.`,
              pending: remove.isPending,
              run: (callbacks) => remove.mutate(rule.id, callbacks),
              onDeleted: () => void navigate(INCIDENT_RULES_PATH),
              onError: showErrorToast,
            })
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
  return (
    <ResourceEditorRoute isNew={isNew} query={rule} loadingLabel="Loading rule">
      {(saved) => <RuleForm rule={saved ?? null} renderJobHistory={renderJobHistory} />}
    </ResourceEditorRoute>
  );
}
