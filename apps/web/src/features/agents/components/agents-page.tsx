import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { AgentSummaryRow } from '@opsdeck/contracts';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import { agentsQueryOptions, useDeleteAgent } from '../api/agents';
import { AddAgentDialog } from './add-agent-dialog';

function properties(row: AgentSummaryRow): string {
  return Object.entries(row.properties ?? {})
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
}

/** /settings/agents: registered agents with last seen, version and what they own. */
export function AgentsPage() {
  const query = useQuery(agentsQueryOptions());
  const canWrite = useCan('agents', 'write');
  const remove = useDeleteAgent();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AgentSummaryRow | null>(null);
  const columns = useMemo<DataTableColumn<AgentSummaryRow>[]>(
    () => [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      { id: 'description', header: 'Description', accessorFn: (row) => row.description ?? '' },
      { id: 'properties', header: 'Properties', enableSorting: false, accessorFn: properties },
      {
        id: 'last_seen',
        header: 'Last seen',
        accessorFn: (row) => row.last_seen ?? '',
        cell: ({ row }) =>
          row.original.last_seen ? (
            <Age value={row.original.last_seen} />
          ) : (
            <span className="text-gray-500">Never</span>
          ),
      },
      { id: 'version', header: 'Version', accessorFn: (row) => row.version ?? '' },
      { id: 'checks_count', header: 'Checks', accessorKey: 'checks_count' },
      { id: 'config_count', header: 'Configs', accessorKey: 'config_count' },
      {
        id: 'actions',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          canWrite ? (
            <button
              type="button"
              aria-label={`Delete agent ${row.original.name}`}
              title="Delete"
              onClick={(event) => {
                event.stopPropagation();
                setDeleting(row.original);
              }}
              className="rounded p-1 text-gray-400 hover:bg-red-50 hover:text-red-600"
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          ) : null,
      },
    ],
    [canWrite],
  );
  if (query.isError && !query.data) throw query.error;

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      showSuccessToast(`${deleting.name} deleted successfully`);
      setDeleting(null);
    } catch (error) {
      showErrorToast(error);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-4">
        <p className="text-sm text-gray-600">
          Agents run checks and scrapers elsewhere and push their results here.
        </p>
        {canWrite && (
          <Button variant="primary" className="shrink-0" onClick={() => setAdding(true)}>
            <Plus className="size-4" aria-hidden />
            Add Agent
          </Button>
        )}
      </div>
      <DataTable
        tableId="agents"
        label="Agents"
        columns={columns}
        data={query.data ?? []}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
      />
      <AddAgentDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmationDialog
        open={deleting !== null}
        title="Delete agent"
        description={
          deleting
            ? `Are you sure you want to delete the agent '${deleting.name}'? Its token stops working at once.`
            : undefined
        }
        isLoading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
