import { resourceSpecJsonSchemaSchema } from '@opsdeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { parse, stringify } from 'yaml';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import type { JsonSchema } from '../../../components/code-editor/json-schema';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { apiFetch } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import { useDeletePlaybook, usePlaybookRow, useSavePlaybook, type PlaybookRow } from '../api/playbooks';
import { PLAYBOOKS_PATH } from './playbooks-page';

export const NEW_PLAYBOOK_ID = 'new';

const NEW_SPEC = {
  title: 'New playbook',
  category: 'General',
  parameters: [],
  actions: [{ name: 'hello', exec: { script: 'echo hello' } }],
};

const usePlaybookSchema = () =>
  useQuery({
    queryKey: ['schema', 'playbook-spec'],
    staleTime: 300_000,
    queryFn: async ({ signal }): Promise<JsonSchema> =>
      apiFetch(
        '/api/schemas/playbook-spec.schema.json',
        { signal },
        { schema: resourceSpecJsonSchemaSchema },
      ),
  });

function PlaybookForm({ playbook }: { playbook: PlaybookRow | undefined }) {
  const navigate = useNavigate();
  const canWrite = useCan('playbooks', 'write');
  const schema = usePlaybookSchema();
  const save = useSavePlaybook(playbook?.id);
  const remove = useDeletePlaybook(playbook?.id ?? '');
  const [name, setName] = useState(playbook?.name ?? '');
  const [namespace, setNamespace] = useState(playbook?.namespace ?? 'default');
  const [specText, setSpecText] = useState(stringify(playbook?.spec ?? NEW_SPEC));
  const [problem, setProblem] = useState<string>();
  const submit = () => {
    let spec: unknown;
    try {
      spec = parse(specText);
    } catch (error) {
      setProblem(`The spec is not valid YAML: ${(error as Error).message}`);
      return;
    }
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
      setProblem('The spec must be a YAML object');
      return;
    }
    if (!playbook && name.trim() === '') {
      setProblem('Name is required');
      return;
    }
    setProblem(undefined);
    save.mutate(
      { name: name.trim(), namespace: namespace.trim() || 'default', spec: spec as Record<string, unknown> },
      {
        onSuccess: () => {
          showSuccessToast(`${name.trim()} updated successfully`);
          void navigate(PLAYBOOKS_PATH);
        },
        onError: (error) => showErrorToast(error),
      },
    );
  };
  return (
    <ResourceEditor
      list={{ label: 'Playbooks', path: PLAYBOOKS_PATH }}
      name={playbook?.name}
      newLabel="New playbook"
      tabsLabel="Playbook"
      save={canWrite ? { pending: save.isPending, onSave: submit } : undefined}
      remove={
        playbook && canWrite
          ? {
              title: `Delete ${playbook.name}?`,
              description: 'It can no longer be run; its past runs are kept.',
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(undefined, {
                  onSuccess: () => void navigate(PLAYBOOKS_PATH),
                  onError: (error) => {
                    close();
                    showErrorToast(error);
                  },
                }),
            }
          : undefined
      }
    >
      <div className="flex flex-col gap-3">
        <div className="grid gap-3 md:grid-cols-2">
          <FormField label="Name" required error={problem === 'Name is required' ? problem : undefined}>
            <Input
              value={name}
              onChange={(event) => setName(event.target.value)}
              disabled={Boolean(playbook) || !canWrite}
            />
          </FormField>
          <FormField label="Namespace">
            <Input
              value={namespace}
              onChange={(event) => setNamespace(event.target.value)}
              disabled={Boolean(playbook) || !canWrite}
            />
          </FormField>
        </div>
        <CodeEditor
          label="Spec"
          language="yaml"
          value={specText}
          onChange={setSpecText}
          schema={schema.data}
          readOnly={!canWrite}
          height="28rem"
        />
        {problem && problem !== 'Name is required' && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
      </div>
    </ResourceEditor>
  );
}

/** `/playbooks/{id}` and `/playbooks/new`: the playbook's YAML spec on the shared resource editor. */
export function PlaybookEditorPage() {
  const { id = NEW_PLAYBOOK_ID } = useParams();
  const isNew = id === NEW_PLAYBOOK_ID;
  const row = usePlaybookRow(id, !isNew);
  if (isNew) return <PlaybookForm playbook={undefined} />;
  if (row.isPending) return <PageSkeleton />;
  if (row.isError || !row.data) return <NoDetailsFound />;
  return <PlaybookForm playbook={row.data} />;
}
