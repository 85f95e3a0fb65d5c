import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { stringify } from 'yaml';
import { Age, FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
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
          <div role="group" aria-label="Format" className="flex gap-1">
            {SPEC_FORMATS.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={language === option}
                onClick={() => chooseFormat(option)}
                className={`rounded border px-2 py-0.5 text-xs ${language === option ? 'border-blue-500 bg-blue-50 text-blue-800' : 'border-gray-300 text-gray-700'}`}
              >
                {option.toUpperCase()}
              </button>
            ))}
          </div>
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

/** /catalog/{id}/insights: the analysis findings of the item. */
export function ConfigInsightsPage() {
  const config = useConfigDetailContext();
  const query = useConfigAnalysis(config.id);
  if (query.isError) throw query.error;
  return (
    <section aria-label="Insights">
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.data.length === 0 ? (
        <EmptyState />
      ) : (
        <table aria-label="Insights" className="w-full divide-y divide-gray-200 text-sm">
          <thead className="text-left text-xs text-gray-500 uppercase">
            <tr>
              <th className="px-2 py-1">Analyzer</th>
              <th className="px-2 py-1">Type</th>
              <th className="px-2 py-1">Severity</th>
              <th className="px-2 py-1">Status</th>
              <th className="px-2 py-1">Message</th>
              <th className="px-2 py-1">First observed</th>
              <th className="px-2 py-1">Last observed</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {query.data.map((analysis) => (
              <tr key={analysis.id}>
                <td className="px-2 py-1">{analysis.analyzer}</td>
                <td className="px-2 py-1">{analysis.analysis_type}</td>
                <td className="px-2 py-1">{analysis.severity}</td>
                <td className="px-2 py-1">{analysis.status}</td>
                <td className="px-2 py-1">{analysis.summary ?? analysis.message}</td>
                <td className="px-2 py-1">
                  <FormattedDate value={analysis.first_observed} />
                </td>
                <td className="px-2 py-1">
                  <FormattedDate value={analysis.last_observed} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
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

  return (
    <section aria-label="Relationships" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          Direction
          <select
            value={direction}
            onChange={(event) => setDirection(event.target.value as RelationshipDirection)}
            className="rounded border border-gray-300 px-2 py-1"
          >
            {DIRECTIONS.map((value) => (
              <option key={value} value={value}>
                {DIRECTION_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2">
          Depth
          <select
            value={depth}
            onChange={(event) => setDepth(Number(event.target.value))}
            className="rounded border border-gray-300 px-2 py-1"
          >
            {DEPTHS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <div role="group" aria-label="View" className="flex gap-1">
          {VIEWS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={view === option}
              onClick={() => setView(option)}
              className={`rounded border px-2 py-0.5 text-xs ${view === option ? 'border-blue-500 bg-blue-50 text-blue-800' : 'border-gray-300 text-gray-700'}`}
            >
              {option === 'graph' ? 'Graph' : 'Table'}
            </button>
          ))}
        </div>
      </div>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : related.length === 0 ? (
        <EmptyState />
      ) : view === 'graph' ? (
        <RelationshipGraph rootId={config.id} rows={query.data} />
      ) : (
        <table aria-label="Related configs" className="w-full divide-y divide-gray-200 text-sm">
          <thead className="text-left text-xs text-gray-500 uppercase">
            <tr>
              <th className="px-2 py-1">Name</th>
              <th className="px-2 py-1">Type</th>
              <th className="px-2 py-1">Direction</th>
              <th className="px-2 py-1">Health</th>
              <th className="px-2 py-1">Status</th>
              <th className="px-2 py-1">Updated</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {related.map((item) => (
              <tr key={item.id}>
                <td className="px-2 py-1">
                  <Link
                    to={`/catalog/${encodeURIComponent(item.id)}`}
                    className="flex items-center gap-2 text-blue-700 hover:underline"
                  >
                    <ResourceIcon type={item.type} />
                    <span className={item.deleted_at ? 'line-through' : undefined}>
                      {item.name ?? item.id}
                    </span>
                  </Link>
                </td>
                <td className="px-2 py-1">{item.type}</td>
                <td className="px-2 py-1">{outgoingIds.has(item.id) ? 'Outgoing' : 'Incoming'}</td>
                <td className="px-2 py-1">
                  {item.health && (
                    <span className="flex items-center gap-1">
                      <StatusDot status={item.health} size="sm" />
                      {item.health}
                    </span>
                  )}
                </td>
                <td className="px-2 py-1">{item.status}</td>
                <td className="px-2 py-1">
                  <Age value={item.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Uptime as a percentage with 1 decimal (core §9), '-' when there is no run. */
function uptimeText(uptime: { passed: number; failed: number } | null): string {
  const total = (uptime?.passed ?? 0) + (uptime?.failed ?? 0);
  return total === 0 ? '-' : `${((uptime!.passed / total) * 100).toFixed(1)}%`;
}

/** /catalog/{id}/checks: the health checks linked to the item (`check_summary_for_config`). */
export function ConfigChecksPage() {
  const config = useConfigDetailContext();
  const query = useConfigChecks(config.id);
  if (query.isError) throw query.error;
  return (
    <section aria-label="Checks">
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.data.length === 0 ? (
        <EmptyState />
      ) : (
        <table aria-label="Checks" className="w-full divide-y divide-gray-200 text-sm">
          <thead className="text-left text-xs text-gray-500 uppercase">
            <tr>
              <th className="px-2 py-1">Check</th>
              <th className="px-2 py-1">Type</th>
              <th className="px-2 py-1">Health</th>
              <th className="px-2 py-1">Uptime</th>
              <th className="px-2 py-1">Last run</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {query.data.map((check) => (
              <tr key={check.id}>
                <td className="px-2 py-1">
                  <Link
                    to={`/health?checkId=${encodeURIComponent(check.id)}&timeRange=1h`}
                    className="text-blue-700 hover:underline"
                  >
                    {check.name ?? check.id}
                  </Link>
                </td>
                <td className="px-2 py-1">{check.type}</td>
                <td className="px-2 py-1">
                  <span className="flex items-center gap-1">
                    <StatusDot status={check.status} size="sm" />
                    {check.status}
                  </span>
                </td>
                <td className="px-2 py-1">{uptimeText(check.uptime)}</td>
                <td className="px-2 py-1">
                  <Age value={check.last_runtime} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
