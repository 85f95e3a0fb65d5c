import type { HealthState } from '@opsdeck/contracts';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { formatCost } from '../../../lib/format/cost';
import { stringParam, useSearchParam } from '../../../lib/url-state/search-param';
import {
  useCatalogSummary,
  useGroupedCatalogSummary,
  useTagAndLabelKeys,
  type CatalogSummaryRow,
} from '../api/catalog-summary';
import { parseGroupKey, typeLabel } from '../lib/catalog-query';

/** Health words in the order the breakdown lists them; any other value follows. */
const HEALTH_ORDER: readonly string[] = [
  'healthy',
  'warning',
  'unhealthy',
  'unknown',
] satisfies readonly HealthState[];

function healthEntries(health: Record<string, number>): [string, number][] {
  return Object.entries(health)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => {
      const rank = (value: string) =>
        HEALTH_ORDER.includes(value) ? HEALTH_ORDER.indexOf(value) : HEALTH_ORDER.length;
      return rank(a) - rank(b) || a.localeCompare(b);
    });
}

function HealthBreakdown({ health }: { health: Record<string, number> }) {
  return (
    <span className="flex flex-wrap gap-3">
      {healthEntries(health).map(([name, count]) => (
        <span key={name} className="flex items-center gap-1" title={`${count} ${name}`}>
          <StatusDot status={name} size="sm" />
          <span className="text-xs text-gray-700">
            {count} {name}
          </span>
        </span>
      ))}
    </span>
  );
}

/** The Count, Health and Cost (30d) cells every summary row ends with. */
function CountHealthCost({
  row,
  countTestId,
}: {
  row: Pick<CatalogSummaryRow, 'count' | 'health' | 'cost_total_30d'>;
  countTestId: string;
}) {
  return (
    <>
      <td className="px-3 py-2 text-right tabular-nums" data-testid={countTestId}>
        {row.count}
      </td>
      <td className="px-3 py-2">
        <HealthBreakdown health={row.health} />
      </td>
      <td className="px-3 py-2 text-right tabular-nums">{formatCost(row.cost_total_30d)}</td>
    </>
  );
}

/** `tag:env` → 'Tag: env'. */
function groupKeyLabel(value: string): string {
  const parsed = parseGroupKey(value);
  if (!parsed) return value;
  return `${parsed.kind === 'tag' ? 'Tag' : 'Label'}: ${parsed.key}`;
}

/** Group By (core §2 "group by tags or labels"): config type, or any tag or label key; in the URL. */
function GroupBySelect({ value, onChange }: { value: string; onChange(value: string | undefined): void }) {
  const keys = useTagAndLabelKeys();
  const options = keys.data ?? [];
  return (
    <div className="flex items-center gap-2 text-sm text-gray-700">
      <span aria-hidden>Group By</span>
      <SelectMenu
        compact
        aria-label="Group By"
        value={value}
        onChange={(choice) => onChange(choice || undefined)}
        options={[
          { value: '', label: 'Config type' },
          ...(value && !options.includes(value) ? [{ value, label: groupKeyLabel(value) }] : []),
          ...options.map((key) => ({ value: key, label: groupKeyLabel(key) })),
        ]}
      />
    </div>
  );
}

/** Items grouped by one tag or label key: each value (or none) with its count, health and cost. */
function GroupedSummary({
  showDeleted,
  groupKey,
  onSelectGroup,
}: {
  showDeleted: boolean;
  groupKey: string;
  onSelectGroup(kind: 'tag' | 'label', key: string, value: string): void;
}) {
  const query = useGroupedCatalogSummary(showDeleted, groupKey);
  const parsed = parseGroupKey(groupKey);
  if (query.isError) throw query.error;
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  if (query.data.length === 0) return <EmptyState />;
  return (
    <table
      aria-label="Catalog groups"
      className="w-full divide-y divide-gray-200 rounded border border-gray-200 text-sm"
    >
      <thead className="bg-gray-50 text-left text-xs text-gray-500 uppercase">
        <tr>
          <th className="px-3 py-2 font-medium">{groupKeyLabel(groupKey)}</th>
          <th className="px-3 py-2 text-right font-medium">Count</th>
          <th className="px-3 py-2 font-medium">Health</th>
          <th className="px-3 py-2 text-right font-medium">Cost (30d)</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100 bg-white">
        {query.data.map((row) => {
          const value = row[groupKey];
          const name = typeof value === 'string' ? value : null;
          return (
            <tr key={name ?? ''} className={name !== null ? 'hover:bg-gray-50' : undefined}>
              <th scope="row" className="px-3 py-2 text-left font-normal">
                {name === null || !parsed ? (
                  (name ?? <span className="text-gray-500 italic">(none)</span>)
                ) : (
                  // Items of every type with this tag or label value.
                  <button
                    type="button"
                    onClick={() => onSelectGroup(parsed.kind, parsed.key, name)}
                    className="text-left text-blue-700 hover:underline"
                  >
                    {name}
                  </button>
                )}
              </th>
              <CountHealthCost row={row} countTestId="group-count" />
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The catalog landing: one row per config type with its count and health breakdown, or, with
 * Group By a tag or label key, one row per value of that key.
 */
export function CatalogSummary({
  showDeleted,
  onSelectType,
  onSelectGroup,
}: {
  showDeleted: boolean;
  onSelectType(type: string): void;
  /** A group's value was clicked: show the items whose tag or label `key` has that value. */
  onSelectGroup(kind: 'tag' | 'label', key: string, value: string): void;
}) {
  const [groupKey, setGroupKey] = useSearchParam('groupBy', stringParam, '');
  const grouped = parseGroupKey(groupKey) ? groupKey : '';
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3">
        <GroupBySelect value={grouped} onChange={(value) => setGroupKey(value)} />
      </div>
      {grouped ? (
        <GroupedSummary showDeleted={showDeleted} groupKey={grouped} onSelectGroup={onSelectGroup} />
      ) : (
        <TypeSummary showDeleted={showDeleted} onSelectType={onSelectType} />
      )}
    </div>
  );
}

function TypeSummary({
  showDeleted,
  onSelectType,
}: {
  showDeleted: boolean;
  onSelectType(type: string): void;
}) {
  const query = useCatalogSummary(showDeleted);
  if (query.isError) throw query.error;
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  const rows = query.data.filter((row): row is CatalogSummaryRow & { type: string } => Boolean(row.type));
  if (rows.length === 0) return <EmptyState />;
  return (
    <table
      aria-label="Catalog summary"
      className="w-full divide-y divide-gray-200 rounded border border-gray-200 text-sm"
    >
      <thead className="bg-gray-50 text-left text-xs text-gray-500 uppercase">
        <tr>
          <th className="px-3 py-2 font-medium">Type</th>
          <th className="px-3 py-2 font-medium">Class</th>
          <th className="px-3 py-2 text-right font-medium">Count</th>
          <th className="px-3 py-2 font-medium">Health</th>
          <th className="px-3 py-2 text-right font-medium">Cost (30d)</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100 bg-white">
        {rows.map((row) => (
          <tr key={`${row.config_class ?? ''}|${row.type}`} className="hover:bg-gray-50">
            <td className="px-3 py-2">
              <button
                type="button"
                onClick={() => onSelectType(row.type)}
                className="flex items-center gap-2 text-left text-blue-700 hover:underline"
              >
                <ResourceIcon type={row.type} configClass={row.config_class} />
                <span>{typeLabel(row.type)}</span>
              </button>
            </td>
            <td className="px-3 py-2 text-gray-600">{row.config_class}</td>
            <CountHealthCost row={row} countTestId="summary-count" />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
