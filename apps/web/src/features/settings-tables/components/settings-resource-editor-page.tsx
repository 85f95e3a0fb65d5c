import {
  resourceForRelation,
  settingsResourceEditableColumns,
  SETTINGS_RESOURCE_TITLES,
  type SettingsResource,
  type SettingsResourceTable,
  type SettingsResourceUpdate,
} from '@opsdeck/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { stringify } from 'yaml';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { readResourceForm } from '../../../components/resource-editor/read-resource-form';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { Textarea } from '../../../components/textarea/textarea';
import { showSuccessToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import { useSettingsResource, useUpdateSettingsResource } from '../api/settings-tables';
import { settingsTablePath } from './settings-table-page';

interface FormProps {
  table: SettingsResourceTable;
  resource: SettingsResource;
}

function SettingsResourceForm({ table, resource }: FormProps) {
  const navigate = useNavigate();
  const canWrite = useCan(resourceForRelation(table, 'write'), 'write');
  const save = useUpdateSettingsResource(table, resource.id);
  const editable = settingsResourceEditableColumns(table);
  const [labelsText, setLabelsText] = useState(JSON.stringify(resource.labels ?? {}, null, 2));
  const [specText, setSpecText] = useState(stringify(resource.spec ?? {}));
  const [icon, setIcon] = useState(resource.icon ?? '');
  const [schedule, setSchedule] = useState(resource.schedule ?? '');
  const [problem, setProblem] = useState<string>();
  const form = readResourceForm(resource.name, labelsText, specText);
  const readOnly = !canWrite;
  const list = { label: SETTINGS_RESOURCE_TITLES[table], path: settingsTablePath(table) };

  const submit = () => {
    if (!form.ok || !form.labels || !form.spec) return;
    setProblem(undefined);
    const changes: SettingsResourceUpdate = { labels: form.labels, spec: form.spec };
    if (editable.includes('icon')) changes.icon = icon.trim();
    if (editable.includes('schedule')) changes.schedule = schedule.trim();
    save.mutate(changes, {
      onSuccess: (saved) => {
        // Spec core §2: Save shows '{name} updated successfully' and returns to the list.
        showSuccessToast(`${saved.name} updated successfully`);
        void navigate(list.path);
      },
      onError: (error) => setProblem(error.message),
    });
  };

  return (
    <ResourceEditor
      list={list}
      name={resource.name}
      newLabel={resource.name}
      tabsLabel={SETTINGS_RESOURCE_TITLES[table]}
      save={readOnly ? undefined : { pending: save.isPending || !form.ok, onSave: submit }}
    >
      <FormField label="Name">
        <Input compact value={resource.name} disabled readOnly />
      </FormField>
      <FormField label="Namespace">
        <Input compact value={resource.namespace ?? ''} disabled readOnly />
      </FormField>
      {editable.includes('icon') && (
        <FormField label="Icon">
          <Input compact value={icon} readOnly={readOnly} onChange={(event) => setIcon(event.target.value)} />
        </FormField>
      )}
      {editable.includes('schedule') && (
        <FormField label="Schedule">
          <Input
            compact
            value={schedule}
            readOnly={readOnly}
            onChange={(event) => setSchedule(event.target.value)}
          />
        </FormField>
      )}
      <FormField label="Labels" error={form.problems.labels}>
        <Textarea
          code
          value={labelsText}
          readOnly={readOnly}
          rows={3}
          onChange={(event) => setLabelsText(event.target.value)}
        />
      </FormField>
      <CodeEditor
        label="Spec"
        value={specText}
        onChange={setSpecText}
        language="yaml"
        readOnly={readOnly}
        height="18rem"
      />
      {form.problems.spec && <p className="text-xs text-red-700">{form.problems.spec}</p>}
      {problem && (
        <div
          role="alert"
          aria-label="Save failed"
          className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {problem}
        </div>
      )}
    </ResourceEditor>
  );
}

/**
 * /settings/{table}/{id} (spec core §2): breadcrumb back to the list and Cancel; Update saves the
 * columns the server lets this table change (labels, spec, and icon or schedule where the table
 * has them); name and namespace are fixed (settings §5).
 */
export function SettingsResourceEditorPage({ table, id }: { table: SettingsResourceTable; id: string }) {
  const query = useSettingsResource(table, id);
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NoDetailsFound />;
    throw query.error;
  }
  if (query.isPending) return <PageSkeleton label="Loading resource" />;
  return <SettingsResourceForm key={query.data.id} table={table} resource={query.data} />;
}
