import type { DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { ResourceListPage, resourceNameColumn } from '../../../components/resource-editor/resource-list-page';
import { TagList } from '../../../components/tag-list/tag-list';
import { useCan } from '../../../lib/permissions';
import { useLogBackendList, type LogBackendRow } from '../api/log-backends';

export const LOG_BACKENDS_PATH = '/settings/log-backends';
export const logBackendEditorPath = (id: string) => `${LOG_BACKENDS_PATH}/${encodeURIComponent(id)}`;

const TABLE = { tableId: 'settings-log-backends', defaultSortOrder: 'desc' } as const;

const BACKEND_TYPES = ['file', 'opsdeck', 'postgres', 'loki', 'opensearch'];

const COLUMNS: DataTableColumn<LogBackendRow>[] = [
  resourceNameColumn<LogBackendRow>(logBackendEditorPath),
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'type',
    header: 'Type',
    enableSorting: false,
    cell: ({ row }) => BACKEND_TYPES.find((type) => row.original.spec[type] !== undefined) ?? '',
  },
  { id: 'source', header: 'Source', accessorKey: 'source' },
  {
    id: 'labels',
    header: 'Labels',
    enableSorting: false,
    cell: ({ row }) => <TagList tags={row.original.labels ?? {}} />,
  },
];

/** /settings/log-backends (settings §2.5): the logging backends; each row opens its form. */
export function LogBackendsPage() {
  const canWrite = useCan('logging_backends', 'write');
  const query = useLogBackendList(useDataTableState(TABLE));
  return (
    <ResourceListPage
      title="Log Backends"
      table={TABLE}
      columns={COLUMNS}
      query={query}
      editorPath={logBackendEditorPath}
      add={canWrite ? { label: 'Add Log Backend', to: `${LOG_BACKENDS_PATH}/new` } : undefined}
      emptyMessage="No resources found"
    />
  );
}
