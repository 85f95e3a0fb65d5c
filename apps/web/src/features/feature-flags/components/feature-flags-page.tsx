import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { propertiesQueryOptions, type Property } from '../../../lib/permissions';

function useColumns(): DataTableColumn<Property>[] {
  return useMemo(
    () => [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      {
        id: 'value',
        header: 'Value',
        accessorKey: 'value',
        cell: ({ row }) => <code className="text-xs">{row.original.value}</code>,
      },
      { id: 'type', header: 'Type', accessorFn: (row) => row.type ?? '' },
      { id: 'source', header: 'Source', accessorFn: (row) => row.source ?? '' },
      {
        id: 'description',
        header: 'Description',
        accessorFn: (row) => row.description ?? '',
        enableSorting: false,
      },
    ],
    [],
  );
}

/** Feature Flags (`/settings/feature-flags`): the properties, e.g. '{feature}.disable' = 'true'. */
export function FeatureFlagsPage() {
  const query = useQuery(propertiesQueryOptions());
  const columns = useColumns();
  if (query.isError && !query.data) throw query.error;
  return (
    <DataTable
      tableId="feature-flags"
      label="Feature Flags"
      columns={columns}
      data={query.data ?? []}
      isLoading={query.isPending}
      getRowId={(row) => row.name}
      defaultSortBy="name"
    />
  );
}
