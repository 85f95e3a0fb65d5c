import { RESOURCE_SEVERITIES } from '@opsdeck/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SearchInput } from '../../../components/search-input/search-input';
import { TriStateFilterList } from '../../../components/tri-state-filter/tri-state-filter-list';
import { decodeFilterStates, filterParamName } from '../../../lib/url-state/filter-encoding';
import { stringParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useInsightFilterOptions, useInsightList, type InsightRow } from '../api/config-insights';
import type { InsightFilters } from '../lib/catalog-query';

/** URL parameters of the insights list; the tri-state ones live in `<name>.filter`. */
export const INSIGHT_PARAMS = {
  analyzer: 'analyzer',
  analysisType: 'analysisType',
  severity: 'severity',
  status: 'status',
  configType: 'configType',
  search: 'search',
} as const;

const STATUSES = ['open', 'resolved', 'silenced'] as const;
const TABLE = {
  tableId: 'catalog-insights',
  defaultSortBy: 'last_observed',
  defaultSortOrder: 'desc',
} as const;

const stopRowClick = (event: { stopPropagation(): void }) => event.stopPropagation();

const COLUMNS: DataTableColumn<InsightRow>[] = [
  {
    id: 'summary',
    header: 'Insight',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="flex flex-col">
        <span className="text-gray-900">
          {row.original.summary ?? row.original.message ?? row.original.analyzer}
        </span>
        {row.original.summary && row.original.message && (
          <span className="text-xs text-gray-600">{row.original.message}</span>
        )}
      </span>
    ),
  },
  {
    id: 'config',
    header: 'Config',
    enableSorting: false,
    cell: ({ row }) => (
      <Link
        to={`/catalog/${encodeURIComponent(row.original.config_id)}/insights`}
        onClick={stopRowClick}
        className="flex items-center gap-2 text-blue-700 hover:underline"
      >
        <ResourceIcon type={row.original.config_type} configClass={row.original.config_class} />
        {row.original.config_name ?? row.original.config_id}
      </Link>
    ),
  },
  { id: 'analyzer', header: 'Analyzer', accessorKey: 'analyzer' },
  { id: 'analysis_type', header: 'Type', accessorKey: 'analysis_type' },
  { id: 'severity', header: 'Severity', accessorKey: 'severity' },
  { id: 'status', header: 'Status', accessorKey: 'status' },
  {
    id: 'first_observed',
    header: 'First Observed',
    accessorKey: 'first_observed',
    cell: ({ row }) => <Age value={row.original.first_observed} />,
  },
  {
    id: 'last_observed',
    header: 'Last Observed',
    accessorKey: 'last_observed',
    cell: ({ row }) => <Age value={row.original.last_observed} />,
  },
];

function SearchBox() {
  const [search, setSearch] = useSearchParam(INSIGHT_PARAMS.search, stringParam, '');
  const [text, setText] = useState(search);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(text.trim() || undefined, { replace: true });
  };
  return (
    <form role="search" onSubmit={submit} className="flex gap-2">
      <SearchInput
        aria-label="Search insights"
        placeholder="Search summary, message, analyzer"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="w-80"
      />
      <Button type="submit">Search</Button>
    </form>
  );
}

/** /catalog/insights (core §2): analysis findings of every item, filtered and paged by the server. */
export function CatalogInsightsPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const serialized = params.toString();
  const filters = useMemo<InsightFilters>(() => {
    const states = (name: string) => decodeFilterStates(params.get(filterParamName(name)));
    return {
      analyzer: states(INSIGHT_PARAMS.analyzer),
      analysisType: states(INSIGHT_PARAMS.analysisType),
      severity: states(INSIGHT_PARAMS.severity),
      status: states(INSIGHT_PARAMS.status),
      configType: states(INSIGHT_PARAMS.configType),
      search: params.get(INSIGHT_PARAMS.search) ?? undefined,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read only when the query string changes
  }, [serialized]);
  const state = useDataTableState(TABLE);
  const query = useInsightList(filters, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const options = useInsightFilterOptions();
  if (query.isError && !query.data) throw query.error;
  return (
    <section aria-label="Catalog insights" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-4">
        <h2 className="text-base font-semibold text-gray-900">Insights</h2>
        <SearchBox />
      </div>
      <div className="flex gap-6">
        <aside aria-label="Insight filters" className="flex w-56 shrink-0 flex-col gap-4">
          <TriStateFilterList
            filter={INSIGHT_PARAMS.analysisType}
            title="Type"
            options={(options.data?.analysisTypes ?? []).map((value) => ({ value }))}
          />
          <TriStateFilterList
            filter={INSIGHT_PARAMS.severity}
            title="Severity"
            options={RESOURCE_SEVERITIES.map((value) => ({ value }))}
          />
          <TriStateFilterList
            filter={INSIGHT_PARAMS.status}
            title="Status"
            options={STATUSES.map((value) => ({ value }))}
          />
          <TriStateFilterList
            filter={INSIGHT_PARAMS.analyzer}
            title="Analyzer"
            options={(options.data?.analyzers ?? []).map((value) => ({ value }))}
          />
          <TriStateFilterList
            filter={INSIGHT_PARAMS.configType}
            title="Config Type"
            options={(options.data?.configTypes ?? []).map((value) => ({ value }))}
          />
        </aside>
        <div className="min-w-0 flex-1">
          <DataTable
            {...TABLE}
            label="Insights"
            columns={COLUMNS}
            data={query.data?.rows ?? []}
            totalRowCount={query.data?.total ?? 0}
            isLoading={query.isPending}
            getRowId={(row) => row.id}
            onRowClick={(row) => void navigate(`/catalog/${encodeURIComponent(row.config_id)}/insights`)}
          />
        </div>
      </div>
    </section>
  );
}
