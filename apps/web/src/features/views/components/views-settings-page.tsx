import type { ViewSummaryRow } from '@opsdeck/contracts';
import type { DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { ResourceListPage, resourceNameColumn } from '../../../components/resource-editor/resource-list-page';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { TagList } from '../../../components/tag-list/tag-list';
import { useCan } from '../../../lib/permissions';
import { useViewsList } from '../api/views-list';

export const VIEWS_SETTINGS_PATH = '/settings/views';
export const viewEditorPath = (id: string) => `${VIEWS_SETTINGS_PATH}/${encodeURIComponent(id)}`;

const TABLE = { tableId: 'settings-views', defaultSortOrder: 'desc' } as const;

const COLUMNS: DataTableColumn<ViewSummaryRow>[] = [
  resourceNameColumn<ViewSummaryRow>(viewEditorPath),
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'title',
    header: 'Title',
    accessorKey: 'title',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <ResourceIcon icon={row.original.icon} />
        {row.original.title ?? row.original.name}
      </span>
    ),
  },
  { id: 'ordinal', header: 'Ordinal', accessorKey: 'ordinal' },
  {
    id: 'sidebar',
    header: 'Sidebar',
    accessorKey: 'sidebar',
    cell: ({ row }) => (row.original.sidebar ? 'Yes' : 'No'),
  },
  { id: 'source', header: 'Source', accessorKey: 'source' },
  {
    id: 'labels',
    header: 'Labels',
    enableSorting: false,
    cell: ({ row }) => <TagList tags={(row.original.labels ?? {}) as Record<string, string>} />,
  },
];

/** /settings/views: the View resources, each row opens its editor. */
export function ViewsSettingsPage() {
  const canWrite = useCan('views', 'write');
  const query = useViewsList(useDataTableState(TABLE));
  return (
    <ResourceListPage
      title="Views"
      tableLabel="Views"
      table={TABLE}
      columns={COLUMNS}
      query={query}
      editorPath={viewEditorPath}
      add={canWrite ? { label: 'Add View', to: `${VIEWS_SETTINGS_PATH}/new` } : undefined}
      emptyMessage="No resources found"
    />
  );
}
