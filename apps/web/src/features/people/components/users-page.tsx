import { useQuery } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Badge } from '../../../components/badge/badge';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import { useCurrentUser } from '../../auth';
import { useDeleteUser, usersQueryOptions } from '../api/users';
import type { UserRow } from '../lib/users';
import { EditRolesDialog } from './edit-roles-dialog';
import { INVITE_TITLE, InviteUserDialog } from './invite-user-dialog';

const STATUS_COLOURS = { Active: 'green', Invited: 'blue', Deactivated: 'gray' } as const;

interface RowActions {
  canEditRoles: boolean;
  canDelete: boolean;
  selfId: string | undefined;
  onEditRoles(user: UserRow): void;
  onDelete(user: UserRow): void;
}

function useColumns(actions: RowActions): DataTableColumn<UserRow>[] {
  return useMemo(
    () => [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      { id: 'email', header: 'Email', accessorKey: 'email' },
      {
        id: 'roles',
        header: 'Roles',
        accessorFn: (row) => row.roles.join(','),
        cell: ({ row }) => (
          <span className="flex flex-wrap gap-1">
            {row.original.roles.map((role) => (
              <Badge key={role} tone={role === 'admin' ? 'orange' : 'gray'}>
                {role}
              </Badge>
            ))}
          </span>
        ),
      },
      {
        id: 'lastLogin',
        header: 'Last sign-in',
        accessorFn: (row) => row.lastLogin ?? '',
        cell: ({ row }) =>
          row.original.lastLogin ? (
            <Age value={row.original.lastLogin} />
          ) : (
            <span className="text-gray-500">Never</span>
          ),
      },
      {
        id: 'status',
        header: 'Status',
        accessorKey: 'status',
        cell: ({ row }) => <Badge tone={STATUS_COLOURS[row.original.status]}>{row.original.status}</Badge>,
      },
      {
        id: 'actions',
        header: '',
        enableSorting: false,
        cell: ({ row }) => {
          const user = row.original;
          if (user.status === 'Deactivated') return null;
          return (
            <span className="flex justify-end gap-1">
              {actions.canEditRoles && (
                <button
                  type="button"
                  aria-label={`Change roles of ${user.name}`}
                  title="Change roles"
                  onClick={() => actions.onEditRoles(user)}
                  className="rounded p-1 text-gray-400 hover:bg-gray-100 hover:text-gray-700"
                >
                  <Pencil className="size-4" aria-hidden />
                </button>
              )}
              {actions.canDelete && user.id !== actions.selfId && (
                <button
                  type="button"
                  aria-label={`Delete user ${user.name}`}
                  title="Delete"
                  onClick={() => actions.onDelete(user)}
                  className="rounded p-1 text-gray-400 hover:bg-red-50 hover:text-red-600"
                >
                  <Trash2 className="size-4" aria-hidden />
                </button>
              )}
            </span>
          );
        },
      },
    ],
    [actions],
  );
}

/** What the users page says when people come from a hosted identity provider. */
export function hostedUsersMessage(provider: string): string {
  return `People sign in through ${provider}: invite, rename and remove them there. Their roles in Opsdeck are managed here.`;
}

/** Users (`/settings/users`, spec core §2): people with name, email, roles, last sign-in and status. */
export function UsersPage() {
  const query = useQuery(usersQueryOptions());
  const current = useCurrentUser();
  // Spec core §2: people from a hosted identity provider are invited and removed there.
  const hosted = current.hostedIdentityProvider;
  const canInvite = useCan('identities', 'write') && !hosted;
  const canEditRoles = useCan('rbac', 'write');
  const remove = useDeleteUser();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const actions = useMemo<RowActions>(
    () => ({
      canEditRoles,
      canDelete: canInvite,
      selfId: current.user?.id,
      onEditRoles: setEditing,
      onDelete: setDeleting,
    }),
    [canEditRoles, canInvite, current.user?.id],
  );
  const columns = useColumns(actions);
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
        {hosted ? (
          <p role="note" className="text-sm text-gray-700">
            {hostedUsersMessage(hosted)}
          </p>
        ) : (
          <p className="text-sm text-gray-600">People who can sign in to Opsdeck, and the roles they hold.</p>
        )}
        {canInvite && (
          <Button variant="primary" className="shrink-0" onClick={() => setInviting(true)}>
            <Plus className="size-4" aria-hidden />
            {INVITE_TITLE}
          </Button>
        )}
      </div>
      <DataTable
        tableId="users"
        label="Users"
        columns={columns}
        data={query.data ?? []}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
      />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} />
      <EditRolesDialog user={editing} onClose={() => setEditing(null)} />
      <ConfirmationDialog
        open={deleting !== null}
        title="Delete user"
        description={
          deleting
            ? `Are you sure you want to delete ${deleting.name}? They can no longer sign in; their sessions and tokens end at once.`
            : undefined
        }
        isLoading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
