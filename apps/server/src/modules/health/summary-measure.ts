/**
 * A check's measured values in the summary (summary-reader.ts): its row (the recent tier) plus
 * its packed sums (rollup-cache.ts's layout), combined by the rules of HealthService.summary.
 */
import type { CheckSummary } from '@opsdeck/contracts';
import { RECENT_PART } from './recent-cache.js';
import { PACKED_PERCENTILE, PACKED_SUMS } from './rollup-cache.js';
import type { SummaryRow } from './summary-rows.js';

/** A check's measured values (NaN: none), laid out as MEASURED says. */
export type Measured = Float64Array;

/** Where each value is in a Measured: uptime counts, then LATENCY_KEYS's in their order. */
export const MEASURED = { passed: 0, failed: 1, latency: 2, width: 6 } as const;

const LATENCY_KEYS = ['rolling1h', 'p95', 'p97', 'p99'] as const;
/** Where p95 is among the latencies; p97 and p99 follow. */
const FIRST_PERCENTILE = MEASURED.latency + LATENCY_KEYS.indexOf('p95');

export const newMeasured = (): Measured => new Float64Array(MEASURED.width);

/** PostgreSQL's round() of a double: halves to even. */
function roundHalfEven(value: number): number {
  return Math.abs(value % 1) === 0.5 ? 2 * Math.round(value / 2) : Math.round(value);
}

/**
 * The measured values of a check, into `out`: uptime counts; rolling1h, the mean duration of the
 * range's last hour; each percentile averaged over the parts (the recent tier's exact percentile
 * and each packed hour's or day's own) weighted by their statuses with a duration, or, when the
 * parts whose raw statuses are kept have none, over the days rolled up before the raw retention.
 * Rounded as the SQL it replaces did (round(numeric) for rolling1h, round(float8) for the rest).
 * `base` is the check's slot in `sums`, or -1 when it has no packed part.
 */
export function measure(row: SummaryRow, sums: Float64Array, base: number, out: Measured): Measured {
  const packed = base >= 0;
  out[MEASURED.passed] = row.passed + (packed ? sums[base + PACKED_SUMS.passed] : 0);
  out[MEASURED.failed] = row.failed + (packed ? sums[base + PACKED_SUMS.failed] : 0);
  const recentTimed = row.recentTimed + (packed ? sums[base + PACKED_SUMS.recentTimed] : 0);
  out[MEASURED.latency] =
    recentTimed > 0
      ? Math.round((row.recentSum + (packed ? sums[base + PACKED_SUMS.recentSum] : 0)) / recentTimed)
      : NaN;
  const recent = row.percentiles;
  for (let index = 0; index < 3; index += 1) {
    const at = base + PACKED_SUMS.percentiles + index * PACKED_PERCENTILE.width;
    let sum = packed ? sums[at + PACKED_PERCENTILE.weighted] : 0;
    let count = packed ? sums[at + PACKED_PERCENTILE.timed] : 0;
    if (recent !== null && recent[RECENT_PART.timed] > 0) {
      sum += recent[RECENT_PART.percentiles + index] * recent[RECENT_PART.timed];
      count += recent[RECENT_PART.timed];
    }
    const rolledTimed = packed ? sums[at + PACKED_PERCENTILE.rolledTimed] : 0;
    let value = NaN;
    if (count > 0) value = sum / count;
    else if (rolledTimed) value = sums[at + PACKED_PERCENTILE.rolledWeighted] / rolledTimed;
    out[FIRST_PERCENTILE + index] = Number.isNaN(value) ? NaN : roundHalfEven(value);
  }
  return out;
}

export function latencyOf(measured: Measured): CheckSummary['latency'] {
  const latency: CheckSummary['latency'] = {};
  for (let index = 0; index < LATENCY_KEYS.length; index += 1) {
    const value = measured[MEASURED.latency + index];
    if (!Number.isNaN(value)) latency[LATENCY_KEYS[index]] = value;
  }
  return latency;
}

/** latencyOf() as JSON members, without building the object. */
export function latencyText(measured: Measured): string {
  let text = '';
  for (let index = 0; index < LATENCY_KEYS.length; index += 1) {
    const value = measured[MEASURED.latency + index];
    if (!Number.isNaN(value)) text += `${text === '' ? '' : ','}"${LATENCY_KEYS[index]}":${value}`;
  }
  return text;
}

/** Equal measured values (NaN, none, equals NaN). */
export function sameValues(a: Measured, b: Measured): boolean {
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] !== b[index] && !(Number.isNaN(a[index]) && Number.isNaN(b[index]))) return false;
  }
  return true;
}
