/**
 * The check summary's rows (summary-reader.ts): one per check, with its status, run times and
 * the recent tier's part, made from the texts of SUMMARY_CHECKS_SQL and SUMMARY_RAW_SQL or from
 * SUMMARY_SQL's rows.
 */
import type { CheckStatus } from '@opsdeck/contracts';
import { RECENT_PART, setPercentiles, type RecentPart } from './recent-cache.js';
import { SUMMARY_ROW, SUMMARY_ROW_PACKED, type SummarySqlRow } from './summary-sql.js';
import { NumberReader } from './text-numbers.js';

/** A check's row: its status and run times, and the recent tier's part. */
export interface SummaryRow {
  id: string;
  fingerprint: string;
  status: CheckStatus | null;
  passed: number;
  failed: number;
  /** The recent tier's statuses with a duration and their percentiles (RECENT_PART's layout), or null. */
  percentiles: RecentPart | null;
  /** The last hour's duration sum and statuses with a duration. */
  recentSum: number;
  recentTimed: number;
  /** Run times in epoch milliseconds. */
  lastRuntime: number | null;
  lastTransitionTime: number | null;
  deletedAt: number | null;
  /** When the check row last changed (every run writes it). */
  updatedAt: number | null;
}

/** A row without a recent-tier part yet (one shape for every row: all fields set in one order). */
function newRow(
  id: string,
  fingerprint: string,
  status: CheckStatus | null,
  lastRuntime: number | null,
  lastTransitionTime: number | null,
  deletedAt: number | null,
  updatedAt: number | null,
): SummaryRow {
  return {
    id,
    fingerprint,
    status,
    passed: 0,
    failed: 0,
    percentiles: null,
    recentSum: 0,
    recentTimed: 0,
    lastRuntime,
    lastTransitionTime,
    deletedAt,
    updatedAt,
  };
}

/** Sets the row's recent-tier counts and sums from the tier's part. */
export function setRecentPart(row: SummaryRow, part: RecentPart): void {
  row.passed = part[RECENT_PART.passed];
  row.failed = part[RECENT_PART.failed];
  row.percentiles = part;
  row.recentSum = part[RECENT_PART.recentSum];
  row.recentTimed = part[RECENT_PART.recentTimed];
}

/** Sorts space-separated durations into a buffer kept per reader (valid until its next call). */
export class DurationSorter {
  private buffer = new Int32Array(4096);

  /** Space-separated durations ('12 7 30'), sorted. */
  sorted(text: string): Int32Array {
    let count = 1;
    for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) === 32) count += 1;
    if (count > this.buffer.length) this.buffer = new Int32Array(count * 2);
    const buffer = this.buffer;
    let n = 0;
    let value = 0;
    let negative = false;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === 32) {
        buffer[n++] = negative ? -value : value;
        value = 0;
        negative = false;
      } else if (code === 45) negative = true;
      else value = value * 10 + (code - 48);
    }
    buffer[n++] = negative ? -value : value;
    return buffer.subarray(0, n).sort();
  }

  /** A part holding the count and percentiles of space-separated durations (SQL's recent tier). */
  percentilePart(text: string): RecentPart {
    const part = new Float64Array(RECENT_PART.width);
    const sorted = this.sorted(text);
    setPercentiles(part, sorted, sorted.length);
    return part;
  }
}

/**
 * The lines of SUMMARY_CHECKS_SQL's text as rows, without a recent-tier part yet: per line the
 * check's id, its fingerprint, h, u or nothing for its status, and its three run times.
 */
export function parseChecks(text: string): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const reader = new NumberReader(text);
  while (reader.at < text.length) {
    const at = reader.at;
    const id = text.slice(at, at + 36);
    const comma = text.indexOf(',', at + 37);
    const fingerprint = text.slice(at + 37, comma);
    const code = text.charCodeAt(comma + 1);
    const status = code === 104 ? 'healthy' : code === 117 ? 'unhealthy' : null;
    reader.at = text.indexOf(',', comma + 1) + 1;
    const lastRuntime = reader.nextOrNull();
    const lastTransitionTime = reader.nextOrNull();
    const deletedAt = reader.nextOrNull();
    const updatedAt = reader.nextOrNull();
    rows.push(newRow(id, fingerprint, status, lastRuntime, lastTransitionTime, deletedAt, updatedAt));
  }
  return rows;
}

/**
 * Adds the recent tier's part (SUMMARY_RAW_SQL's text: per line the check's id, passed, failed,
 * the last hour's duration sum and timed statuses, then its durations) to the rows of the checks
 * it names: both are in id order (uuids order as their lower-case text does).
 */
export function addRecent(rows: SummaryRow[], text: string, durations: DurationSorter): void {
  let next = 0;
  const reader = new NumberReader(text);
  while (reader.at < text.length) {
    const id = text.slice(reader.at, reader.at + 36);
    reader.at += 37;
    const passed = reader.nextOrNull() ?? 0;
    const failed = reader.nextOrNull() ?? 0;
    const recentSum = reader.nextOrNull() ?? 0;
    const recentTimed = reader.nextOrNull() ?? 0;
    let end = text.indexOf('\n', reader.at);
    if (end < 0) end = text.length;
    while (next < rows.length && rows[next].id < id) next += 1;
    const row = rows[next];
    if (row !== undefined && row.id === id) {
      row.passed = passed;
      row.failed = failed;
      row.percentiles = end > reader.at ? durations.percentilePart(text.slice(reader.at, end)) : null;
      row.recentSum = recentSum;
      row.recentTimed = recentTimed;
    }
    reader.at = end + 1;
  }
}

/**
 * A row of SUMMARY_SQL as a row (its counts include the packed parts) with its packed percentile
 * sums written into `sums` at `base` (rollup-cache.ts's layout).
 */
export function fromSqlRow(
  row: SummarySqlRow,
  sums: Float64Array,
  base: number,
  durations: DurationSorter,
): SummaryRow {
  for (const { column, sum } of SUMMARY_ROW_PACKED) sums[base + sum] = (row[column] as number | null) ?? 0;
  const recent = newRow(
    row[SUMMARY_ROW.id] as string,
    row[SUMMARY_ROW.fingerprint] as string,
    row[SUMMARY_ROW.status] as CheckStatus | null,
    row[SUMMARY_ROW.lastRuntime] as number | null,
    row[SUMMARY_ROW.lastTransitionTime] as number | null,
    row[SUMMARY_ROW.deletedAt] as number | null,
    row[SUMMARY_ROW.updatedAt] as number | null,
  );
  recent.passed = row[SUMMARY_ROW.passed] as number;
  recent.failed = row[SUMMARY_ROW.failed] as number;
  const text = row[SUMMARY_ROW.durations] as string | null;
  recent.percentiles = text ? durations.percentilePart(text) : null;
  recent.recentSum = row[SUMMARY_ROW.recentSum] as number;
  recent.recentTimed = row[SUMMARY_ROW.recentTimed] as number;
  return recent;
}
