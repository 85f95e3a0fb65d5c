import { useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { stringify } from 'yaml';
import { Age, FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import {
  enumParam,
  integerParam,
  useSearchParam,
  useUpdateSearchParams,
} from '../../../lib/url-state/search-param';
import { useConfigAnalysis, useConfigChecks, useRelatedConfigs } from '../api/config-detail';
import { MAX_RELATIONSHIP_DEPTH, type RelationshipDirection } from '../lib/catalog-query';
import { formatLineRange, parseLineRange, type LineRange } from '../lib/line-selection';
import { ChangeFeed } from './change-feed';
import { useConfigDetailContext } from './config-detail-page';
import { RelationshipGraph } from './relationship-graph';
import { SpecLines } from './spec-lines';

const SPEC_FORMATS = ['yaml', 'json'] as const;

/** A row of pressed/unpressed buttons choosing one option (the spec's format, the graph or table view). */
function ToggleGroup<Option extends string>({
  label,
  options,
  value,
  onChange,
  optionLabel,
}: {
  label: string;
  options: readonly Option[];
  value: Option;
  onChange(option: Option): void;
  optionLabel(option: Option): string;
}) {
  return (
    <div role="group" aria-label={label} className="flex gap-1">
      {options.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded border px-2 py-0.5 text-xs ${value === option ? 'border-blue-500 bg-blue-50 text-blue-800' : 'border-gray-300 text-gray-700'}`}
        >
          {optionLabel(option)}
        </button>
      ))}
    </div>
  );
}

interface Column<Row> {
  header: string;
  cell(row: Row): ReactNode;
}

/** The compact tables of the sub-pages: one header row, one row per item. */
function CompactTable<Row extends { id: string }>({
  label,
  columns,
  rows,
}: {
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
}) {
  return (
    <table aria-label={label} className="w-full divide-y divide-gray-200 text-sm">
      <thead className="text-left text-xs text-gray-500 uppercase">
        <tr>
          {columns.map((column) => (
            <th key={column.header} className="px-2 py-1">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {rows.map((row) => (
          <tr key={row.id}>
            {columns.map((column) => (
              <td key={column.header} className="px-2 py-1">
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A sub-page listing rows of one query: a skeleton while loading, 'No data available' when empty. */
function TableSection<Row extends { id: string }>({
  label,
  query,
  columns,
}: {
  label: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data: readonly Row[] | undefined };
  columns: readonly Column<Row>[];
}) {
  if (query.isError) throw query.error;
  return (
    <section aria-label={label}>
      {query.isPending || !query.data ? (
        <Skeleton className="h-24 w-full" />
      ) : query.data.length === 0 ? (
        <EmptyState />
      ) : (
        <CompactTable label={label} columns={columns} rows={query.data} />
      )}
    </section>
  );
}

function HealthText({ health }: { health: string | null | undefined }) {
  return health ? (
    <span className="flex items-center gap-1">
      <StatusDot status={health} size="sm" />
      {health}
    </span>
  ) : null;
}

/**
 * /catalog/{id}: the scraped document as YAML or JSON, read-only, with line selection. The
 * format and the selected lines (`lines=12` or `lines=12-20`) live in the URL, so a copied link
 * opens the same lines highlighted.
 */
export function ConfigSpecPage() {
  const { config } = useConfigDetailContext();
  const [language] = useSearchParam('format', enumParam(SPEC_FORMATS), 'yaml');
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const selection = parseLineRange(params.get('lines'));
  const text = useMemo(
    () =>
      config === null || config === undefined
        ? ''
        : language === 'json'
          ? JSON.stringify(config, null, 2)
          : stringify(config),
    [config, language],
  );
  const chooseFormat = (format: (typeof SPEC_FORMATS)[number]) =>
    update((draft) => {
      // Line numbers belong to one rendering: a new format starts without a selection.
      draft.delete('lines');
      if (format === 'yaml') draft.delete('format');
      else draft.set('format', format);
    });
  const select = (range: LineRange | undefined) =>
    update(
      (draft) => {
        if (range) draft.set('lines', formatLineRange(range));
        else draft.delete('lines');
      },
      { replace: true },
    );
  return (
    <section aria-label="Spec" className="flex flex-col gap-2">
      {!text ? (
        <EmptyState />
      ) : (
        <>
          <ToggleGroup
            label="Format"
            options={SPEC_FORMATS}
            value={language}
            onChange={chooseFormat}
            optionLabel={(option) => option.toUpperCase()}
          />
          <SpecLines label="Config" text={text} selection={selection} onSelectionChange={select} />
        </>
      )}
    </section>
  );
}

/** /catalog/{id}/changes: the change feed of the item and, by default, its related items (depth 5). */
export function ConfigChangesPage() {
  const config = useConfigDetailContext();
  return (
    <section aria-label="Changes">
      <ChangeFeed configId={config.id} />
    </section>
  );
}

type Analysis = NonNullable<ReturnType<typeof useConfigAnalysis>['data']>[number];

const INSIGHT_COLUMNS: readonly Column<Analysis>[] = [
  { header: 'Analyzer', cell: (analysis) => analysis.analyzer },
  { header: 'Type', cell: (analysis) => analysis.analysis_type },
  { header: 'Severity', cell: (analysis) => analysis.severity },
  { header: 'Status', cell: (analysis) => analysis.status },
  { header: 'Message', cell: (analysis) => analysis.summary ?? analysis.message },
  { header: 'First observed', cell: (analysis) => <FormattedDate value={analysis.first_observed} /> },
  { header: 'Last observed', cell: (analysis) => <FormattedDate value={analysis.last_observed} /> },
];

/** /catalog/{id}/insights: the analysis findings of the item. */
export function ConfigInsightsPage() {
  const config = useConfigDetailContext();
  return <TableSection label="Insights" query={useConfigAnalysis(config.id)} columns={INSIGHT_COLUMNS} />;
}

const DIRECTIONS = ['all', 'incoming', 'outgoing'] as const;
const DIRECTION_LABELS: Record<RelationshipDirection, string> = {
  all: 'All',
  incoming: 'Incoming',
  outgoing: 'Outgoing',
};
const VIEWS = ['graph', 'table'] as const;
const DEPTHS = Array.from({ length: MAX_RELATIONSHIP_DEPTH }, (_, index) => index + 1);

/**
 * /catalog/{id}/relationships: items linked to this one, incoming and outgoing, walked up to 10
 * hops (core §9) through `rpc/related_configs_recursive`, as a graph or a table. Direction,
 * depth and view live in the URL.
 */
export function ConfigRelationshipsPage() {
  const config = useConfigDetailContext();
  const { showDeletedConfigs } = usePreferences();
  const [direction, setDirection] = useSearchParam<RelationshipDirection>(
    'direction',
    enumParam(DIRECTIONS),
    'all',
  );
  const [rawDepth, setDepth] = useSearchParam('depth', integerParam, MAX_RELATIONSHIP_DEPTH);
  const depth = Math.min(MAX_RELATIONSHIP_DEPTH, Math.max(1, rawDepth));
  const [view, setView] = useSearchParam('view', enumParam(VIEWS), 'graph');
  const query = useRelatedConfigs(config.id, direction, depth, showDeletedConfigs);
  if (query.isError) throw query.error;
  const related = (query.data ?? []).filter((row) => row.id !== config.id);
  const outgoingIds = useMemo(() => {
    // Items reachable by following related_ids from the root are downstream (outgoing).
    const byId = new Map((query.data ?? []).map((row) => [row.id, row]));
    const seen = new Set<string>([config.id]);
    const queue = [config.id];
    while (queue.length > 0) {
      for (const next of byId.get(queue.shift()!)?.related_ids ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return seen;
  }, [query.data, config.id]);

  const relatedColumns = useMemo<Column<(typeof related)[number]>[]>(
    () => [
      {
        header: 'Name',
        cell: (item) => (
          <Link
            to={`/catalog/${encodeURIComponent(item.id)}`}
            className="flex items-center gap-2 text-blue-700 hover:underline"
          >
            <ResourceIcon type={item.type} />
            <span className={item.deleted_at ? 'line-through' : undefined}>{item.name ?? item.id}</span>
          </Link>
        ),
      },
      { header: 'Type', cell: (item) => item.type },
      { header: 'Direction', cell: (item) => (outgoingIds.has(item.id) ? 'Outgoing' : 'Incoming') },
      { header: 'Health', cell: (item) => <HealthText health={item.health} /> },
      { header: 'Status', cell: (item) => item.status },
      { header: 'Updated', cell: (item) => <Age value={item.updated_at} /> },
    ],
    [outgoingIds],
  );

  return (
    <section aria-label="Relationships" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <div className="flex items-center gap-2">
          <span aria-hidden>Direction</span>
          <SelectMenu
            compact
            aria-label="Direction"
            value={direction}
            onChange={(choice) => setDirection(choice)}
            options={DIRECTIONS.map((value) => ({ value, label: DIRECTION_LABELS[value] }))}
          />
        </div>
        <div className="flex items-center gap-2">
          <span aria-hidden>Depth</span>
          <SelectMenu
            compact
            aria-label="Depth"
            value={String(depth)}
            onChange={(choice) => setDepth(Number(choice))}
            options={DEPTHS.map((value) => ({ value: String(value), label: String(value) }))}
          />
        </div>
        <ToggleGroup
          label="View"
          options={VIEWS}
          value={view}
          onChange={(option) => setView(option)}
          optionLabel={(option) => (option === 'graph' ? 'Graph' : 'Table')}
        />
      </div>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : related.length === 0 ? (
        <EmptyState />
      ) : view === 'graph' ? (
        <RelationshipGraph rootId={config.id} rows={query.data} />
      ) : (
        <CompactTable label="Related configs" columns={relatedColumns} rows={related} />
      )}
    </section>
  );
}

/** Uptime as a percentage with 1 decimal (core §9), '-' when there is no run. */
function uptimeText(uptime: { passed: number; failed: number } | null): string {
  const total = (uptime?.passed ?? 0) + (uptime?.failed ?? 0);
  return total === 0 ? '-' : `${((uptime!.passed / total) * 100).toFixed(1)}%`;
}

type LinkedCheck = NonNullable<ReturnType<typeof useConfigChecks>['data']>[number];

const CHECK_COLUMNS: readonly Column<LinkedCheck>[] = [
  {
    header: 'Check',
    cell: (check) => (
      <Link
        to={`/health?checkId=${encodeURIComponent(check.id)}&timeRange=1h`}
        className="text-blue-700 hover:underline"
      >
        {check.name ?? check.id}
      </Link>
    ),
  },
  { header: 'Type', cell: (check) => check.type },
  { header: 'Health', cell: (check) => <HealthText health={check.status} /> },
  { header: 'Uptime', cell: (check) => uptimeText(check.uptime) },
  { header: 'Last run', cell: (check) => <Age value={check.last_runtime} /> },
];

/** /catalog/{id}/checks: the health checks linked to the item (`check_summary_for_config`). */
export function ConfigChecksPage() {
  const config = useConfigDetailContext();
  return <TableSection label="Checks" query={useConfigChecks(config.id)} columns={CHECK_COLUMNS} />;
}
