import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { stringify } from 'yaml';
import { Button } from '../../../components/button/button';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { JobHistoryTable } from '../../../components/job-history-table/job-history-table';
import { readResourceForm } from '../../../components/resource-editor/read-resource-form';
import { ResourceEditor, useResourceEditorTab } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import { useRunTopology } from '../api/topology';
import {
  useDeleteTopology,
  useSaveTopology,
  useTopologyRow,
  useTopologySchema,
  type TopologyRow,
} from '../api/topologies';
import { TOPOLOGIES_PATH } from './topologies-page';

export const NEW_TOPOLOGY_ID = 'new';

/** Settings §2.4: "after saving an edited topology the user goes to /settings/integrations". */
const AFTER_EDIT_PATH = '/settings/integrations';

/** `?returnTo=` when it is a path of this app (never another origin), else undefined. */
function localReturnPath(value: string | null): string | undefined {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')
    ? value
    : undefined;
}

const NEW_SPEC = {
  type: 'Custom',
  schedule: '@every 5m',
  components: [{ name: 'component', type: 'Service' }],
};

function TopologyForm({ topology }: { topology: TopologyRow | undefined }) {
  const navigate = useNavigate();
  // A new topology returns where it was started from (the Add Integration wizard sets it).
  const [searchParams] = useSearchParams();
  const afterSave = topology
    ? AFTER_EDIT_PATH
    : (localReturnPath(searchParams.get('returnTo')) ?? TOPOLOGIES_PATH);
  const canWrite = useCan('topologies', 'write');
  const schema = useTopologySchema();
  const save = useSaveTopology(topology?.id);
  const remove = useDeleteTopology(topology?.id ?? '');
  const run = useRunTopology();
  const [, setTab] = useResourceEditorTab();
  const [name, setName] = useState(topology?.name ?? '');
  const [namespace, setNamespace] = useState(topology?.namespace ?? 'default');
  const [labelsText, setLabelsText] = useState(JSON.stringify(topology?.labels ?? {}, null, 2));
  const [specText, setSpecText] = useState(stringify(topology?.spec ?? NEW_SPEC));
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
          showSuccessToast(`${saved.name} ${topology ? 'updated' : 'created'} successfully`);
          void navigate(afterSave);
        },
        onError: (error) => setProblem(error.message),
      },
    );
  };

  return (
    <ResourceEditor
      list={{ label: 'Topologies', path: TOPOLOGIES_PATH }}
      name={topology?.name}
      newLabel="New topology"
      tabsLabel="Topology"
      jobHistory={topology && <JobHistoryTable resourceId={topology.id} tableId="topology-jobs" />}
      save={readOnly ? undefined : { pending: save.isPending, onSave: submit }}
      extraActions={
        topology && canWrite ? (
          <Button
            disabled={run.isPending}
            onClick={() =>
              run.mutate(topology.id, {
                onSuccess: (result) => {
                  if (result.status === 'FAILED') showErrorToast(new Error(result.errors.join('; ')));
                  else
                    showSuccessToast(`${topology.name} ran: ${result.summary?.components ?? 0} components`);
                  void setTab('job-history');
                },
                onError: (error) => showErrorToast(error),
              })
            }
          >
            {run.isPending ? 'Running...' : 'Run Now'}
          </Button>
        ) : undefined
      }
      remove={
        topology && !readOnly
          ? {
              title: `Delete ${topology.name}?`,
              description: 'Its schedule stops and its components are marked deleted; their history is kept.',
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    showSuccessToast(`${topology.name} deleted successfully`);
                    void navigate(TOPOLOGIES_PATH);
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
            disabled={Boolean(topology) || readOnly}
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField label="Namespace">
          <Input
            compact
            value={namespace}
            disabled={Boolean(topology) || readOnly}
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
 * /settings/topologies/{id} (settings §2.4, §2.7): Name and Namespace (fixed once saved), Labels,
 * Spec (YAML checked against the topology.spec schema), Save/Update, Run Now, Cancel, Delete and
 * Job History. `/settings/topologies/new` creates one.
 */
export function TopologyEditorPage() {
  const { id = '' } = useParams();
  const isNew = id === NEW_TOPOLOGY_ID;
  const query = useTopologyRow(id, !isNew);
  if (isNew) return <TopologyForm topology={undefined} />;
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NoDetailsFound />;
    throw query.error;
  }
  if (query.isPending) return <PageSkeleton label="Loading topology" />;
  if (query.data === null) return <NoDetailsFound />;
  return <TopologyForm key={query.data.id} topology={query.data} />;
}
