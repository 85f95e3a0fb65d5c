import { INCIDENT_SEVERITY_LEVELS, INCIDENT_STATUSES, INCIDENT_TYPES } from '@opsdeck/contracts';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { SearchInput } from '../../../components/search-input/search-input';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { useCan } from '../../../lib/permissions';
import { TABLE_PARAMS, useUpdateSearchParams } from '../../../lib/url-state';
import { usePeople } from '../api/incident-detail';
import { useComponentOptions, useIncidentList, type IncidentListItem } from '../api/incident-list';
import { formatSeconds } from '../lib/format-seconds';
import { RESOLVE_TIME_FILTERS, type IncidentListFilters } from '../lib/incident-list-query';
import { CreateIncidentDialog } from './create-incident-dialog';
import { SeverityBadge, StatusBadge } from './incident-badges';

const TABLE = {
  tableId: 'incidents',
  defaultPageSize: 50,
  defaultSortBy: 'created_at',
  defaultSortOrder: 'desc',
} as const;

/** URL parameters of the list's filters. */
const FILTERS = ['search', 'severity', 'status', 'type', 'owner', 'component', 'ttr'] as const;
type FilterName = (typeof FILTERS)[number];

function useFilters(): [IncidentListFilters, (name: FilterName, value: string) => void] {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const filters = useMemo(
    () =>
      Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? undefined])) as IncidentListFilters,
    [params],
  );
  const setFilter = (name: FilterName, value: string) =>
    update(
      (draft) => {
        if (value) draft.set(name, value);
        else draft.delete(name);
        // A different result set starts on its first page.
        draft.delete(TABLE_PARAMS.pageIndex);
      },
      { replace: name === 'search' },
    );
  return [filters, setFilter];
}

const COLUMNS: DataTableColumn<IncidentListItem>[] = [
  {
    id: 'title',
    header: 'Title',
    accessorKey: 'title',
    cell: ({ row }) => (
      <span className="flex items-baseline gap-2">
        <span className="font-mono text-xs text-gray-500">{row.original.incident_id}</span>
        <Link
          to={`/incidents/${row.original.id}`}
          onClick={(e) => e.stopPropagation()}
          className="text-blue-700 hover:underline"
        >
          {row.original.title}
        </Link>
      </span>
    ),
  },
  {
    id: 'severity',
    header: 'Severity',
    accessorKey: 'severity',
    cell: ({ row }) => <SeverityBadge severity={row.original.severity} />,
  },
  {
    id: 'status',
    header: 'Status',
    accessorKey: 'status',
    cell: ({ row }) => <StatusBadge status={row.original.status} />,
  },
  { id: 'type', header: 'Type', accessorKey: 'type' },
  {
    id: 'commander',
    header: 'Commander',
    enableSorting: false,
    cell: ({ row }) => row.original.commander?.name ?? '',
  },
  {
    id: 'responders_count',
    header: 'Responders',
    enableSorting: false,
    cell: ({ row }) => row.original.responders_count,
  },
  {
    id: 'time_to_resolve',
    header: 'Time to resolve',
    accessorKey: 'time_to_resolve',
    cell: ({ row }) => formatSeconds(row.original.time_to_resolve),
  },
  {
    id: 'created_at',
    header: 'Created',
    accessorKey: 'created_at',
    cell: ({ row }) => <Age value={row.original.created_at} />,
  },
];

type FilterOption = string | { value: string; label: string };

function FilterSelect(props: {
  label: string;
  value: string | undefined;
  options: readonly FilterOption[];
  onChange(value: string): void;
}) {
  return (
    <span className="flex items-center gap-2 text-sm text-gray-700">
      <span aria-hidden>{props.label}</span>
      <SelectMenu
        compact
        aria-label={props.label}
        value={props.value ?? ''}
        onChange={props.onChange}
        options={[
          { value: '', label: 'All' },
          ...props.options.map((option) =>
            typeof option === 'string' ? { value: option, label: option } : option,
          ),
        ]}
      />
    </span>
  );
}

/** Incident list (spec core §2): searchable, filtered, sorted and paged on the server. */
export function IncidentsPage() {
  const state = useDataTableState(TABLE);
  const [filters, setFilter] = useFilters();
  const [search, setSearch] = useState(filters.search ?? '');
  const [creating, setCreating] = useState(false);
  const canWrite = useCan('incident', 'write');
  const navigate = useNavigate();
  const people = usePeople();
  const components = useComponentOptions();
  const query = useIncidentList(filters, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });

  if (query.isError && !query.data) throw query.error;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setFilter('search', search.trim());
          }}
        >
          <SearchInput
            aria-label="Search incidents"
            placeholder="Search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              if (!e.target.value) setFilter('search', '');
            }}
            onBlur={() => setFilter('search', search.trim())}
          />
        </form>
        <FilterSelect
          label="Severity"
          value={filters.severity}
          options={INCIDENT_SEVERITY_LEVELS}
          onChange={(v) => setFilter('severity', v)}
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          options={INCIDENT_STATUSES}
          onChange={(v) => setFilter('status', v)}
        />
        <FilterSelect
          label="Type"
          value={filters.type}
          options={INCIDENT_TYPES}
          onChange={(v) => setFilter('type', v)}
        />
        <FilterSelect
          label="Owner"
          value={filters.owner}
          options={(people.data ?? []).map((person) => ({ value: person.id, label: person.name }))}
          onChange={(v) => setFilter('owner', v)}
        />
        {!components.isError && (
          <FilterSelect
            label="Component"
            value={filters.component}
            options={(components.data ?? []).map((component) => ({
              value: component.id,
              label: component.name,
            }))}
            onChange={(v) => setFilter('component', v)}
          />
        )}
        <FilterSelect
          label="Time to resolve"
          value={filters.ttr}
          options={RESOLVE_TIME_FILTERS}
          onChange={(v) => setFilter('ttr', v)}
        />
        {canWrite && (
          <Button variant="primary" className="ml-auto" onClick={() => setCreating(true)}>
            Create Incident
          </Button>
        )}
      </div>
      <DataTable
        {...TABLE}
        label="Incidents"
        columns={COLUMNS}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => void navigate(`/incidents/${row.id}`)}
      />
      {canWrite && <CreateIncidentDialog open={creating} onClose={() => setCreating(false)} />}
    </div>
  );
}
