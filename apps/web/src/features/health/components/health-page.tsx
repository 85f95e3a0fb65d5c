import { DEFAULT_HEALTH_TIME_RANGE } from '@opsdeck/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { SearchInput } from '../../../components/search-input/search-input';
import { optionsOf, SelectMenu, type SelectMenuOption } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusBadge } from '../../../components/status-badge/status-badge';
import { TriStateToggle } from '../../../components/tri-state-filter/tri-state-toggle';
import { UptimeBar } from '../../../components/uptime-bar/uptime-bar';
import { formatLatency, formatUptime, parseIntervalMs as parseMs, pickLatency } from '../../../lib/format';
import { useCheckSummary } from '../api/check-summary';
import {
  ALL_TAB,
  FIXED_GROUP_BY,
  filterChecks,
  groupChecks,
  inTab,
  labelKeys,
  labelOptions,
  sortRows,
  tabsFor,
  type CheckSummary,
  type LabelFilter,
  type SortColumn,
} from '../lib/checks';
import { pivotChecks, PIVOT_CELL_TYPES, PIVOT_ROW_BY_NAME } from '../lib/pivot';
import { CheckDetailPanel } from './check-detail-panel';
import { HealthPivot } from './health-pivot';
import { HealthTable } from './health-table';
import { AUTO_REFRESH_OPTIONS, useAutoRefresh } from './use-auto-refresh';
import { useHealthParams } from './use-health-params';

const SEARCH_DEBOUNCE_MS = 400;

/** The search box's text, written to the URL 400 ms after the last keystroke (core §5). */
export function useDebouncedSearch(value: string, commit: (next: string) => void) {
  const [draft, setDraft] = useState<{ text: string; base: string; committed?: string }>({
    text: value,
    base: value,
  });
  // A URL change from elsewhere (back button, reload) replaces what was typed; the URL catching up
  // with our own earlier commit while typing went on does not.
  const text = draft.base === value || draft.committed === value ? draft.text : value;
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => {
      setDraft((previous) => ({ ...previous, committed: text }));
      commit(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, commit]);
  const setText = (next: string) => setDraft((previous) => ({ ...previous, text: next, base: value }));
  return [text, setText] as const;
}

function CheckCard({ check, onOpen }: { check: CheckSummary; onOpen(): void }) {
  const latency = pickLatency(check.latency);
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="health-check-card"
      className="flex flex-col gap-1 rounded border border-gray-200 p-3 text-left text-sm hover:border-blue-300"
    >
      <span className="flex min-w-0 items-center justify-between gap-2">
        <span className="truncate font-medium text-gray-900" title={check.name}>
          {check.name}
        </span>
        {/* Status as its word in its colour, as in the table (issue 30 "health at a glance"). */}
        <StatusBadge status={check.status} className="shrink-0" />
      </span>
      <span className="text-xs text-gray-500">{check.canary_name}</span>
      <span className="flex items-center gap-2 text-xs text-gray-700">
        <UptimeBar
          passed={check.uptime?.passed ?? 0}
          failed={check.uptime?.failed ?? 0}
          label={`${check.name} uptime`}
        />
        <span className="tabular-nums">{formatUptime(check.uptime, 1)}</span>
        {latency !== undefined && <span className="ml-auto tabular-nums">{formatLatency(latency)}</span>}
      </span>
    </button>
  );
}

