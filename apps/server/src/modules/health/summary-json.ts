/**
 * A check of the summary as kept per process (summary-reader.ts), and its summary as an object or
 * as JSON bytes: the descriptive head prepared once (summary-columns.ts), then the tail (status,
 * uptime, latency, run times) made again only when one of those changed.
 */
import type { CheckSummary } from '@opsdeck/contracts';
import { descriptiveHead, descriptiveOf, type Descriptive, type DescriptiveRow } from './summary-columns.js';
import { latencyOf, latencyText, MEASURED, sameValues, type Measured } from './summary-measure.js';
import type { SummaryRow } from './summary-rows.js';

/** The last ISO text made of one of a check's run times (most don't change between two reads). */
interface TimeText {
  epochMs: number | null;
  text: string | null;
}

export interface CachedCheck {
  fingerprint: string;
  fields: Descriptive;
  /** The check's JSON object text up to and including its last descriptive member, without the closing brace. */
  head: Buffer;
  /** Position in (canary name, check name, id) order among the cached checks. */
  rank: number;
  lastRuntime: TimeText;
  lastTransitionTime: TimeText;
  deletedAt: TimeText;
  updatedAt: TimeText;
  /** Its last JSON object and what its tail was made of (see jsonOf). */
  tail:
    | {
        status: SummaryRow['status'];
        lastRuntime: number | null;
        lastTransitionTime: number | null;
        deletedAt: number | null;
        updatedAt: number | null;
        measured: Measured;
        bytes: Buffer;
      }
    | undefined;
}

const noTime = (): TimeText => ({ epochMs: null, text: null });

export function cachedCheckOf(row: DescriptiveRow): CachedCheck {
  const fields = descriptiveOf(row);
  return {
    fingerprint: row.fingerprint,
    fields,
    head: descriptiveHead(fields),
    rank: 0,
    lastRuntime: noTime(),
    lastTransitionTime: noTime(),
    deletedAt: noTime(),
    updatedAt: noTime(),
    tail: undefined,
  };
}

/** A run time as ISO text, reusing the last one made when it didn't change. */
function isoTime(last: TimeText, epochMs: number | null): string | null {
  if (epochMs === null) return null;
  if (last.epochMs === epochMs) return last.text;
  const text = new Date(Math.round(epochMs)).toISOString();
  last.epochMs = epochMs;
  last.text = text;
  return text;
}

/** The check's summary as an object. */
export function summaryOf(check: CachedCheck, row: SummaryRow, measured: Measured): CheckSummary {
  return {
    ...check.fields,
    labels: { ...check.fields.labels },
    status: row.status,
    uptime: { passed: measured[MEASURED.passed], failed: measured[MEASURED.failed] },
    latency: latencyOf(measured),
    last_runtime: isoTime(check.lastRuntime, row.lastRuntime),
    last_transition_time: isoTime(check.lastTransitionTime, row.lastTransitionTime),
    deleted_at: isoTime(check.deletedAt, row.deletedAt),
    updated_at: isoTime(check.updatedAt, row.updatedAt),
  };
}

/** Room for a check's JSON after its head: status, uptime, latency and three times. */
export const TAIL_BYTES = 360;

const jsonTime = (text: string | null) => (text === null ? 'null' : `"${text}"`);

/**
 * The check's JSON object as bytes: its head, then its status, uptime, latency and run times,
 * reused while none of those changed (most checks' between two reads of the health page).
 */
export function jsonOf(check: CachedCheck, row: SummaryRow, measured: Measured): Buffer {
  const last = check.tail;
  if (
    last !== undefined &&
    last.status === row.status &&
    last.lastRuntime === row.lastRuntime &&
    last.lastTransitionTime === row.lastTransitionTime &&
    last.deletedAt === row.deletedAt &&
    last.updatedAt === row.updatedAt &&
    sameValues(last.measured, measured)
  ) {
    return last.bytes;
  }
  // ASCII only: a status of the CHECK constraint's two values, numbers and ISO times.
  const text =
    `,"status":${row.status === null ? 'null' : `"${row.status}"`},` +
    `"uptime":{"passed":${measured[MEASURED.passed]},"failed":${measured[MEASURED.failed]}},` +
    `"latency":{${latencyText(measured)}},` +
    `"last_runtime":${jsonTime(isoTime(check.lastRuntime, row.lastRuntime))},` +
    `"last_transition_time":${jsonTime(isoTime(check.lastTransitionTime, row.lastTransitionTime))},` +
    `"deleted_at":${jsonTime(isoTime(check.deletedAt, row.deletedAt))},` +
    `"updated_at":${jsonTime(isoTime(check.updatedAt, row.updatedAt))}}`;
  const tail = Buffer.from(text, 'latin1');
  const bytes = Buffer.allocUnsafe(check.head.length + tail.length);
  check.head.copy(bytes, 0);
  tail.copy(bytes, check.head.length);
  check.tail = {
    status: row.status,
    lastRuntime: row.lastRuntime,
    lastTransitionTime: row.lastTransitionTime,
    deletedAt: row.deletedAt,
    updatedAt: row.updatedAt,
    measured: Float64Array.from(measured),
    bytes,
  };
  return bytes;
}
