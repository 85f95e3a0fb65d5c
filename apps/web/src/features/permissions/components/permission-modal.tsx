import {
  PERMISSION_OBJECTS,
  PERMISSION_RESOURCE_TABS,
  PERMISSION_ROLE_SUBJECTS,
  PERMISSION_SUBJECT_TABS,
  type PermissionResourceTab,
  type PermissionSubjectType,
} from '@opsdeck/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { optionsOf, SelectMenu, type SelectMenuOption } from '../../../components/select-menu/select-menu';
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
  type PermissionSummary,
} from '../lib/permission-form';

export const DELETE_PERMISSION_QUESTION = 'Are you sure you want to delete the permission?';

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
  onClose(): void;
}

/** Add Permission / Edit Permission (settings §2.2). */
export function PermissionModal({ permission, open, canWrite, onClose }: PermissionModalProps) {
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
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function PermissionForm({
  permission,
  canWrite,
  onClose,
}: {
  permission: PermissionSummary | null;
  canWrite: boolean;
  onClose(): void;
}) {
  const save = useSavePermission();
  const remove = useDeletePermission();
  const [confirming, setConfirming] = useState(false);
  // Settings §4: a KubernetesCRD permission is read-only.
  const readOnly = !canWrite || (permission !== null && permission.source === 'KubernetesCRD');
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm<PermissionFormValues, unknown, Record<string, unknown>>({
    resolver,
    defaultValues: permission ? permissionToForm(permission) : EMPTY_PERMISSION_FORM,
  });
  const [subjectType, resourceTab, target] = useWatch({
    control,
    name: ['subjectType', 'resourceTab', 'target'],
  });
  const subjectSource = SUBJECT_SOURCES[subjectType];
  const subjects = useNamedOptions(subjectSource.relation, subjectSource.filter);
  const resources = useNamedOptions(resourceTab === 'Global' ? undefined : RESOURCE_SOURCES[resourceTab]);
  const agents = useNamedOptions('agents');
  const actions = actionsFor(resourceTab, target);
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

  /** Settings §4: switching the subject tab clears the subject; the resource tab clears the target. */
  function chooseSubject(type: PermissionSubjectType) {
    setValue('subjectType', type);
    setValue('subjectId', '');
  }
  function chooseResource(tab: PermissionResourceTab) {
    setValue('resourceTab', tab);
    setValue('target', '');
    setValue('action', 'read');
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      {permission?.source === 'KubernetesCRD' && (
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
        <FormField
          label={PERMISSION_SUBJECT_TABS.find((tab) => tab.type === subjectType)?.label ?? 'Subject'}
          required
          error={errors.subjectId?.message}
        >
          <Controller
            control={control}
            name="subjectId"
            render={({ field }) => (
              <SelectMenu
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                disabled={readOnly}
                options={subjectOptions}
                className="w-full"
                floating
              />
            )}
          />
        </FormField>
      </fieldset>
      <fieldset className="flex flex-col gap-2" disabled={readOnly}>
        <legend className="font-medium text-gray-700">Resource</legend>
        <div role="tablist" aria-label="Resource" className="flex gap-1 border-b border-gray-200">
          {PERMISSION_RESOURCE_TABS.map((tab) => (
            <EditorTab key={tab} selected={resourceTab === tab} onClick={() => chooseResource(tab)}>
              {tab}
            </EditorTab>
          ))}
        </div>
        <FormField
          label={resourceTab === 'Global' ? 'Object' : resourceTab}
          required
          error={errors.target?.message}
        >
          <Controller
            control={control}
            name="target"
            render={({ field }) => (
              <SelectMenu
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                disabled={readOnly}
                options={targetOptions}
                className="w-full"
                floating
              />
            )}
          />
        </FormField>
      </fieldset>
      <fieldset className="flex flex-col gap-3" disabled={readOnly}>
        <div className="grid grid-cols-2 items-end gap-3">
          <FormField label="Action" error={errors.action?.message}>
            <Controller
              control={control}
              name="action"
              render={({ field }) => (
                <SelectMenu
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  disabled={readOnly}
                  options={optionsOf(actions)}
                  className="w-full"
                  floating
                />
              )}
            />
          </FormField>
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
