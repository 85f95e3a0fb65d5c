import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions/use-can';
import {
  useDeleteNotificationRule,
  useNotificationRule,
  usePlaybookOptions,
  useSaveNotificationRule,
  type RuleInput,
} from '../api/notifications';
import {
  EMPTY_RULE_FORM,
  playbookRecipientOf,
  ruleToForm,
  validateRuleForm,
  withPlaybookRecipient,
  type RuleFormValues,
} from '../lib/rule-form';
import { NOTIFICATION_RULES_PATH } from './notification-tabs';

const FORM_ID = 'notification-rule-form';
const resolver = validationResolver((values: RuleFormValues) => validateRuleForm(values));

/**
 * The playbook recipient (`to.playbook`) picked from the playbooks: it edits the YAML, which stays
 * the one source of the rule (typing `to.playbook` there moves the menu too).
 */
function PlaybookRecipientField({
  control,
  onChange,
  disabled,
}: {
  control: Control<RuleFormValues, unknown, RuleInput>;
  onChange(yaml: string): void;
  disabled: boolean;
}) {
  const spec = useWatch({ control, name: 'spec' });
  const current = playbookRecipientOf(spec);
  const playbooks = usePlaybookOptions(!disabled || Boolean(current));
  const options = [
    { value: '', label: playbooks.isPending && !disabled ? 'Loading…' : 'None' },
    ...(playbooks.data ?? []).map((playbook) => ({
      value: `${playbook.namespace}/${playbook.name}`,
      label: `${playbook.namespace}/${playbook.name}`,
    })),
  ];
  // A playbook the YAML names that is not (or no longer) listed still shows as chosen.
  if (current && !options.some((option) => option.value === current)) {
    options.push({ value: current, label: `${current} (not found)` });
  }
  return (
    <FormField
      label="Playbook recipient"
      hint={
        current === null
          ? 'Fix the YAML to pick a playbook'
          : "Runs the playbook on the event's resource (sets to.playbook)"
      }
    >
      <SelectMenu
        value={current ?? ''}
        onChange={(value) => onChange(withPlaybookRecipient(spec, value))}
        options={options}
        disabled={disabled || current === null}
        className="w-full"
      />
    </FormField>
  );
}

function RuleForm({
  rule,
}: {
  rule: {
    id: string;
    name: string;
    namespace: string;
    spec: Record<string, unknown> | null;
    source: string;
  } | null;
}) {
  const navigate = useNavigate();
  const canWrite = useCan('notifications', 'write');
  const save = useSaveNotificationRule();
  const remove = useDeleteNotificationRule();
  const editing = Boolean(rule);
  const {
    register,
    control,
    setValue,
    handleSubmit,
    formState: { errors },
  } = useForm<RuleFormValues, unknown, RuleInput>({
    resolver,
    defaultValues: rule ? ruleToForm(rule) : EMPTY_RULE_FORM,
  });
  const submit = handleSubmit((input) =>
    save.mutate(
      { id: rule?.id, input },
      {
        onSuccess: () => {
          // Spec core §8.
          showSuccessToast('Notification updated successfully');
          void navigate(NOTIFICATION_RULES_PATH);
        },
        onError: (error) => showErrorToast(error),
      },
    ),
  );
  return (
    <ResourceEditor
      list={{ label: 'Notification Rules', path: NOTIFICATION_RULES_PATH }}
      name={rule?.name}
      newLabel="New notification"
      tabsLabel="Notification"
      save={canWrite ? { pending: save.isPending, form: FORM_ID } : undefined}
      remove={
        rule && canWrite
          ? {
              title: `Delete ${rule.name}?`,
              description: `Delete '${rule.name}'? It stops sending notifications.`,
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(rule.id, {
                  onSuccess: () => {
                    close();
                    showSuccessToast(`${rule.name} deleted successfully`);
                    void navigate(NOTIFICATION_RULES_PATH);
                  },
                  onError: (error) => showErrorToast(error),
                }),
            }
          : undefined
      }
    >
      <form id={FORM_ID} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...register('name')} disabled={editing || !canWrite} />
          </FormField>
          <FormField label="Namespace">
            <Input {...register('namespace')} disabled={editing || !canWrite} />
          </FormField>
        </div>
        <div className="md:w-1/2">
          <PlaybookRecipientField
            control={control}
            disabled={!canWrite}
            onChange={(yaml) => setValue('spec', yaml, { shouldDirty: true })}
          />
        </div>
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
                readOnly={!canWrite}
                height="24rem"
              />
            )}
          />
          <FieldError id="notification-spec-error" message={errors.spec?.message} />
        </div>
      </form>
    </ResourceEditor>
  );
}

/** A rule on the shared resource editor: YAML spec, Save/Update, Delete. */
export function NotificationRuleEditor({ id }: { id: string }) {
  const isNew = id === 'new';
  const rule = useNotificationRule(isNew ? undefined : id);
  if (isNew) return <RuleForm rule={null} />;
  if (rule.isPending) return <PageSkeleton label="Loading notification" />;
  if (rule.isError) throw rule.error;
  if (!rule.data) return <NoDetailsFound />;
  return <RuleForm key={rule.data.id} rule={rule.data} />;
}
