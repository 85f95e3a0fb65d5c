import { groupStatus, type GroupStatus } from '../../../lib/format/health';
import { pickLatency } from '../../../lib/format/latency';
import { groupUptime } from '../../../lib/format/uptime';
import type { CheckSummary } from './checks';

/** What a pivot cell shows (URL `pivotCellType`). */
export const PIVOT_CELL_TYPES = ['health', 'uptime', 'latency'] as const;
export type PivotCellType = (typeof PIVOT_CELL_TYPES)[number];
export const DEFAULT_PIVOT_CELL_TYPE: PivotCellType = 'health';
/** Rows of the pivot are check names unless `pivotLabel` names a label key. */
export const PIVOT_ROW_BY_NAME = 'name';

export function parsePivotCellType(value: string | null | undefined): PivotCellType {
  return (PIVOT_CELL_TYPES as readonly string[]).includes(value ?? '')
    ? (value as PivotCellType)
    : DEFAULT_PIVOT_CELL_TYPE;
}

export interface PivotCell {
  checks: CheckSummary[];
  status: GroupStatus;
  /** Summed over the cell's checks for uptime cells (fully-passing over total when several). */
  uptime: { passed: number; failed: number };
  /** The slowest p95 (→ p97 → p99) of the cell's checks. */
  latency?: number;
}

export interface PivotTable {
  /** Column headers: the values of the `pivotBy` label, sorted; '' collects checks without it. */
  columns: string[];
  rows: { key: string; cells: (PivotCell | undefined)[] }[];
}

function rowKey(check: CheckSummary, rowBy: string): string {
  if (rowBy === PIVOT_ROW_BY_NAME) return check.name;
  return check.labels?.[rowBy] ?? '';
}

const byText = (a: string, b: string) =>
  a === '' ? 1 : b === '' ? -1 : a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });

function cellOf(checks: CheckSummary[]): PivotCell {
  const latencies = checks
    .map((check) => pickLatency(check.latency))
    .filter((v): v is number => v !== undefined);
  const uptime =
    checks.length === 1
      ? { passed: checks[0].uptime?.passed ?? 0, failed: checks[0].uptime?.failed ?? 0 }
      : groupUptime(checks.map((check) => check.uptime ?? {}));
  return {
    checks,
    status: groupStatus(checks.map((check) => check.status)),
    uptime,
    latency: latencies.length ? Math.max(...latencies) : undefined,
  };
}

/**
 * The pivot view of the health page: one column per value of the `pivotBy` label, one row per
 * check name (or per value of the `pivotLabel` label), each cell summarising the checks that fall
 * in it. Rows and columns are sorted by name, numbers numerically; the empty value comes last.
 */
export function pivotChecks(
  checks: readonly CheckSummary[],
  pivotBy: string,
  rowBy = PIVOT_ROW_BY_NAME,
): PivotTable {
  const columnSet = new Set<string>();
  const grid = new Map<string, Map<string, CheckSummary[]>>();
  for (const check of checks) {
    const column = check.labels?.[pivotBy] ?? '';
    const row = rowKey(check, rowBy);
    columnSet.add(column);
    let cells = grid.get(row);
    if (!cells) grid.set(row, (cells = new Map()));
    const cell = cells.get(column);
    if (cell) cell.push(check);
    else cells.set(column, [check]);
  }
  const columns = [...columnSet].sort(byText);
  const rows = [...grid.keys()].sort(byText).map((key) => {
    const cells = grid.get(key)!;
    return {
      key,
      cells: columns.map((column) => (cells.has(column) ? cellOf(cells.get(column)!) : undefined)),
    };
  });
  return { columns, rows };
}
