import { RESOURCE_SEVERITIES } from '@opsdeck/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { Input } from '../../../components/input/input';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { resolveTimeRange } from '../../../components/time-range-picker/time-range';
import { UrlTimeRangePicker } from '../../../components/time-range-picker/time-range-picker';
import { TriStateFilterList } from '../../../components/tri-state-filter/tri-state-filter-list';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import { decodeFilterStates, filterParamName } from '../../../lib/url-state/filter-encoding';
import { useFilterParam } from '../../../lib/url-state/filter-params';
import { enumParam, stringParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useTimeRangeParams } from '../../../lib/url-state/time-range-params';
import { useChangeFeed, useChangeFilterOptions, type ChangeFeedRow } from '../api/config-changes';
import type { ChangeFeedFilters } from '../lib/catalog-query';
import { ChangeDiffModal } from './change-diff';

/** URL parameters of the feed; the tri-state ones live in `<name>.filter`. */
export const CHANGE_FEED_PARAMS = {
  changeType: 'changeType',
  severity: 'severity',
  configType: 'configType',
  tags: 'tags',
  createdBy: 'createdBy',
  recursive: 'recursive',
  changeId: 'changeId',
} as const;

const RECURSIONS = ['all', 'downstream', 'upstream', 'none'] as const;
const RECURSION_LABELS: Record<(typeof RECURSIONS)[number], string> = {
  all: 'Related items (both ways)',
  downstream: 'Related items (downstream)',
  upstream: 'Related items (upstream)',
  none: 'This item only',
};

const TABLE = { tableId: 'catalog-changes', defaultSortBy: 'created_at', defaultSortOrder: 'desc' } as const;

const stopRowClick = (event: { stopPropagation(): void }) => event.stopPropagation();

function useColumns(scoped: boolean): DataTableColumn<ChangeFeedRow>[] {
  return useMemo(
    () => [
      {
        id: 'change_type',
        header: 'Change',
        accessorKey: 'change_type',
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span className="font-medium text-gray-900">{row.original.change_type}</span>
            {row.original.summary && <span className="text-xs text-gray-600">{row.original.summary}</span>}
          </span>
        ),
      },
      {
        id: 'name',
        header: scoped ? 'Item' : 'Config',
        accessorKey: 'name',
        cell: ({ row }) => (
          <Link
            to={`/catalog/${encodeURIComponent(row.original.config_id)}`}
            onClick={stopRowClick}
            className="flex items-center gap-2 text-blue-700 hover:underline"
          >
            <ResourceIcon type={row.original.type} configClass={row.original.config_class} />
            <span className={row.original.deleted_at ? 'line-through' : undefined}>
              {row.original.name ?? row.original.config_id}
            </span>
          </Link>
        ),
      },
      { id: 'severity', header: 'Severity', accessorKey: 'severity' },
      { id: 'source', header: 'Source', accessorKey: 'source' },
      {
        id: 'created_by',
        header: 'Created By',
        accessorKey: 'created_by',
        cell: ({ row }) => row.original.created_by ?? row.original.external_created_by,
      },
      {
        id: 'created_at',
        header: 'Created',
        accessorKey: 'created_at',
        cell: ({ row }) => <Age value={row.original.created_at} />,
      },
    ],
    [scoped],
  );
}

function CreatedByFilter() {
  const { states, setStates } = useFilterParam(CHANGE_FEED_PARAMS.createdBy);
  const current = Object.keys(states)[0] ?? '';
  const [text, setText] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    setStates(value ? { [value]: 1 } : {});
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-1">
      <label
        htmlFor="change-created-by"
        className="text-xs font-semibold tracking-wide text-gray-500 uppercase"
      >
        Created By
      </label>
      <Input
        compact
        id="change-created-by"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="user id or name, Enter"
      />
    </form>
  );
}

