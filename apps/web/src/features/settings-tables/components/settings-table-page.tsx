import {
  SETTINGS_RESOURCE_TITLES,
  type SettingsResourceSummary,
  type SettingsResourceTable,
} from '@opsdeck/contracts';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { TagList } from '../../../components/tag-list/tag-list';
import { useSettingsResourceList } from '../api/settings-tables';

export const settingsTablePath = (table: SettingsResourceTable) => `/settings/${table}`;
export const settingsResourcePath = (table: SettingsResourceTable, id: string) =>
  `/settings/${table}/${encodeURIComponent(id)}`;

/** Spec core §2: the generic list's empty state. */
export const NO_RESOURCES_MESSAGE = 'No resources found';

const COLUMNS: DataTableColumn<SettingsResourceSummary>[] = [
  { id: 'name', header: 'Name', accessorKey: 'name' },
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'labels',
    header: 'Labels',
    enableSorting: false,
    cell: ({ row }) => <TagList tags={row.original.labels ?? {}} />,
  },
  { id: 'source', header: 'Source', accessorKey: 'source' },
  {
    id: 'created_at',
    header: 'Created',
    accessorKey: 'created_at',
    cell: ({ row }) => <Age value={row.original.created_at} />,
  },
  {
    id: 'updated_at',
    header: 'Updated',
    accessorKey: 'updated_at',
    cell: ({ row }) => <Age value={row.original.updated_at} />,
  },
];

/**
 * /settings/{table} (spec core §2): the generic list of a settings table, at most 100 rows newest
 * first (core §9, the server's cap); a row opens its editor.
 */
export function SettingsTablePage({ table }: { table: SettingsResourceTable }) {
  const navigate = useNavigate();
  const query = useSettingsResourceList(table);
  if (query.isError && !query.data) throw query.error;
  const title = SETTINGS_RESOURCE_TITLES[table];
  return (
    <section aria-label={title} className="flex flex-col gap-4">
      <h2 className="text-base font-semibold text-gray-900">{title}</h2>
      <DataTable
        tableId={`settings-table-${table}`}
        label={title}
        columns={COLUMNS}
        data={query.data?.rows ?? []}
        isLoading={query.isPending}
        emptyMessage={NO_RESOURCES_MESSAGE}
        getRowId={(row) => row.id}
        onRowClick={(row) => void navigate(settingsResourcePath(table, row.id))}
      />
    </section>
  );
}
