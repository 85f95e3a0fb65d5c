import { EmptyState } from '../../../components/empty-state/empty-state';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { formatLatency, formatUptime } from '../../../lib/format';
import type { CheckSummary } from '../lib/checks';
import { PIVOT_ROW_BY_NAME, type PivotCell, type PivotCellType, type PivotTable } from '../lib/pivot';

export interface HealthPivotProps {
  table: PivotTable;
  pivotBy: string;
  rowBy: string;
  cellType: PivotCellType;
  onOpen(check: CheckSummary): void;
}

function CellContent({ cell, cellType }: { cell: PivotCell; cellType: PivotCellType }) {
  switch (cellType) {
    case 'uptime':
      return <span>{formatUptime(cell.uptime, 1)}</span>;
    case 'latency':
      return <span>{cell.latency === undefined ? '-' : formatLatency(cell.latency)}</span>;
    default:
      return <StatusDot status={cell.status} label={cell.status} />;
  }
}

/**
 * The health page's pivot view: check names (or a label's values) down, the values of the
 * `pivotBy` label across, each cell showing health, uptime or latency. A cell with one check opens
 * its detail panel.
 */
export function HealthPivot({ table, pivotBy, rowBy, cellType, onOpen }: HealthPivotProps) {
  if (table.rows.length === 0) return <EmptyState />;
  return (
    <div className="overflow-auto">
      <table className="text-left text-sm" aria-label={`Checks by ${pivotBy}`}>
        <thead className="border-b border-gray-200 text-xs text-gray-600">
          <tr>
            <th className="py-2 pr-4">{rowBy === PIVOT_ROW_BY_NAME ? 'Checks' : rowBy}</th>
            {table.columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 whitespace-nowrap">
                {column === '' ? `no ${pivotBy}` : column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.key} className="border-b border-gray-100">
              <th scope="row" className="py-2 pr-4 font-normal whitespace-nowrap text-gray-900">
                {row.key === '' ? '-' : row.key}
              </th>
              {row.cells.map((cell, index) => (
                <td key={table.columns[index]} className="px-3 py-2">
                  {cell &&
                    (cell.checks.length === 1 ? (
                      <button
                        type="button"
                        className="rounded px-1 hover:bg-gray-100"
                        aria-label={`${cell.checks[0].name} ${table.columns[index]}`}
                        onClick={() => onOpen(cell.checks[0])}
                      >
                        <CellContent cell={cell} cellType={cellType} />
                      </button>
                    ) : (
                      <span title={cell.checks.map((check) => check.name).join(', ')}>
                        <CellContent cell={cell} cellType={cellType} />
                      </span>
                    ))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