/** The health page (core §2 'Health page (/health)'): every choice lives in the URL. */
export function HealthPage() {
  const [params, setParams] = useHealthParams();
  const [refresh, setRefresh] = useAutoRefresh();
  const summary = useCheckSummary(params.timeRange, refresh.ms);
  const [tab, setTab] = useState(ALL_TAB);
  const [showFilters, setShowFilters] = useState(false);
  const commitQuery = useMemo(() => (next: string) => setParams({ query: next }), [setParams]);
  const [search, setSearch] = useDebouncedSearch(params.query, commitQuery);

  const all = useMemo(() => summary.data ?? [], [summary.data]);
  const keys = useMemo(() => labelKeys(all), [all]);
  const pairs = useMemo(() => labelOptions(all), [all]);
  const filtered = useMemo(
    () => filterChecks(all, { query: params.query, labels: params.labels, hidePassing: params.hidePassing }),
    [all, params.query, params.labels, params.hidePassing],
  );
  const tabs = useMemo(() => tabsFor(filtered, params.tabBy), [filtered, params.tabBy]);
  const activeTab = tabs.includes(tab) ? tab : ALL_TAB;
  const visible = useMemo(
    () => filtered.filter((check) => inTab(check, params.tabBy, activeTab)),
    [filtered, params.tabBy, activeTab],
  );
  const rows = useMemo(
    () => sortRows(groupChecks(visible, params.groupBy), params.sortBy ?? 'name', params.sortDesc),
    [visible, params.groupBy, params.sortBy, params.sortDesc],
  );

  const pivot = useMemo(
    () => (params.pivotBy ? pivotChecks(visible, params.pivotBy, params.pivotLabel) : undefined),
    [visible, params.pivotBy, params.pivotLabel],
  );

  const activeFilters = Object.keys(params.labels).length + (params.hidePassing ? 1 : 0);
  const setLabel = (pair: string, mode: -1 | 0 | 1) => {
    const next: LabelFilter = { ...params.labels };
    if (mode === 0) delete next[pair];
    else next[pair] = mode;
    setParams({ labels: Object.keys(next).length ? JSON.stringify(next) : undefined });
  };
  // Stable handlers (they read the latest URL state) so the memoised table skips the renders
  // caused by typing in the search box.
  const latest = useRef({ params, setParams });
  useEffect(() => {
    latest.current = { params, setParams };
  });
  // Single-column sort: ascending, then descending, then removed (back to the default by name).
  const onSort = useCallback((column: SortColumn) => {
    const { params: current, setParams: set } = latest.current;
    if (current.sortBy !== column) set({ sortBy: column, sortDesc: undefined });
    else if (!current.sortDesc) set({ sortDesc: 'true' });
    else set({ sortBy: undefined, sortDesc: undefined });
  }, []);
  const open = useCallback((check: CheckSummary) => latest.current.setParams({ checkId: check.id }), []);

  if (summary.isError && !summary.data) throw summary.error;

  return (
    <div className="relative flex gap-4">
      {/* A column on wide screens; below 1280 px a panel over the page when toggled, so opening
          the filters never squeezes the table. */}
      <aside
        id="health-filters"
        aria-label="Filters"
        className={`${showFilters ? 'absolute top-12 left-0 z-20 flex rounded-md border border-gray-200 bg-white p-3 shadow-lg' : 'hidden'} w-60 shrink-0 flex-col gap-4 xl:static xl:flex xl:border-0 xl:bg-transparent xl:p-0 xl:shadow-none`}
      >
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={params.hidePassing}
            onChange={(event) => setParams({ hidePassing: event.target.checked ? undefined : 'false' })}
          />
          Hide Passing
        </label>
        <section className="flex flex-col gap-1">
          <h2 className="text-sm font-medium text-gray-700">Filter by Label</h2>
          {pairs.length === 0 && <p className="text-xs text-gray-500">No labels</p>}
          {pairs.map((pair) => (
            <TriStateToggle
              key={pair}
              label={pair}
              value={params.labels[pair] ?? 0}
              onChange={(next) => setLabel(pair, next)}
            />
          ))}
        </section>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Button
            className="xl:hidden"
            aria-expanded={showFilters}
            aria-controls="health-filters"
            onClick={() => setShowFilters((shown) => !shown)}
          >
            Filters{' '}
            {activeFilters > 0 && (
              <span className="rounded-full bg-blue-600 px-1.5 text-xs text-white">{activeFilters}</span>
            )}
          </Button>
          <SearchInput
            aria-label="Search"
            placeholder="Search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="w-64"
          />
          <ToolbarSelect
            label="Group By"
            value={params.groupBy}
            values={[
              ...FIXED_GROUP_BY,
              ...keys.filter((key) => !(FIXED_GROUP_BY as readonly string[]).includes(key)),
            ]}
            onChange={(value) => setParams({ groupBy: value === 'canary_name' ? undefined : value })}
          />
          <ToolbarSelect
            label="Tab By"
            value={params.tabBy}
            values={['namespace', 'agent', ...keys.filter((key) => key !== 'namespace' && key !== 'agent')]}
            onChange={(value) => setParams({ tabBy: value === 'namespace' ? undefined : value })}
          />
          <ToolbarSelect
            label="Pivot By"
            value={params.pivotBy ?? ''}
            values={['', ...keys]}
            onChange={(value) =>
              setParams({
                pivotBy: value || undefined,
                ...(value ? {} : { pivotCellType: undefined, pivotLabel: undefined }),
              })
            }
          />
          {params.pivotBy && (
            <>
              <ToolbarSelect
                label="Rows"
                value={params.pivotLabel}
                options={[
                  { value: PIVOT_ROW_BY_NAME, label: 'name' },
                  ...optionsOf(keys.filter((key) => key !== params.pivotBy)),
                ]}
                onChange={(value) =>
                  setParams({ pivotLabel: value === PIVOT_ROW_BY_NAME ? undefined : value })
                }
              />
              <ToolbarSelect
                label="Cell"
                value={params.pivotCellType}
                values={PIVOT_CELL_TYPES}
                onChange={(value) => setParams({ pivotCellType: value === 'health' ? undefined : value })}
              />
            </>
          )}
          <ToolbarSelect
            label="Auto refresh"
            value={refresh.value}
            // A stored value that is not one of the choices (typed elsewhere) stays selectable.
            values={[
              '',
              ...[
                ...(AUTO_REFRESH_OPTIONS as readonly string[]).filter((o) => o !== refresh.value),
                ...(refresh.value ? [refresh.value] : []),
              ].sort((a, b) => (parseMs(a) ?? 0) - (parseMs(b) ?? 0)),
            ]}
            onChange={setRefresh}
          />
          <ToolbarSelect
            label="Layout"
            value={params.layout}
            values={['table', 'card']}
            onChange={(value) => setParams({ layout: value === 'table' ? undefined : value })}
          />
        </div>
        <div role="tablist" aria-label="Tabs" className="flex flex-wrap gap-1 border-b border-gray-200">
          {tabs.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={name === activeTab}
              onClick={() => setTab(name)}
              className={`px-3 py-1 text-sm ${name === activeTab ? 'border-b-2 border-blue-600 text-blue-700' : 'text-gray-600'}`}
            >
              {name}
            </button>
          ))}
        </div>
        {summary.isPending ? (
          <PageSkeleton label="Loading checks" />
        ) : pivot && params.pivotBy ? (
          <HealthPivot
            table={pivot}
            pivotBy={params.pivotBy}
            rowBy={params.pivotLabel}
            cellType={params.pivotCellType}
            onOpen={open}
          />
        ) : params.layout === 'card' ? (
          visible.length === 0 ? (
            <EmptyState />
          ) : (
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {rows
                .flatMap((row) => (row.kind === 'group' ? row.checks : [row.check]))
                .map((check) => (
                  <CheckCard key={check.id} check={check} onOpen={() => open(check)} />
                ))}
            </div>
          )
        ) : (
          <HealthTable
            rows={rows}
            sortBy={params.sortBy}
            sortDesc={params.sortDesc}
            onSort={onSort}
            onOpen={open}
          />
        )}
      </div>
      {params.checkId && (
        <CheckDetailPanel
          checkId={params.checkId}
          summary={all.find((check) => check.id === params.checkId)}
          timeRange={params.explicitTimeRange}
          onTimeRangeChange={(range) => setParams({ timeRange: range })}
          onClose={() => setParams({ checkId: undefined, timeRange: DEFAULT_HEALTH_TIME_RANGE })}
        />
      )}
    </div>
  );
}

/** A labelled select of the toolbar; an empty value reads 'none'. */
function ToolbarSelect({
  label,
  value,
  values,
  options,
  onChange,
}: {
  label: string;
  value: string;
  values?: readonly string[];
  options?: readonly SelectMenuOption[];
  onChange(value: string): void;
}) {
  return (
    <span className="flex items-center gap-1 text-sm">
      <span aria-hidden>{label}</span>
      <SelectMenu
        compact
        aria-label={label}
        value={value}
        options={options ?? optionsOf(values ?? [], (option) => option || 'none')}
        onChange={onChange}
      />
    </span>
  );
}
