import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/badge/badge';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { useCan } from '../../../lib/permissions';
import { usePermissionsPage } from '../api/permissions';
import {
  presetFilter,
  resourceLabel,
  subjectLabel,
  type PermissionResourcePreset,
  type PermissionSummary,
} from '../lib/permission-form';
import { PermissionModal } from './permission-modal';

const TABLE_ID = 'permissions';

function Subject({ row }: { row: PermissionSummary }) {
  // Settings §2.2: a notification subject links to its rule.
  if (row.subject_type === 'notification' && row.notification_id) {
    return (
      <Link
        to={`/notifications/rules?id=${encodeURIComponent(row.notification_id)}`}
        onClick={(event) => event.stopPropagation()}
        className="text-blue-700 hover:underline"
      >
        {subjectLabel(row)}
      </Link>
    );
  }
  return <span>{subjectLabel(row)}</span>;
}

const COLUMNS: DataTableColumn<PermissionSummary>[] = [
  {
    id: 'subject',
    header: 'Subject',
    enableSorting: false,
    accessorFn: (row) => subjectLabel(row),
    cell: ({ row }) => <Subject row={row.original} />,
  },
  { id: 'resource', header: 'Resource', enableSorting: false, accessorFn: (row) => resourceLabel(row) },
  {
    id: 'action',
    header: 'Action',
    enableSorting: false,
    accessorKey: 'action',
    cell: ({ row }) => (
      <span className="inline-flex items-center gap-1.5">
        <span className="font-mono text-xs">{row.original.action}</span>
        {row.original.deny && <Badge tone="red">deny</Badge>}
      </span>
    ),
  },
  {
    id: 'description',
    header: 'Description',
    enableSorting: false,
    accessorFn: (row) => row.description ?? '',
  },
  {
    id: 'updated_at',
    header: 'Updated',
    enableSorting: false,
    accessorKey: 'updated_at',
    cell: ({ row }) => <Age value={row.original.updated_at} />,
  },
  {
    id: 'created_at',
    header: 'Created',
    enableSorting: false,
    accessorKey: 'created_at',
    cell: ({ row }) => <Age value={row.original.created_at} />,
  },
  {
    id: 'created_by',
    header: 'Created By',
    enableSorting: false,
    accessorFn: (row) => row.created_by_person?.name ?? '',
  },
];

export interface PermissionsPageProps {
  /**
   * The one resource whose permissions are managed (a playbook's, a connection's): the list shows
   * only its rules without the Resource column, and the modal shows it fixed. Default: all.
   */
  resource?: PermissionResourcePreset;
  /** Shows 'Add Permission' (to those who may write rbac). Default true. */
  showAddButton?: boolean;
}

/** /settings/permissions: the permissions manager (settings §2.2), paged by the server. */
export function PermissionsPage({ resource, showAddButton = true }: PermissionsPageProps) {
  // The server keeps permission rows under rbac (spec core §6): the page offers what it accepts.
  const canWrite = useCan('rbac', 'write');
  const { pageIndex, pageSize } = useDataTableState({ tableId: TABLE_ID });
  const page = usePermissionsPage(pageIndex, pageSize, resource && presetFilter(resource));
  const [editing, setEditing] = useState<PermissionSummary | null>(null);
  const [adding, setAdding] = useState(false);
  const columns = useMemo(
    () => (resource ? COLUMNS.filter((column) => column.id !== 'resource') : COLUMNS),
    [resource],
  );
  if (page.isError && !page.data) throw page.error;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-4">
        <p className="text-sm text-gray-600">
          What teams, people, roles, notifications and playbooks may do beyond their roles, or may not.
        </p>
        {canWrite && showAddButton && (
          <Button variant="primary" className="shrink-0" onClick={() => setAdding(true)}>
            <Plus className="size-4" aria-hidden />
            Add Permission
          </Button>
        )}
      </div>
      <DataTable
        tableId={TABLE_ID}
        label="Permissions"
        columns={columns}
        data={page.data?.data ?? []}
        totalRowCount={page.data?.totalEntries ?? 0}
        isLoading={page.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => setEditing(row)}
      />
      <PermissionModal
        open={adding || editing !== null}
        permission={editing}
        canWrite={canWrite}
        preset={resource}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
    </div>
  );
}
