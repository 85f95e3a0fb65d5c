import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SearchInput } from '../../../components/search-input/search-input';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { TriStateFilterList } from '../../../components/tri-state-filter/tri-state-filter-list';
import { formatCost } from '../../../lib/format/cost';
import { useFilterParam } from '../../../lib/url-state/filter-params';
import { useConfigList, useTypeTagsAndLabels, type ConfigListItem } from '../api/config-list';
import { keyValueOptions, typeLabel, type ConfigListFilters } from '../lib/catalog-query';
import { CATALOG_PARAMS, useCatalogFilterActions } from './use-catalog-filters';

const TABLE = { tableId: 'catalog-configs', defaultSortOrder: 'asc' } as const;

/** Core §3 cost fields, each a sortable column (items without a cost sort last). */
const COST_COLUMNS = [
  { id: 'cost_per_minute', header: 'Cost/min' },
  { id: 'cost_total_1d', header: 'Cost (1d)' },
  { id: 'cost_total_7d', header: 'Cost (7d)' },
  { id: 'cost_total_30d', header: 'Cost (30d)' },
] as const;

const stopRowClick = (event: { stopPropagation(): void }) => event.stopPropagation();

/** Shown when the list spans every type (a tag or label group of the summary). */
const TYPE_COLUMN: DataTableColumn<ConfigListItem> = {
  id: 'type',
  header: 'Type',
  accessorKey: 'type',
  cell: ({ row }) => typeLabel(row.original.type),
};

function useColumns(
  includeTag: (entry: string, state: 1 | -1) => void,
  withType: boolean,
): DataTableColumn<ConfigListItem>[] {
  return useMemo(
    () => [
      {
        id: 'name',
        header: 'Name',
        accessorKey: 'name',
        cell: ({ row }) => (
          <Link
            to={`/catalog/${encodeURIComponent(row.original.id)}`}
            onClick={stopRowClick}
            className="flex items-center gap-2 text-blue-700 hover:underline"
          >
            <ResourceIcon type={row.original.type} configClass={row.original.config_class} />
            <span className={row.original.deleted_at ? 'line-through' : undefined}>
              {row.original.name ?? row.original.id}
            </span>
          </Link>
        ),
      },
      ...(withType ? [TYPE_COLUMN] : []),
      { id: 'namespace', header: 'Namespace', accessorKey: 'namespace', enableSorting: false },
      {
        id: 'health',
        header: 'Health',
        accessorKey: 'health',
        cell: ({ row }) =>
          row.original.health ? (
            <span className="flex items-center gap-1">
              <StatusDot status={row.original.health} size="sm" />
              {row.original.health}
            </span>
          ) : null,
      },
      { id: 'status', header: 'Status', accessorKey: 'status' },
      {
        id: 'tags',
        header: 'Tags',
        enableSorting: false,
        cell: ({ row }) => (
          <span onClick={stopRowClick}>
            <TagList
              tags={row.original.tags}
              onFilter={(tag, action) => includeTag(`${tag.key}=${tag.value}`, action === 'include' ? 1 : -1)}
            />
          </span>
        ),
      },
      ...COST_COLUMNS.map(({ id, header }): DataTableColumn<ConfigListItem> => ({
        id,
        header,
        accessorKey: id,
        cell: ({ row }) => (
          <span className="block text-right tabular-nums">{formatCost(row.original[id])}</span>
        ),
      })),
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
    ],
    [includeTag, withType],
  );
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch(search: string): void }) {
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex gap-2">
      <SearchInput
        aria-label="Search configs"
        placeholder="Search name, type, description, namespace"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="w-80"
      />
      <Button type="submit">Search</Button>
    </form>
  );
}

function countValues(values: readonly (string | null)[]): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const value of values) if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([value, count]) => ({ value, count }));
}

/**
 * The items of one config type, or of every type with the tag or label value picked from a
 * summary group: filters on the left, the server-paged table on the right.
 */
export function ConfigList({ filters }: { filters: ConfigListFilters }) {
  const navigate = useNavigate();
  const state = useDataTableState(TABLE);
  const query = useConfigList(filters, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const facets = useTypeTagsAndLabels(filters);
  const { selectType, setSearch } = useCatalogFilterActions();
  const tagFilter = useFilterParam(CATALOG_PARAMS.tags);
  const { setState: setTagState } = tagFilter;
  const columns = useColumns(setTagState, !filters.type);

  const options = useMemo(() => {
    const rows = facets.data ?? [];
    return {
      health: countValues(rows.map((row) => row.health)),
      status: countValues(rows.map((row) => row.status)),
      tags: keyValueOptions(rows.map((row) => row.tags)).map((value) => ({ value })),
      labels: keyValueOptions(rows.map((row) => row.labels)).map((value) => ({ value })),
    };
  }, [facets.data]);

  if (query.isError && !query.data) throw query.error;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="button"
          onClick={() => selectType(undefined)}
          className="text-sm text-blue-700 hover:underline"
        >
          ← All types
        </button>
        <h2 className="flex items-center gap-2 text-base font-semibold text-gray-900">
          {filters.type ? (
            <>
              <ResourceIcon type={filters.type} />
              {filters.type}
            </>
          ) : (
            'All types'
          )}
        </h2>
        <SearchBox key={filters.search ?? ''} initial={filters.search ?? ''} onSearch={setSearch} />
      </div>
      <div className="flex gap-6">
        <aside aria-label="Filters" className="flex w-56 shrink-0 flex-col gap-4">
          <TriStateFilterList filter={CATALOG_PARAMS.health} title="Health" options={options.health} />
          <TriStateFilterList filter={CATALOG_PARAMS.status} title="Status" options={options.status} />
          {options.tags.length > 0 && (
            <TriStateFilterList filter={CATALOG_PARAMS.tags} title="Tags" options={options.tags} />
          )}
          {options.labels.length > 0 && (
            <TriStateFilterList filter={CATALOG_PARAMS.labels} title="Labels" options={options.labels} />
          )}
        </aside>
        <div className="min-w-0 flex-1">
          <DataTable
            {...TABLE}
            label="Config items"
            columns={columns}
            data={query.data?.rows ?? []}
            totalRowCount={query.data?.total ?? 0}
            isLoading={query.isPending}
            getRowId={(row) => row.id}
            onRowClick={(row) => void navigate(`/catalog/${encodeURIComponent(row.id)}`)}
          />
        </div>
      </div>
    </div>
  );
}
