import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { stringify } from 'yaml';
import { Button } from '../../../components/button/button';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { readResourceForm } from '../../../components/resource-editor/read-resource-form';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { deleteAction, ResourceEditorRoute } from '../../../components/resource-editor/resource-editor-route';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import {
  useDeleteLogBackend,
  useLogBackendRow,
  useLogBackendSchema,
  useSaveLogBackend,
  type LogBackendRow,
} from '../api/log-backends';
import { LOG_BACKENDS_PATH } from './log-backends-page';

export const NEW_LOG_BACKEND_ID = 'new';

const NEW_SPEC = { file: { path: '/var/log/*.log', format: 'text' } };

function LogBackendFormView({ backend }: { backend: LogBackendRow | undefined }) {
  const navigate = useNavigate();
  const canWrite = useCan('logging_backends', 'write');
  const schema = useLogBackendSchema();
  const save = useSaveLogBackend(backend?.id);
  const remove = useDeleteLogBackend(backend?.id ?? '');
  const [name, setName] = useState(backend?.name ?? '');
  const [labelsText, setLabelsText] = useState(JSON.stringify(backend?.labels ?? {}, null, 2));
  const [specText, setSpecText] = useState(stringify(backend?.spec ?? NEW_SPEC));
  const [problem, setProblem] = useState<string>();
  const readOnly = !canWrite;
  const form = readResourceForm(name, labelsText, specText);

  const submit = () => {
    if (!form.ok || !form.labels || !form.spec) return;
    setProblem(undefined);
    save.mutate(
      { name: name.trim(), labels: form.labels, spec: form.spec },
      {
        onSuccess: (saved) => {
          showSuccessToast(`${saved.name} ${backend ? 'updated' : 'created'} successfully`);
          void navigate(LOG_BACKENDS_PATH);
        },
        onError: (error) => setProblem(error.message),
      },
    );
  };

  const submitButton = (
    <Button variant="primary" disabled={!form.ok || save.isPending} onClick={submit}>
      {backend ? (save.isPending ? 'Updating' : 'Update') : save.isPending ? 'Adding' : 'Add'}
    </Button>
  );

  return (
    <ResourceEditor
      list={{ label: 'Log Backends', path: LOG_BACKENDS_PATH }}
      name={backend?.name}
      newLabel="New log backend"
      tabsLabel="Log Backend"
      // Settings §2.5 names the buttons Add or Update (disabled while invalid), and Delete. The
      // shared editor shows extra actions of saved resources only, so Add sits under the form.
      extraActions={backend && !readOnly ? submitButton : undefined}
      remove={
        backend && !readOnly
          ? deleteAction({
              name: backend.name,
              description: 'Components and config items stop reading their logs from it.',
              pending: remove.isPending,
              run: (callbacks) => remove.mutate(undefined, callbacks),
              onDeleted: () => void navigate(LOG_BACKENDS_PATH),
              onError: showErrorToast,
            })
          : undefined
      }
    >
      <FormField label="Name" required error={form.problems.name}>
        <Input
          compact
          value={name}
          disabled={Boolean(backend) || readOnly}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
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
        schema={schema.data}
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
      {!backend && !readOnly && <div className="flex gap-2">{submitButton}</div>}
    </ResourceEditor>
  );
}

/**
 * /settings/log-backends/{id} (settings §2.5): Name (required, fixed once saved), Labels and Spec
 * (YAML checked against the LoggingBackend schema); Add or Update, Cancel and Delete.
 */
export function LogBackendEditorPage() {
  const { id = '' } = useParams();
  const isNew = id === NEW_LOG_BACKEND_ID;
  const query = useLogBackendRow(id, !isNew);
  return (
    <ResourceEditorRoute isNew={isNew} query={query} loadingLabel="Loading log backend">
      {(backend) => <LogBackendFormView backend={backend} />}
    </ResourceEditorRoute>
  );
}
