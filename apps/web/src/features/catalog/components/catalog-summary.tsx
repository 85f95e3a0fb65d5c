import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useCatalogSummary, type CatalogSummaryRow } from '../api/catalog-summary';
import { typeLabel } from '../lib/catalog-query';

/** Health words in the order the breakdown lists them; any other value follows. */
const HEALTH_ORDER = ['healthy', 'warning', 'unhealthy', 'unknown'];

function healthEntries(health: Record<string, number>): [string, number][] {
  return Object.entries(health)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => {
      const rank = (value: string) =>
        HEALTH_ORDER.includes(value) ? HEALTH_ORDER.indexOf(value) : HEALTH_ORDER.length;
      return rank(a) - rank(b) || a.localeCompare(b);
    });
}

/** The catalog landing: one row per config type with its count and health breakdown. */
export function CatalogSummary({
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
            <td className="px-3 py-2 text-right tabular-nums" data-testid="summary-count">
              {row.count}
            </td>
            <td className="px-3 py-2">
              <span className="flex flex-wrap gap-3">
                {healthEntries(row.health).map(([health, count]) => (
                  <span key={health} className="flex items-center gap-1" title={`${count} ${health}`}>
                    <StatusDot status={health} size="sm" />
                    <span className="text-xs text-gray-700">
                      {count} {health}
                    </span>
                  </span>
                ))}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
