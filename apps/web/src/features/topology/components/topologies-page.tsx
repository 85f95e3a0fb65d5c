import type { DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { ResourceListPage, resourceNameColumn } from '../../../components/resource-editor/resource-list-page';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { useCan } from '../../../lib/permissions';
import { useTopologyList, type TopologyRow } from '../api/topologies';

export const TOPOLOGIES_PATH = '/settings/topologies';
export const topologyEditorPath = (id: string) => `${TOPOLOGIES_PATH}/${encodeURIComponent(id)}`;

const TABLE = { tableId: 'settings-topologies', defaultSortOrder: 'asc' } as const;

const COLUMNS: DataTableColumn<TopologyRow>[] = [
  resourceNameColumn<TopologyRow>(topologyEditorPath),
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'status',
    header: 'Health',
    accessorKey: 'status',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <StatusDot status={row.original.status} label={row.original.status} />
        <span className="text-xs text-gray-700">{row.original.components} components</span>
      </span>
    ),
  },
  { id: 'schedule', header: 'Schedule', accessorKey: 'schedule' },
  {
    id: 'job_status',
    header: 'Last Run',
    enableSorting: false,
    cell: ({ row }) => row.original.job_status ?? <span className="text-gray-500">Never run</span>,
  },
  { id: 'source', header: 'Source', accessorKey: 'source' },
  {
    id: 'labels',
    header: 'Labels',
    enableSorting: false,
    cell: ({ row }) => <TagList tags={row.original.labels ?? {}} />,
  },
];

/** /settings/topologies (settings §2.4): the Topology resources, each row opens its editor. */
export function TopologiesPage() {
  const canWrite = useCan('topologies', 'write');
  const query = useTopologyList(useDataTableState(TABLE));
  return (
    <ResourceListPage
      title="Topologies"
      tableLabel="Topologies"
      table={TABLE}
      columns={COLUMNS}
      query={query}
      editorPath={topologyEditorPath}
      add={canWrite ? { label: 'Add Topology', to: `${TOPOLOGIES_PATH}/new` } : undefined}
      emptyMessage="No resources found"
    />
  );
}
