/**
 * The packed part of the check summary from rollups kept per process (summary-reader.ts).
 *
 * Packed statuses are counted from the hourly and daily rollups that compaction writes (see
 * HealthService.summary for the rules). Those buckets rarely change once written, and a 24-hour
 * summary of 10,000 checks reads ~240,000 of their rows: aggregating them in PostgreSQL cost
 * more than everything else the summary does. So each process keeps the buckets it has read as
 * typed arrays, with the version migration 0074 gives every bucket a statement touches, and
 * reads a bucket again only when its version changed. Versions and rows are read in the
 * summary's own snapshot, so a cached bucket is always the one the database holds for it.
 */
import type { PoolClient } from '../../platform/db/pool.js';

const MINUTE_US = 60_000_000;
const HOUR_US = 60 * MINUTE_US;
const DAY_US = 24 * HOUR_US;

const floorTo = (us: number, unit: number) => us - (((us % unit) + unit) % unit);

/** The buckets a summary counts, by its rules, as bucket starts in epoch milliseconds. */
export interface PackedPlan {
  /** Packed hours (check_statuses_1h); `recent` ones count towards rolling1h. */
  hours: Array<{ ms: number; recent: boolean }>;
  /** Whole packed UTC days (check_statuses_1d), counted like hours. */
  days: number[];
  /** UTC days before the raw retention (check_statuses_1d), counted apart (see measure()). */
  rolledDays: number[];
}

/**
 * The packed buckets of a summary over [start, end] (epoch ms), the first day whose raw statuses
 * are kept (rawFrom, ms) and compaction's mark (epoch µs, -Infinity when nothing is packed): the
 * rules of SUMMARY_MEASURED_SQL's CTEs bounds and packed_parts, which stay the reference.
 */
export function planPackedParts(
  startMs: number,
  endMs: number,
  rawFromMs: number,
  markUs: number,
): PackedPlan {
  const start = startMs * 1000;
  const end = endMs * 1000;
  const rawFrom = rawFromMs * 1000;
  const lo = Math.max(start - 30 * MINUTE_US, rawFrom);
  const hi = end - 30 * MINUTE_US;
  const d0 = lo === floorTo(lo, DAY_US) ? lo : floorTo(lo, DAY_US) + DAY_US;
  const d1 =
    markUs === -Infinity ? d0 : Math.max(d0, Math.min(floorTo(hi - 1, DAY_US), floorTo(markUs, DAY_US)));
  const plan: PackedPlan = { hours: [], days: [], rolledDays: [] };
  const recentFrom = end - 90 * MINUTE_US;
  for (
    let hour = lo === floorTo(lo, HOUR_US) ? lo : floorTo(lo, HOUR_US) + HOUR_US;
    hour <= hi;
    hour += HOUR_US
  ) {
    if (hour < markUs && (hour < d0 || hour >= d1))
      plan.hours.push({ ms: hour / 1000, recent: hour >= recentFrom });
  }
  for (let day = d0; day < d1; day += DAY_US) plan.days.push(day / 1000);
  if (start < rawFrom) {
    const until = Math.min(rawFrom, end);
    for (let day = floorTo(start, DAY_US); day < until; day += DAY_US) plan.rolledDays.push(day / 1000);
  }
  return plan;
}

/** One bucket's rows: each row's check slot, its counts (BUCKET_COUNTS) and its values (BUCKET_VALUES). */
interface Bucket {
  version: string;
  slots: Int32Array;
  counts: Int32Array;
  values: Float64Array;
  lastUsed: number;
}

/** A bucket row's counts, BUCKET_COUNTS.width per row. */
const BUCKET_COUNTS = { passed: 0, failed: 1, timed: 2, width: 3 } as const;
/** A bucket row's values (NaN: none), BUCKET_VALUES.width per row: p95, p97, p99 from `percentiles`. */
const BUCKET_VALUES = { percentiles: 0, durationSum: 3, width: 4 } as const;

/**
 * Where each sum sits in a check's slot of the packed sums (`width` per slot): counts, the
 * duration sum and timed statuses of the hours towards rolling1h, then per percentile (p95, p97,
 * p99, PACKED_PERCENTILE.width apart from `percentiles`) its sums.
 */
export const PACKED_SUMS = {
  passed: 0,
  failed: 1,
  recentSum: 2,
  recentTimed: 3,
  percentiles: 4,
  width: 16,
} as const;
/**
 * A percentile's sums within a slot: the percentile weighted by its timed statuses and those
 * timed statuses, over the parts whose raw statuses are kept, then the same over the days rolled
 * up before the raw retention.
 */
export const PACKED_PERCENTILE = {
  weighted: 0,
  timed: 1,
  rolledWeighted: 2,
  rolledTimed: 3,
  width: 4,
} as const;

