import type { DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { ResourceListPage, resourceNameColumn } from '../../../components/resource-editor/resource-list-page';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { useCan } from '../../../lib/permissions';
import { isFileOwned } from '../../../lib/resource-api';
import { useCanaryList, type CanaryRow } from '../api/canaries';
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
  resourceNameColumn<CanaryRow>(canaryPath),
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
  const canWrite = useCan('canaries', 'write');
  // The table's page and order are the query's (the list is paged on the server).
  const query = useCanaryList(useDataTableState(TABLE));
  return (
    <ResourceListPage
      title="Health Checks"
      tableLabel="Health checks"
      table={TABLE}
      columns={COLUMNS}
      query={query}
      editorPath={canaryPath}
      add={canWrite ? { label: 'Add Health Check', to: `${CANARIES_PATH}/new` } : undefined}
      emptyMessage={NO_RESOURCES_MESSAGE}
    />
  );
}
