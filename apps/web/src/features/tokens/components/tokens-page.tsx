import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { tokensQueryOptions, useDeleteToken, type AccessToken } from '../api/tokens';
import { orderedScopeKeys, scopeKey } from '../lib/scopes';
import { CreateTokenFlow } from './create-token-flow';

/** What an unscoped token may do. */
export const ALL_RIGHTS_LABEL = "All of the owner's rights";

function ScopeList({ token }: { token: AccessToken }) {
  if (token.scope.length === 0) return <span className="text-gray-500">{ALL_RIGHTS_LABEL}</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {orderedScopeKeys(token.scope.map(scopeKey)).map((key) => (
        <li key={key} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-700">
          {key}
        </li>
      ))}
    </ul>
  );
}

function useColumns(
  onDelete: (token: AccessToken) => void,
  showLastUsed: boolean,
): DataTableColumn<AccessToken>[] {
  return useMemo(() => {
    const columns: DataTableColumn<AccessToken>[] = [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      {
        id: 'scope',
        header: 'Scopes',
        accessorFn: (row) => row.scope.map(scopeKey).join(','),
        enableSorting: false,
        cell: ({ row }) => <ScopeList token={row.original} />,
      },
      { id: 'person', header: 'Owner', accessorFn: (row) => row.person?.name ?? '' },
      {
        id: 'created_at',
        header: 'Created',
        accessorKey: 'created_at',
        cell: ({ row }) => <Age value={row.original.created_at} />,
      },
      {
        id: 'expires_at',
        header: 'Expires',
        accessorFn: (row) => row.expires_at ?? '',
        cell: ({ row }) =>
          row.original.expires_at ? <Age value={row.original.expires_at} /> : <span>Never</span>,
      },
    ];
    if (showLastUsed) {
      columns.push({
        id: 'last_used_at',
        header: 'Last used',
        accessorFn: (row) => row.last_used_at ?? '',
        cell: ({ row }) =>
          row.original.last_used_at ? <Age value={row.original.last_used_at} /> : <span>Never</span>,
      });
    }
    columns.push({
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) => (
        <button
          type="button"
          aria-label={`Delete token ${row.original.name}`}
          title="Delete"
          onClick={(event) => {
            event.stopPropagation();
            onDelete(row.original);
          }}
          className="rounded p-1 text-gray-400 hover:bg-red-50 hover:text-red-600"
        >
          <Trash2 className="size-4" aria-hidden />
        </button>
      ),
    });
    return columns;
  }, [onDelete, showLastUsed]);
}

/** Tokens (`/settings/tokens`): the caller's API tokens (all of them for admins). */
export function TokensPage() {
  const query = useQuery(tokensQueryOptions());
  const remove = useDeleteToken();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AccessToken | null>(null);
  const tokens = query.data ?? [];
  // The server lists no last use today; the column appears as soon as it does.
  const showLastUsed = tokens.some((token) => token.last_used_at !== undefined);
  const columns = useColumns(setDeleting, showLastUsed);
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
          API tokens for scripts and MCP clients. Send one as <code>Authorization: Bearer &lt;token&gt;</code>
          .
        </p>
        <Button variant="primary" className="shrink-0" onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden />
          Create new token
        </Button>
      </div>
      <DataTable
        tableId="tokens"
        label="Tokens"
        columns={columns}
        data={tokens}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        defaultSortBy="created_at"
        defaultSortOrder="desc"
      />
      <CreateTokenFlow open={creating} onClose={() => setCreating(false)} />
      <ConfirmationDialog
        open={deleting !== null}
        title="Delete token"
        description={
          deleting
            ? `Are you sure you want to delete the token '${deleting.name}'? Clients using it stop working at once.`
            : undefined
        }
        isLoading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
