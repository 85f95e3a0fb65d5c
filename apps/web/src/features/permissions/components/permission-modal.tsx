import {
  PERMISSION_OBJECTS,
  PERMISSION_RESOURCE_TABS,
  PERMISSION_ROLE_SUBJECTS,
  PERMISSION_SUBJECT_TABS,
  type PermissionResourceTab,
  type PermissionSubjectType,
} from '@opsdeck/contracts';
import { CircleHelp } from 'lucide-react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { optionsOf, type SelectMenuOption } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import { EditorTab } from '../../../components/resource-editor/resource-editor';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useState } from 'react';
import { useDeletePermission, useNamedOptions, useSavePermission } from '../api/permissions';
import {
  actionsFor,
  EMPTY_PERMISSION_FORM,
  permissionToForm,
  validatePermissionForm,
  type PermissionFormValues,
  type PermissionResourcePreset,
  type PermissionSummary,
} from '../lib/permission-form';
import { PermissionSelectField } from './permission-select-field';

export const DELETE_PERMISSION_QUESTION = 'Are you sure you want to delete the permission?';

/** The modal's help link (settings §2.2). */
export const PERMISSIONS_REFERENCE_PATH = '/reference/permissions';

const SUBJECT_SOURCES: Record<PermissionSubjectType, { relation?: string; filter?: string }> = {
  team: { relation: 'teams' },
  person: { relation: 'people', filter: 'email=not.is.null&deleted_at=is.null' },
  notification: { relation: 'notifications' },
  group: {},
  playbook: { relation: 'playbooks' },
};

const RESOURCE_SOURCES: Record<Exclude<PermissionResourceTab, 'Global'>, string> = {
  Catalog: 'config_items',
  Component: 'components',
  Connection: 'connections',
  Playbook: 'playbooks',
};

const resolver = validationResolver(validatePermissionForm);

export interface PermissionModalProps {
  /** The permission being edited; null to add one. */
  permission: PermissionSummary | null;
  open: boolean;
  canWrite: boolean;
  /** The resource of the page that opens the modal, shown fixed instead of the Resource tabs. */
  preset?: PermissionResourcePreset;
  onClose(): void;
}

