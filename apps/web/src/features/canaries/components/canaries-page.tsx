import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { useCan } from '../../../lib/permissions';
import { isFileOwned, useCanaryList, type CanaryRow } from '../api/canaries';
import { checkTypesOf } from '../lib/spec-types';

export const CANARIES_PATH = '/settings/canaries';
/** Spec core §2: the generic settings list's empty state. */
export const NO_RESOURCES_MESSAGE = 'No resources found';

const TABLE = { tableId: 'settings-canaries', defaultSortOrder: 'asc' } as const;

export const canaryPath = (id: string) => `${CANARIES_PATH}/${encodeURIComponent(id)}`;

/** '2 healthy, 1 unhealthy' from the view's check counts. */
export function healthSummary(checks: CanaryRow['checks']): string {
  if (!checks) return 'No checks';
  const parts = [
    checks.healthy > 0 && `${checks.healthy} healthy`,
    checks.unhealthy > 0 && `${checks.unhealthy} unhealthy`,
    checks.unknown > 0 && `${checks.unknown} unknown`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'No checks';
}

const COLUMNS: DataTableColumn<CanaryRow>[] = [
  {
    id: 'name',
    header: 'Name',
    accessorKey: 'name',
    cell: ({ row }) => (
      <Link
        to={canaryPath(row.original.id)}
        onClick={(event) => event.stopPropagation()}
        className="text-blue-700 hover:underline"
      >
        {row.original.name}
      </Link>
    ),
  },
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'types',
    header: 'Types',
    enableSorting: false,
    cell: ({ row }) => checkTypesOf(row.original.spec).join(', '),
  },
  {
    id: 'status',
    header: 'Health',
    accessorKey: 'status',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <StatusDot status={row.original.status ?? 'unknown'} label={row.original.status ?? 'unknown'} />
        <span className="text-xs text-gray-700">{healthSummary(row.original.checks)}</span>
      </span>
    ),
  },
  { id: 'schedule', header: 'Schedule', accessorKey: 'schedule' },
  {
    id: 'source',
    header: 'Source',
    accessorKey: 'source',
    cell: ({ row }) =>
      isFileOwned(row.original.source) ? (
        <span className="font-mono text-xs" title="Managed by this file; read-only in the UI">
          {row.original.source}
        </span>
      ) : (
        (row.original.source ?? 'UI')
      ),
  },
  {
    id: 'last_runtime',
    header: 'Last Run',
    accessorKey: 'last_runtime',
    cell: ({ row }) =>
      row.original.last_runtime ? (
        <Age value={row.original.last_runtime} />
      ) : (
        <span className="text-gray-500">Never run</span>
      ),
  },
  {
    id: 'labels',
    header: 'Labels',
    enableSorting: false,
    cell: ({ row }) => <TagList tags={row.original.labels ?? {}} />,
  },
];

/** /settings/canaries (settings §2.4, core §2): the health checks, each row opens its editor. */
export function CanariesPage() {
  const navigate = useNavigate();
  const state = useDataTableState(TABLE);
  const canWrite = useCan('canaries', 'write');
  const query = useCanaryList({
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const columns = useMemo(() => COLUMNS, []);
  if (query.isError && !query.data) throw query.error;
  return (
    <section aria-label="Health Checks" className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-gray-900">Health Checks</h2>
        {canWrite && (
          <Link
            to={`${CANARIES_PATH}/new`}
            className="rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700"
          >
            Add Health Check
          </Link>
        )}
      </div>
      <DataTable
        {...TABLE}
        label="Health checks"
        columns={columns}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        emptyMessage={NO_RESOURCES_MESSAGE}
        getRowId={(row) => row.id}
        onRowClick={(row) => void navigate(canaryPath(row.id))}
      />
    </section>
  );
}
