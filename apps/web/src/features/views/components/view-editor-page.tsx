import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { stringify } from 'yaml';
import { Link } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { readResourceForm } from '../../../components/resource-editor/read-resource-form';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import { useDeleteView, useSaveView, useViewRow, useViewSchema, type ViewRow } from '../api/views-list';
import { VIEWS_SETTINGS_PATH } from './views-settings-page';

export const NEW_VIEW_ID = 'new';

const NEW_SPEC = {
  display: { title: 'New view', icon: 'config', sidebar: false },
  queries: { items: { configs: { types: ['Kubernetes::Pod'] } } },
  columns: [
    { name: 'name', type: 'string' },
    { name: 'health', type: 'health', filter: { type: 'multiselect' } },
  ],
  mapping: { name: 'row.name', health: 'row.health' },
};

function ViewForm({ view }: { view: ViewRow | undefined }) {
  const navigate = useNavigate();
  const canWrite = useCan('views', 'write');
  const schema = useViewSchema();
  const save = useSaveView(view?.id);
  const remove = useDeleteView(view?.id ?? '');
  const [name, setName] = useState(view?.name ?? '');
  const [namespace, setNamespace] = useState(view?.namespace ?? 'default');
  const [labelsText, setLabelsText] = useState(JSON.stringify(view?.labels ?? {}, null, 2));
  const [specText, setSpecText] = useState(stringify(view?.spec ?? NEW_SPEC));
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<string>();
  const readOnly = !canWrite;
  const form = readResourceForm(name, labelsText, specText);

  const submit = () => {
    setSubmitted(true);
    if (!form.ok || !form.labels || !form.spec) return;
    setProblem(undefined);
    save.mutate(
      { name: name.trim(), namespace: namespace.trim() || 'default', labels: form.labels, spec: form.spec },
      {
        onSuccess: (saved) => {
          showSuccessToast(`${saved.name} ${view ? 'updated' : 'created'} successfully`);
          void navigate(VIEWS_SETTINGS_PATH);
        },
        onError: (error) => setProblem(error.message),
      },
    );
  };

  return (
    <ResourceEditor
      list={{ label: 'Views', path: VIEWS_SETTINGS_PATH }}
      name={view?.name}
      newLabel="New view"
      tabsLabel="View"
      save={readOnly ? undefined : { pending: save.isPending, onSave: submit }}
      extraActions={
        view ? (
          <Link
            to={`/views/${encodeURIComponent(view.id)}`}
            className="rounded border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50"
          >
            Open
          </Link>
        ) : undefined
      }
      remove={
        view && !readOnly
          ? {
              title: `Delete ${view.name}?`,
              description: 'It leaves the sidebar and its rows are dropped.',
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    showSuccessToast(`${view.name} deleted successfully`);
                    void navigate(VIEWS_SETTINGS_PATH);
                  },
                  onError: (error) => {
                    close();
                    showErrorToast(error);
                  },
                }),
            }
          : undefined
      }
    >
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Name" error={submitted ? form.problems.name : undefined}>
          <Input
            compact
            value={name}
            disabled={Boolean(view) || readOnly}
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField label="Namespace">
          <Input
            compact
            value={namespace}
            disabled={Boolean(view) || readOnly}
            onChange={(event) => setNamespace(event.target.value)}
          />
        </FormField>
      </div>
      <FormField label="Labels" error={submitted ? form.problems.labels : undefined}>
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
        height="24rem"
      />
      {submitted && form.problems.spec && <p className="text-xs text-red-700">{form.problems.spec}</p>}
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
 * /settings/views/{id} (the shared resource editor): Name and Namespace (fixed once saved), Labels,
 * Spec (YAML checked against the view.spec schema), Save/Update, Open, Cancel and Delete.
 * `/settings/views/new` creates one.
 */
export function ViewEditorPage() {
  const { id = '' } = useParams();
  const isNew = id === NEW_VIEW_ID;
  const query = useViewRow(id, !isNew);
  if (isNew) return <ViewForm view={undefined} />;
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NoDetailsFound />;
    throw query.error;
  }
  if (query.isPending) return <PageSkeleton label="Loading view" />;
  if (query.data === null) return <NoDetailsFound />;
  return <ViewForm key={query.data.id} view={query.data} />;
}