/** One row of ROLLUP_BUCKETS_SQL (summary-sql.ts) in array mode: see ROLLUP_ROW. */
type RollupRow = [
  granularity: string,
  bucketMs: number,
  checkId: string,
  passed: number,
  failed: number,
  timed: number,
  p95: number | null,
  p97: number | null,
  p99: number | null,
  durationSum: number | null,
];
/** Where ROLLUP_BUCKETS_SQL's columns are in a RollupRow. */
const ROLLUP_ROW = {
  granularity: 0,
  bucketMs: 1,
  checkId: 2,
  passed: 3,
  failed: 4,
  timed: 5,
  /** p95, p97, p99, then the duration sum: BUCKET_VALUES's order. */
  values: 6,
} as const;
const keyOf = (row: RollupRow) => `${row[ROLLUP_ROW.granularity]}:${row[ROLLUP_ROW.bucketMs]}`;

/** A summary may use the cache when its range is at most this long (longer ranges read the rollups in SQL). */
export const MAX_CACHED_RANGE_MS = 40 * 86_400_000;
/** Least recently used buckets beyond this many are dropped (~50 MB with 10,000 checks at 48 bytes a row). */
const MAX_CACHED_BUCKETS = 100;

export interface RollupCache {
  /**
   * Reads the versions of the plan's buckets, and the rows of those that changed, through the
   * client (inside the summary's transaction), and returns the packed sums per check slot.
   * `sql.versions` returns compaction's mark and the bucket versions between $1 and $2;
   * `sql.buckets` the rows of the hours ($1) and days ($2) asked for.
   */
  packedSums(
    client: PoolClient,
    sql: { versions: string; buckets: string },
    startMs: number,
    endMs: number,
    rawFromMs: number,
  ): Promise<{ sums: Float64Array; slotOf: (checkId: string) => number | undefined }>;
}

