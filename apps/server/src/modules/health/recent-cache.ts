/**
 * The recent tier of check statuses (check_statuses_recent) kept per process for the check
 * summary (summary-reader.ts), brought up to the summary's snapshot at every call by reading only
 * what changed since the snapshot it last read (migration 0076):
 *
 * - rows written or updated since: `xid` (the writing transaction) not visible in that snapshot,
 *   one range of the xid index, upserted here by (check, time), the primary key;
 * - rows packed by compaction or removed by retention ('packed' epoch), all before compaction's
 *   mark: the rows before the mark are read again (late results, usually none);
 * - anything else that removes rows ('rewritten' epoch: a deleted check, a hand-made delete, a
 *   key-changing update, TRUNCATE): the whole tier is read again.
 *
 * Aggregating the tier in PostgreSQL on every call cost ~0.7 µs per status (45-65 ms at 30-80 k
 * statuses, 0.2-0.3 s at 10,000 checks a minute); here a call costs the changed rows, and each
 * check's part of the summary is computed again only when its rows or its window changed.
 *
 * Callers serialise calls (one at a time, each in its own REPEATABLE READ transaction begun after
 * the previous call's ended), so snapshots only move forward; one that does not (see contains())
 * reads the whole tier again.
 */
import type { PoolClient } from '../../platform/db/pool.js';
import { NumberReader } from './text-numbers.js';

const HOUR_US = 3_600_000_000;
/** Beyond this many statuses (an outage's backlog) the summary aggregates the tier in SQL. */
const MAX_CACHED_RECENT_ROWS = 4_000_000;

/** The snapshot, the two epochs and compaction's mark (epoch µs, -Infinity before anything was packed). */
const STATE_SQL = `SELECT pg_current_snapshot()::text,
         (SELECT version FROM check_statuses_recent_epochs WHERE kind = 'packed')::text,
         (SELECT version FROM check_statuses_recent_epochs WHERE kind = 'rewritten')::text,
         (SELECT CASE WHEN isfinite(packed_before) THEN (extract(epoch FROM packed_before) * 1000000)::float8
                      ELSE '-Infinity'::float8 END
          FROM check_status_compaction LIMIT 1),
         (SELECT reltuples FROM pg_class WHERE oid = 'check_statuses_recent'::regclass)::float8`;

/**
 * Rows of the tier matching a condition, as one text: a line per check of its id, then per status
 * (in time order) ',' time (epoch µs) ' ' duration (empty: none) ' ' 1 or 0.
 */
const ROWS_SQL = (where: string) => `SELECT string_agg(check_id::text || statuses, E'\\n')
       FROM (SELECT check_id,
                    string_agg(',' || (extract(epoch FROM time) * 1000000)::bigint || ' ' || coalesce(duration::text, '')
                               || ' ' || status::integer, '' ORDER BY time) AS statuses
             FROM check_statuses_recent
             WHERE ${where}
             GROUP BY check_id) AS rows`;
const ALL_SQL = ROWS_SQL('true');
/** Rows before compaction's mark (results recorded late), in the snapshot the mark was read in. */
const BEFORE_MARK_SQL = ROWS_SQL(`time < (SELECT packed_before FROM check_status_compaction LIMIT 1)`);
/** $1 the last snapshot's xmin, $2 that snapshot. */
const CHANGED_SQL = ROWS_SQL(`xid >= $1::xid8 AND NOT pg_visible_in_snapshot(xid, $2::pg_snapshot)`);

/** A check's statuses in the tier, in time order (durations NaN where none was recorded). */
interface Entry {
  times: Float64Array;
  durations: Float64Array;
  statuses: Uint8Array;
  length: number;
  /** Moves whenever the statuses change. */
  changes: number;
  /** The last part computed, for the window it was computed for. */
  memo: { changes: number; from: number; to: number; rollingFrom: number; part: RecentPart } | undefined;
}

/**
 * A check's recent-tier part of a summary: passed, failed, the last hour's duration sum and
 * statuses with a duration, statuses with a duration in the window, and percentile_cont 0.95,
 * 0.97 and 0.99 of their durations (NaN without one).
 */
export type RecentPart = Float64Array;

/** Where each value sits in a RecentPart. */
export const RECENT_PART = {
  passed: 0,
  failed: 1,
  /** Sum of the durations in the last hour of the window. */
  recentSum: 2,
  /** Statuses with a duration in the last hour of the window. */
  recentTimed: 3,
  /** Statuses with a duration in the window (the percentiles' weight). */
  timed: 4,
  /** percentile_cont 0.95, then 0.97 and 0.99 at the next two places. */
  percentiles: 5,
  width: 8,
} as const;

interface State {
  snapshot: Snapshot;
  snapshotText: string;
  packed: string;
  rewritten: string;
  markUs: number;
  entries: Map<string, Entry>;
}

interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  running: Set<bigint>;
}

function parseSnapshot(text: string): Snapshot {
  const [xmin, xmax, list] = text.split(':');
  return {
    xmin: BigInt(xmin),
    xmax: BigInt(xmax),
    running: new Set(list ? list.split(',').map((xid) => BigInt(xid)) : []),
  };
}

/**
 * Whether every transaction visible in `earlier` is visible in `later`: none that `earlier` saw
 * (below its xmax and not running then) is still running in `later`, and `later` sees as far.
 */
function contains(later: Snapshot, earlier: Snapshot): boolean {
  if (later.xmax < earlier.xmax) return false;
  for (const xid of later.running) if (xid < earlier.xmax && !earlier.running.has(xid)) return false;
  return true;
}

/** The first index of ascending `values[0, length)` holding more than `value` (or as much, unless `after`). */
function firstFrom(values: Float64Array, length: number, value: number, after: boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value || (after && values[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const lowerBound = (values: Float64Array, length: number, value: number) =>
  firstFrom(values, length, value, false);
const upperBound = (values: Float64Array, length: number, value: number) =>
  firstFrom(values, length, value, true);

const newEntry = (capacity: number): Entry => ({
  times: new Float64Array(capacity),
  durations: new Float64Array(capacity),
  statuses: new Uint8Array(capacity),
  length: 0,
  changes: 0,
  memo: undefined,
});

function grow(entry: Entry, needed: number): void {
  if (needed <= entry.times.length) return;
  const capacity = Math.max(needed, entry.times.length * 2, 8);
  const times = new Float64Array(capacity);
  const durations = new Float64Array(capacity);
  const statuses = new Uint8Array(capacity);
  times.set(entry.times.subarray(0, entry.length));
  durations.set(entry.durations.subarray(0, entry.length));
  statuses.set(entry.statuses.subarray(0, entry.length));
  entry.times = times;
  entry.durations = durations;
  entry.statuses = statuses;
}

/** Puts a status in its place by time, replacing the one at the same time (the primary key). */
function upsert(entry: Entry, time: number, duration: number, status: number): void {
  const { length } = entry;
  let at = length;
  if (length > 0 && time <= entry.times[length - 1]) {
    at = lowerBound(entry.times, length, time);
    if (at < length && entry.times[at] === time) {
      entry.durations[at] = duration;
      entry.statuses[at] = status;
      entry.changes += 1;
      return;
    }
  }
  grow(entry, length + 1);
  if (at < length) {
    entry.times.copyWithin(at + 1, at, length);
    entry.durations.copyWithin(at + 1, at, length);
    entry.statuses.copyWithin(at + 1, at, length);
  }
  entry.times[at] = time;
  entry.durations[at] = duration;
  entry.statuses[at] = status;
  entry.length = length + 1;
  entry.changes += 1;
}

/** Forgets the statuses before `timeUs`. */
function dropBefore(entry: Entry, timeUs: number): void {
  const count = lowerBound(entry.times, entry.length, timeUs);
  if (count === 0) return;
  entry.times.copyWithin(0, count, entry.length);
  entry.durations.copyWithin(0, count, entry.length);
  entry.statuses.copyWithin(0, count, entry.length);
  entry.length -= count;
  entry.changes += 1;
}

/** Applies ROWS_SQL's text to the entries (upserting each status). */
function apply(entries: Map<string, Entry>, text: string | null): number {
  if (!text) return 0;
  let rows = 0;
  const reader = new NumberReader(text);
  while (reader.at < text.length) {
    const id = text.slice(reader.at, reader.at + 36);
    let entry = entries.get(id);
    if (entry === undefined) {
      entry = newEntry(16);
      entries.set(id, entry);
    }
    reader.at += 37;
    for (;;) {
      const time = reader.next();
      const duration = reader.next();
      const status = reader.next();
      upsert(entry, time, duration, status);
      rows += 1;
      // Another status of the check follows a ','; a line ends at '\n' (or the text's end).
      if (!reader.endedByComma()) break;
    }
  }
  return rows;
}

/** A growable buffer of durations to sort, one per cache (reused from one part to the next). */
interface Scratch {
  values: Float64Array;
}

/** percentile_cont over ascending values. */
function percentileOfSorted(sorted: ArrayLike<number>, length: number, fraction: number): number {
  const position = fraction * (length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (position - lower) * (sorted[upper] - sorted[lower]);
}

/** Writes the count of `count` ascending durations and their percentiles into the part. */
export function setPercentiles(part: RecentPart, sorted: ArrayLike<number>, count: number): void {
  part[RECENT_PART.timed] = count;
  part[RECENT_PART.percentiles] = count > 0 ? percentileOfSorted(sorted, count, 0.95) : NaN;
  part[RECENT_PART.percentiles + 1] = count > 0 ? percentileOfSorted(sorted, count, 0.97) : NaN;
  part[RECENT_PART.percentiles + 2] = count > 0 ? percentileOfSorted(sorted, count, 0.99) : NaN;
}

/** A check's part over statuses [from, to) with the last hour's from `rollingFrom`. */
function partOf(entry: Entry, from: number, to: number, rollingFrom: number, buffer: Scratch): RecentPart {
  const part = new Float64Array(RECENT_PART.width);
  if (to - from > buffer.values.length) buffer.values = new Float64Array((to - from) * 2);
  const scratch = buffer.values;
  let passed = 0;
  let timed = 0;
  let recentSum = 0;
  let recentTimed = 0;
  for (let index = from; index < to; index += 1) {
    passed += entry.statuses[index];
    const duration = entry.durations[index];
    if (Number.isNaN(duration)) continue;
    scratch[timed++] = duration;
    if (index >= rollingFrom) {
      recentSum += duration;
      recentTimed += 1;
    }
  }
  part[RECENT_PART.passed] = passed;
  part[RECENT_PART.failed] = to - from - passed;
  part[RECENT_PART.recentSum] = recentSum;
  part[RECENT_PART.recentTimed] = recentTimed;
  setPercentiles(part, scratch.subarray(0, timed).sort(), timed);
  return part;
}

export interface RecentTier {
  /** The check's part over [from, end] (epoch ms), the last hour's ending at end; undefined without statuses there. */
  partOf(checkId: string): RecentPart | undefined;
}

export interface RecentCache {
  /**
   * Brings the tier to the client's snapshot (a REPEATABLE READ transaction; calls one at a time)
   * and returns each check's part over [fromMs, endMs]; undefined when the tier is too large to
   * keep (the caller aggregates it in SQL).
   */
  read(client: PoolClient, fromMs: number, endMs: number): Promise<RecentTier | undefined>;
}

export function createRecentCache(maxRows = MAX_CACHED_RECENT_ROWS): RecentCache {
  let state: State | undefined;
  const scratch: Scratch = { values: new Float64Array(4096) };

  const readText = async (client: PoolClient, text: string, values: unknown[]) => {
    const { rows } = await client.query<[string | null]>({ text, values, rowMode: 'array' } as never);
    return rows[0]?.[0] ?? null;
  };

  return {
    async read(client, fromMs, endMs) {
      const { rows } = await client.query<[string, string, string, number | null, number]>({
        text: STATE_SQL,
        rowMode: 'array',
      } as never);
      const [snapshotText, packed, rewritten, mark, estimate] = rows[0];
      const markUs = mark ?? -Infinity;
      const snapshot = parseSnapshot(snapshotText);
      const previous = state;
      state = undefined;
      let entries: Map<string, Entry>;
      if (previous && previous.rewritten === rewritten && contains(snapshot, previous.snapshot)) {
        entries = previous.entries;
        if (previous.packed !== packed || previous.markUs !== markUs) {
          // Compaction or retention removed rows before the mark: the ones left there (results
          // recorded late) are read again; rows after the mark were not removed.
          const before = markUs === -Infinity ? null : await readText(client, BEFORE_MARK_SQL, []);
          const limit = Math.max(markUs, previous.markUs);
          for (const [id, entry] of entries) {
            if (limit !== -Infinity) dropBefore(entry, limit);
            if (entry.length === 0) entries.delete(id);
          }
          apply(entries, before);
        }
        apply(
          entries,
          await readText(client, CHANGED_SQL, [previous.snapshot.xmin.toString(), previous.snapshotText]),
        );
      } else {
        if (estimate > maxRows) return undefined;
        entries = new Map();
        apply(entries, await readText(client, ALL_SQL, []));
      }
      let held = 0;
      for (const entry of entries.values()) held += entry.length;
      // A backlog grew past the limit (compaction stopped): forgotten until it is packed.
      if (held > maxRows) return undefined;
      state = { snapshot, snapshotText, packed, rewritten, markUs, entries };

      const fromUs = fromMs * 1000;
      const endUs = endMs * 1000;
      const rollingUs = endUs - HOUR_US;
      return {
        partOf(checkId) {
          const entry = entries.get(checkId);
          if (entry === undefined) return undefined;
          const { times, length } = entry;
          const from = lowerBound(times, length, fromUs);
          const to = upperBound(times, length, endUs);
          if (to <= from) return undefined;
          const rollingFrom = Math.max(from, upperBound(times, length, rollingUs));
          const memo = entry.memo;
          if (
            memo !== undefined &&
            memo.changes === entry.changes &&
            memo.from === from &&
            memo.to === to &&
            memo.rollingFrom === rollingFrom
          )
            return memo.part;
          const part = partOf(entry, from, to, rollingFrom, scratch);
          entry.memo = { changes: entry.changes, from, to, rollingFrom, part };
          return part;
        },
      };
    },
  };
}
