import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions/use-can';
import {
  useDeleteNotificationRule,
  useNotificationRule,
  useSaveNotificationRule,
  type RuleInput,
} from '../api/notifications';
import { EMPTY_RULE_FORM, ruleToForm, validateRuleForm, type RuleFormValues } from '../lib/rule-form';
import { NOTIFICATION_RULES_PATH } from './notification-tabs';

const FORM_ID = 'notification-rule-form';
const resolver = validationResolver((values: RuleFormValues) => validateRuleForm(values));

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
