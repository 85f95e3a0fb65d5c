import { VIEW_PAGE_SIZE, type ViewColumn, type ViewResult } from '@opsdeck/contracts';
import { RefreshCw } from 'lucide-react';
import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { FormattedDate } from '../../../components/date/age';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useUpdateSearchParams } from '../../../lib/url-state';
import { useRefreshView, useViewResult } from '../api/run-view';
import { useViewRows } from '../api/view-rows';
import { useViewIdByName } from '../api/views-list';
import { ViewCell } from './view-cell';
import { ViewPanels } from './view-panels';

/** URL parameters: `var.<key>` holds a variable's value, `col.<name>` a column filter. */
const VARIABLE_PREFIX = 'var.';
const FILTER_PREFIX = 'col.';

function prefixed(params: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params)
    if (key.startsWith(prefix) && value !== '') out[key.slice(prefix.length)] = value;
  return out;
}

function ViewTable({ result, filters }: { result: ViewResult; filters: Record<string, string> }) {
  const tableId = `view-${result.id}`;
  const state = useDataTableState({ tableId, defaultPageSize: VIEW_PAGE_SIZE, defaultSortOrder: 'desc' });
  const visible = result.columns.filter((column) => !column.hidden);
  const rows = useViewRows(
    result.id,
    {
      table: result.table,
      fingerprint: result.requestFingerprint,
      columns: result.columns.map((column) => column.name),
      pageIndex: state.pageIndex,
      pageSize: state.pageSize,
      sortBy: state.sortBy,
      sortOrder: state.sortOrder,
      filters: Object.fromEntries(Object.entries(filters).map(([column, value]) => [column, [value]])),
    },
    result.lastRefreshedAt !== null && result.lastRefreshedAt !== undefined,
  );
  const columns = useMemo<DataTableColumn<Record<string, unknown>>[]>(
    () =>
      visible.map((column: ViewColumn) => ({
        id: column.name,
        header: () => <span title={column.description ?? undefined}>{column.name}</span>,
        accessorFn: (row: Record<string, unknown>) => row[column.name],
        cell: ({ row }: { row: { original: Record<string, unknown> } }) => (
          <ViewCell column={column} value={row.original[column.name]} />
        ),
      })),
    [visible],
  );
  if (rows.isError && !rows.data)
    return (
      <p role="alert" className="text-sm text-red-700">
        {rows.error.message}
      </p>
    );
  const total = rows.data?.total ?? 0;
  return (
    <div className="flex flex-col gap-1">
      {rows.data && !rows.data.totalExact && (
        <p className="text-xs text-gray-500">About {total.toLocaleString()} rows match (an estimate)</p>
      )}
      <DataTable
        tableId={tableId}
        label={`${result.title ?? result.name} rows`}
        columns={columns}
        data={rows.data?.rows ?? []}
        totalRowCount={total}
        isLoading={rows.isPending}
        defaultPageSize={VIEW_PAGE_SIZE}
        defaultSortOrder="desc"
      />
    </div>
  );
}

/**
 * A view (core §2): title and icon, the variables as dropdowns, a refresh button, the panels,
 * a filter per filterable column and the server-paged table of its rows.
 * `fixedVariables` (a config tab's `config_id`) are sent with every request.
 */
export function ViewContent({ id, fixedVariables }: { id: string; fixedVariables?: Record<string, string> }) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const chosen = prefixed(params, VARIABLE_PREFIX);
  const filters = prefixed(params, FILTER_PREFIX);
  const variables = { ...chosen, ...fixedVariables };
  const query = useViewResult(id, variables);
  const refresh = useRefreshView(id, variables);

  if (query.isError && !query.data) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NoDetailsFound />;
    return (
      <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
        {query.error.message}
      </p>
    );
  }
  if (query.isPending) return <PageSkeleton label="Loading view" />;
  const result = query.data;
  const filterable = result.columns.filter((column) => column.filterable);

  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center gap-3">
        <h2 className="flex flex-1 items-center gap-2 text-lg font-semibold text-gray-900">
          <ResourceIcon icon={result.icon} className="size-5" />
          {result.title ?? result.name}
        </h2>
        {result.lastRefreshedAt && (
          <span className="text-xs text-gray-500">
            Last refreshed <FormattedDate value={result.lastRefreshedAt} />
          </span>
        )}
        <Button
          aria-label="Refresh view"
          disabled={refresh.isPending}
          onClick={() => refresh.mutate(undefined, { onError: (error) => showErrorToast(error) })}
        >
          <RefreshCw className={refresh.isPending ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
          Refresh
        </Button>
      </header>
      {result.variables.length > 0 && (
        <div className="flex flex-wrap gap-3" aria-label="Variables" role="group">
          {result.variables.map((variable) => (
            <span key={variable.key} className="flex items-center gap-2 text-sm text-gray-700">
              <span aria-hidden>{variable.label}</span>
              <SelectMenu
                compact
                aria-label={variable.label}
                value={variable.value ?? ''}
                onChange={(value) =>
                  update((draft) => {
                    draft.set(`${VARIABLE_PREFIX}${variable.key}`, value);
                    draft.delete('pageIndex');
                  })
                }
                options={variable.options.map((option) => ({ value: option }))}
              />
            </span>
          ))}
        </div>
      )}
      <ViewPanels panels={result.panels} />
      {filterable.length > 0 && (
        <div className="flex flex-wrap gap-3" aria-label="Filters" role="group">
          {filterable.map((column) => (
            <span key={column.name} className="flex items-center gap-2 text-sm text-gray-700">
              <span aria-hidden>{column.name}</span>
              <SelectMenu
                compact
                aria-label={column.name}
                value={filters[column.name] ?? ''}
                onChange={(value) =>
                  update((draft) => {
                    if (value === '') draft.delete(`${FILTER_PREFIX}${column.name}`);
                    else draft.set(`${FILTER_PREFIX}${column.name}`, value);
                    draft.delete('pageIndex');
                  })
                }
                options={[
                  { value: '', label: 'All' },
                  ...(result.columnOptions[column.name] ?? []).map((option) => ({ value: option })),
                ]}
              />
            </span>
          ))}
        </div>
      )}
      <ViewTable key={result.requestFingerprint} result={result} filters={filters} />
    </div>
  );
}

/** /views/{id} */
export function ViewByIdPage() {
  const { id = '' } = useParams();
  return <ViewContent id={id} />;
}

/** /view/{namespace}/{name} and /view/{name} */
export function ViewByNamePage() {
  const { namespace, name = '' } = useParams();
  const found = useViewIdByName(namespace, name);
  if (found.isError) throw found.error;
  if (found.isPending) return <PageSkeleton label="Loading view" />;
  if (!found.data) return <NoDetailsFound />;
  return <ViewContent id={found.data} />;
}

/** /catalog/{id}/view/{viewId}: the view with the config item as its `config_id` variable. */
export function ConfigViewPage({ configId }: { configId: string }) {
  const { viewId = '' } = useParams();
  return <ViewContent id={viewId} fixedVariables={{ config_id: configId }} />;
}