export function createRollupCache(): RollupCache {
  let buckets = new Map<string, Bucket>();
  let slots = new Map<string, number>();
  let uses = 0;

  /** Rows into buckets (one per wanted key, empty when it has no rows), check ids into `slotMap`'s slots. */
  const build = (
    rows: RollupRow[],
    versionOf: (key: string) => string,
    wanted: string[],
    slotMap: Map<string, number>,
  ) => {
    const sizes = new Map<string, number>();
    for (const row of rows) {
      const key = keyOf(row);
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    const built = new Map<string, Bucket>();
    const filled = new Map<string, number>();
    for (const key of wanted) {
      const size = sizes.get(key) ?? 0;
      built.set(key, {
        version: versionOf(key),
        slots: new Int32Array(size),
        counts: new Int32Array(size * BUCKET_COUNTS.width),
        values: new Float64Array(size * BUCKET_VALUES.width),
        lastUsed: uses,
      });
      filled.set(key, 0);
    }
    for (const row of rows) {
      const key = keyOf(row);
      const bucket = built.get(key) as Bucket;
      const index = filled.get(key) as number;
      filled.set(key, index + 1);
      const checkId = row[ROLLUP_ROW.checkId];
      let slot = slotMap.get(checkId);
      if (slot === undefined) {
        slot = slotMap.size;
        slotMap.set(checkId, slot);
      }
      bucket.slots[index] = slot;
      const counts = index * BUCKET_COUNTS.width;
      bucket.counts[counts + BUCKET_COUNTS.passed] = row[ROLLUP_ROW.passed];
      bucket.counts[counts + BUCKET_COUNTS.failed] = row[ROLLUP_ROW.failed];
      bucket.counts[counts + BUCKET_COUNTS.timed] = row[ROLLUP_ROW.timed];
      for (let value = 0; value < BUCKET_VALUES.width; value += 1)
        bucket.values[index * BUCKET_VALUES.width + value] =
          (row[ROLLUP_ROW.values + value] as number | null) ?? NaN;
    }
    return built;
  };

  /** Adds a bucket's rows to the sums: `recent` hours towards rolling1h, `rolled` days apart. */
  const accumulate = (sums: Float64Array, bucket: Bucket, recent: boolean, rolled: boolean) => {
    const { slots: rowSlots, counts, values } = bucket;
    const weightedAt =
      PACKED_SUMS.percentiles + (rolled ? PACKED_PERCENTILE.rolledWeighted : PACKED_PERCENTILE.weighted);
    const timedAt =
      PACKED_SUMS.percentiles + (rolled ? PACKED_PERCENTILE.rolledTimed : PACKED_PERCENTILE.timed);
    for (let index = 0; index < rowSlots.length; index += 1) {
      const base = rowSlots[index] * PACKED_SUMS.width;
      const rowCounts = index * BUCKET_COUNTS.width;
      const rowValues = index * BUCKET_VALUES.width;
      const timed = counts[rowCounts + BUCKET_COUNTS.timed];
      sums[base + PACKED_SUMS.passed] += counts[rowCounts + BUCKET_COUNTS.passed];
      sums[base + PACKED_SUMS.failed] += counts[rowCounts + BUCKET_COUNTS.failed];
      if (recent) {
        const durationSum = values[rowValues + BUCKET_VALUES.durationSum];
        if (!Number.isNaN(durationSum)) sums[base + PACKED_SUMS.recentSum] += durationSum;
        sums[base + PACKED_SUMS.recentTimed] += timed;
      }
      for (let percentile = 0; percentile < 3; percentile += 1) {
        const value = values[rowValues + BUCKET_VALUES.percentiles + percentile];
        if (Number.isNaN(value)) continue;
        const at = base + percentile * PACKED_PERCENTILE.width;
        sums[at + weightedAt] += value * timed;
        sums[at + timedAt] += timed;
      }
    }
  };

  return {
    async packedSums(client, sql, startMs, endMs, rawFromMs) {
      uses += 1;
      const use = uses;
      // Checks deleted since the slots were numbered keep theirs: renumber once they pile up.
      let largest = 0;
      for (const bucket of buckets.values()) largest = Math.max(largest, bucket.slots.length);
      if (slots.size > 2 * largest + 10_000) {
        buckets = new Map();
        slots = new Map();
      }
      // This call's buckets and slots, kept by reference: a concurrent call may evict buckets or
      // renumber slots while this one waits for the database.
      const cached = buckets;
      const slotMap = slots;

      const from = new Date(Math.min(Math.floor(startMs / 86_400_000) * 86_400_000, rawFromMs));
      const { rows: meta } = await client.query<[string, number, string | null]>({
        text: sql.versions,
        values: [from, new Date(endMs)],
        rowMode: 'array',
      } as never);
      const markUs = meta.find((row) => row[0] === 'mark')?.[1] ?? -Infinity;
      const versions = new Map<string, string>();
      for (const [granularity, at, version] of meta) {
        if (granularity !== 'mark') versions.set(`${granularity}:${at}`, version as string);
      }
      const plan = planPackedParts(startMs, endMs, rawFromMs, markUs);
      const wanted = new Set([
        ...plan.hours.map((hour) => `1h:${hour.ms}`),
        ...plan.days.map((day) => `1d:${day}`),
        ...plan.rolledDays.map((day) => `1d:${day}`),
      ]);
      // A bucket's version: the granularity's (moved by a TRUNCATE) and its own.
      const versionOf = (key: string) =>
        `${versions.get(`${key.slice(0, 2)}:-Infinity`) ?? '0'}/${versions.get(key) ?? '0'}`;
      const resolved = new Map<string, Bucket>();
      const stale: string[] = [];
      for (const key of wanted) {
        const bucket = cached.get(key);
        if (bucket && bucket.version === versionOf(key)) resolved.set(key, bucket);
        else stale.push(key);
      }
      if (stale.length > 0) {
        const hours = stale
          .filter((key) => key.startsWith('1h:'))
          .map((key) => new Date(Number(key.slice(3))));
        const days = stale
          .filter((key) => key.startsWith('1d:'))
          .map((key) => new Date(Number(key.slice(3))));
        const { rows } = await client.query<RollupRow>({
          text: sql.buckets,
          values: [hours, days],
          rowMode: 'array',
        } as never);
        for (const [key, bucket] of build(rows, versionOf, stale, slotMap)) {
          resolved.set(key, bucket);
          if (cached === buckets) buckets.set(key, bucket);
        }
      }

      const sums = new Float64Array(slotMap.size * PACKED_SUMS.width);
      const add = (key: string, recent: boolean, rolled: boolean) => {
        const bucket = resolved.get(key) as Bucket;
        bucket.lastUsed = use;
        accumulate(sums, bucket, recent, rolled);
      };
      for (const hour of plan.hours) add(`1h:${hour.ms}`, hour.recent, false);
      for (const day of plan.days) add(`1d:${day}`, false, false);
      for (const day of plan.rolledDays) add(`1d:${day}`, false, true);

      if (buckets.size > MAX_CACHED_BUCKETS) {
        const byAge = [...buckets.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
        for (const [key] of byAge.slice(0, buckets.size - MAX_CACHED_BUCKETS)) buckets.delete(key);
      }
      // A slot a concurrent call numbered after `sums` was sized has nothing in this call's buckets.
      const slotOf = (checkId: string) => {
        const slot = slotMap.get(checkId);
        return slot !== undefined && slot * PACKED_SUMS.width < sums.length ? slot : undefined;
      };
      return { sums, slotOf };
    },
  };
}