/** The filters of the feed from the URL, the time range resolved once per URL change. */
function useChangeFeedFilters(configId: string | undefined): ChangeFeedFilters {
  const [params] = useSearchParams();
  const { showDeletedConfigs, timezone } = usePreferences();
  const { timeRange } = useTimeRangeParams();
  const [recursive] = useSearchParam(CHANGE_FEED_PARAMS.recursive, enumParam(RECURSIONS), 'all');
  const serialized = params.toString();
  return useMemo(() => {
    const resolved = timeRange ? resolveTimeRange(timeRange, { timezone }) : undefined;
    const states = (name: string) => decodeFilterStates(params.get(filterParamName(name)));
    return {
      configId,
      recursive: configId ? recursive : undefined,
      changeType: states(CHANGE_FEED_PARAMS.changeType),
      severity: states(CHANGE_FEED_PARAMS.severity),
      configType: states(CHANGE_FEED_PARAMS.configType),
      tags: states(CHANGE_FEED_PARAMS.tags),
      createdBy: states(CHANGE_FEED_PARAMS.createdBy),
      from: resolved?.from,
      to: resolved?.to,
      showDeleted: showDeletedConfigs,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read only when the query string changes
  }, [serialized, configId, recursive, showDeletedConfigs, timezone, timeRange]);
}

/**
 * The change feed through POST /api/catalog/changes (core §7): filters by change type,
 * severity, config type, tags, time range and created_by, all in the URL; scoped to an item it
 * follows relationships 5 hops deep (core §9). A click opens the diff viewer.
 */
export function ChangeFeed({ configId }: { configId?: string }) {
  const filters = useChangeFeedFilters(configId);
  const state = useDataTableState(TABLE);
  const query = useChangeFeed(filters, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const options = useChangeFilterOptions();
  const [recursive, setRecursive] = useSearchParam(
    CHANGE_FEED_PARAMS.recursive,
    enumParam(RECURSIONS),
    'all',
  );
  const [changeId, setChangeId] = useSearchParam(CHANGE_FEED_PARAMS.changeId, stringParam, '');
  const columns = useColumns(Boolean(configId));
  if (query.isError && !query.data) throw query.error;
  const summary = Object.entries(query.data?.summary ?? {}).sort(([, a], [, b]) => b - a);

  return (
    <div className="flex gap-6">
      <aside aria-label="Change filters" className="flex w-56 shrink-0 flex-col gap-4">
        <TriStateFilterList
          filter={CHANGE_FEED_PARAMS.changeType}
          title="Change Type"
          options={(options.data?.changeTypes ?? []).map((value) => ({ value }))}
        />
        <TriStateFilterList
          filter={CHANGE_FEED_PARAMS.severity}
          title="Severity"
          options={RESOURCE_SEVERITIES.map((value) => ({ value }))}
        />
        {!configId && (
          <TriStateFilterList
            filter={CHANGE_FEED_PARAMS.configType}
            title="Config Type"
            options={(options.data?.configTypes ?? []).map((value) => ({ value }))}
          />
        )}
        {(options.data?.tags.length ?? 0) > 0 && (
          <TriStateFilterList
            filter={CHANGE_FEED_PARAMS.tags}
            title="Tags"
            options={(options.data?.tags ?? []).map((value) => ({ value }))}
          />
        )}
        <CreatedByFilter />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <UrlTimeRangePicker />
          {configId && (
            <div className="flex items-center gap-2 text-sm">
              <span aria-hidden>Scope</span>
              <SelectMenu
                compact
                aria-label="Scope"
                value={recursive}
                onChange={(choice) => setRecursive(choice)}
                options={RECURSIONS.map((value) => ({ value, label: RECURSION_LABELS[value] }))}
              />
            </div>
          )}
          {summary.length > 0 && (
            <ul aria-label="Changes by type" className="flex flex-wrap gap-2 text-xs text-gray-700">
              {summary.map(([type, count]) => (
                <li key={type} className="rounded bg-gray-100 px-1.5 py-0.5">
                  {type || 'unknown'}: {count}
                </li>
              ))}
            </ul>
          )}
        </div>
        <DataTable
          {...TABLE}
          label="Changes"
          columns={columns}
          data={query.data?.changes ?? []}
          totalRowCount={query.data?.total ?? 0}
          isLoading={query.isPending}
          getRowId={(row) => row.id}
          onRowClick={(row) => setChangeId(row.id)}
        />
      </div>
      <ChangeDiffModal changeId={changeId || undefined} onClose={() => setChangeId(undefined)} />
    </div>
  );
}