/** Add Permission / Edit Permission (settings §2.2). */
export function PermissionModal({ permission, open, canWrite, preset, onClose }: PermissionModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={permission ? 'Edit Permission' : 'Add Permission'}
      size="small"
      enlargeable={false}
    >
      {open && (
        <PermissionForm
          key={permission?.id ?? 'new'}
          permission={permission}
          canWrite={canWrite}
          preset={preset}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function initialValues(
  permission: PermissionSummary | null,
  preset: PermissionResourcePreset | undefined,
): PermissionFormValues {
  if (permission) return permissionToForm(permission);
  if (!preset) return EMPTY_PERMISSION_FORM;
  return { ...EMPTY_PERMISSION_FORM, resourceTab: preset.tab, target: preset.target };
}

function PermissionForm({
  permission,
  canWrite,
  preset,
  onClose,
}: {
  permission: PermissionSummary | null;
  canWrite: boolean;
  preset: PermissionResourcePreset | undefined;
  onClose(): void;
}) {
  const save = useSavePermission();
  const remove = useDeletePermission();
  const [confirming, setConfirming] = useState(false);
  // Settings §4: a KubernetesCRD permission is read-only.
  const fromKubernetes = permission !== null && permission.source === 'KubernetesCRD';
  const readOnly = !canWrite || fromKubernetes;
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    control,
    formState: { errors },
  } = useForm<PermissionFormValues, unknown, Record<string, unknown>>({
    resolver,
    defaultValues: initialValues(permission, preset),
  });
  const [subjectType, resourceTab, target, fixedResource] = useWatch({
    control,
    name: ['subjectType', 'resourceTab', 'target', 'fixedResource'],
  });
  const subjectSource = SUBJECT_SOURCES[subjectType];
  const subjects = useNamedOptions(subjectSource.relation, subjectSource.filter);
  const fixedLabel = fixedResource?.label ?? preset?.label;
  const resources = useNamedOptions(
    resourceTab === 'Global' || fixedLabel !== undefined ? undefined : RESOURCE_SOURCES[resourceTab],
  );
  const agents = useNamedOptions('agents');
  const actions = actionsFor({ resourceTab, target, fixedResource });
  const subjectOptions: SelectMenuOption[] =
    subjectType === 'group'
      ? optionsOf(PERMISSION_ROLE_SUBJECTS)
      : (subjects.data ?? []).map((option) => ({ value: option.id, label: option.name }));
  const targetOptions: SelectMenuOption[] =
    resourceTab === 'Global'
      ? optionsOf(PERMISSION_OBJECTS)
      : (resources.data ?? []).map((option) => ({ value: option.id, label: option.name }));

  const submit = handleSubmit(async (row) => {
    try {
      await save.mutateAsync({ id: permission?.id, row });
      showSuccessToast(permission ? 'Permission updated' : 'Permission added');
      onClose();
    } catch (error) {
      showErrorToast(error);
    }
  });

  async function confirmDelete() {
    if (!permission) return;
    try {
      await remove.mutateAsync(permission.id);
      showSuccessToast('Permission deleted');
      setConfirming(false);
      onClose();
    } catch (error) {
      setConfirming(false);
      showErrorToast(error);
    }
  }

  /** The action stays unless the new resource does not offer it (playbook verbs off playbooks). */
  function keepActionAllowed() {
    if (!actionsFor(getValues()).includes(getValues('action'))) setValue('action', 'read');
  }
  /** Settings §4: switching the subject tab clears the subject; the resource tab clears the target. */
  function chooseSubject(type: PermissionSubjectType) {
    setValue('subjectType', type);
    setValue('subjectId', '');
  }
  function chooseResource(tab: PermissionResourceTab) {
    setValue('resourceTab', tab);
    setValue('target', '');
    keepActionAllowed();
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      <a
        href={PERMISSIONS_REFERENCE_PATH}
        target="_blank"
        rel="noreferrer"
        className="inline-flex items-center gap-1 self-end text-blue-700 hover:underline"
      >
        <CircleHelp className="size-4" aria-hidden />
        Permissions reference
      </a>
      {fromKubernetes && (
        <p role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          This permission comes from a Kubernetes resource (KubernetesCRD), so it is read-only here.
        </p>
      )}
      <fieldset className="flex flex-col gap-2" disabled={readOnly}>
        <legend className="font-medium text-gray-700">Subject</legend>
        <div role="tablist" aria-label="Subject" className="flex gap-1 border-b border-gray-200">
          {PERMISSION_SUBJECT_TABS.map((tab) => (
            <EditorTab
              key={tab.type}
              selected={subjectType === tab.type}
              onClick={() => chooseSubject(tab.type)}
            >
              {tab.label}
            </EditorTab>
          ))}
        </div>
        <PermissionSelectField
          control={control}
          name="subjectId"
          label={PERMISSION_SUBJECT_TABS.find((tab) => tab.type === subjectType)?.label ?? 'Subject'}
          options={subjectOptions}
          disabled={readOnly}
          required
          error={errors.subjectId?.message}
        />
      </fieldset>
      <fieldset className="flex flex-col gap-2" disabled={readOnly}>
        <legend className="font-medium text-gray-700">Resource</legend>
        {fixedLabel !== undefined ? (
          // Settings §2.2: a preset resource (or one the tabs cannot show) is a fixed display.
          <p
            aria-label="Resource"
            className="rounded border border-gray-200 bg-gray-50 px-3 py-2 text-gray-800"
          >
            {fixedLabel}
          </p>
        ) : (
          <>
            <div role="tablist" aria-label="Resource" className="flex gap-1 border-b border-gray-200">
              {PERMISSION_RESOURCE_TABS.map((tab) => (
                <EditorTab key={tab} selected={resourceTab === tab} onClick={() => chooseResource(tab)}>
                  {tab}
                </EditorTab>
              ))}
            </div>
            <PermissionSelectField
              control={control}
              name="target"
              label={resourceTab === 'Global' ? 'Object' : resourceTab}
              options={targetOptions}
              disabled={readOnly}
              required
              error={errors.target?.message}
              onChanged={keepActionAllowed}
            />
            {resourceTab === 'Global' && target === 'notification' && (
              <NotificationSelectorFields register={register} error={errors.notificationLabels?.message} />
            )}
          </>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-3" disabled={readOnly}>
        <div className="grid grid-cols-2 items-end gap-3">
          <PermissionSelectField
            control={control}
            name="action"
            label="Action"
            options={optionsOf(actions)}
            disabled={readOnly}
            error={errors.action?.message}
          />
          <label className="inline-flex items-center gap-2 pb-2 text-gray-700">
            <input type="checkbox" {...register('deny')} />
            Deny
          </label>
        </div>
        <FormField label="Tags" hint="key=value pairs separated by commas" error={errors.tags?.message}>
          <Input autoComplete="off" {...register('tags')} />
        </FormField>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 font-medium text-gray-700">Agents</legend>
          {(agents.data ?? []).length === 0 ? (
            <span className="text-gray-500">No agents registered</span>
          ) : (
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {(agents.data ?? []).map((agent) => (
                <label key={agent.id} className="inline-flex items-center gap-1.5 text-gray-700">
                  <input type="checkbox" value={agent.id} {...register('agents')} />
                  {agent.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <FormField label="Description">
          <Textarea rows={2} {...register('description')} />
        </FormField>
      </fieldset>
      <div className="flex items-center gap-2 border-t border-gray-200 pt-3">
        {permission && !readOnly && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
        <Button className="ml-auto" onClick={onClose}>
          Cancel
        </Button>
        {!readOnly && (
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        )}
      </div>
      <ConfirmationDialog
        open={confirming}
        title="Delete permission"
        description={DELETE_PERMISSION_QUESTION}
        isLoading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirming(false)}
      />
    </form>
  );
}

/**
 * Which notifications a Global 'notification' permission covers (docs/adr/0037, 0046): all of
 * them when the fields are empty, else those matching every field that is filled.
 */
function NotificationSelectorFields({
  register,
  error,
}: {
  register: UseFormRegister<PermissionFormValues>;
  error: string | undefined;
}) {
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-gray-200 p-3">
      <legend className="px-1 font-medium text-gray-700">Notifications</legend>
      <p className="text-gray-600">
        Leave empty for every notification; filled fields narrow it to those matching all of them.
      </p>
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Notification name" hint="* matches any text">
          <Input autoComplete="off" {...register('notificationName')} />
        </FormField>
        <FormField label="Notification namespace">
          <Input autoComplete="off" {...register('notificationNamespace')} />
        </FormField>
      </div>
      <FormField label="Notification labels" hint="team=a,env!=dev" error={error}>
        <Input autoComplete="off" {...register('notificationLabels')} />
      </FormField>
    </fieldset>
  );
}
