/**
 * Reads the check summary (`/api/canary/api/summary`) for thousands of checks at once.
 *
 * Each call reads, per check, only what changes between calls: its status, run times and
 * measured values, plus a fingerprint of its descriptive columns (name, description, endpoint,
 * canary name, type, icon, namespace, labels, agent). Those columns are kept per process in a
 * cache, with each check's JSON text prepared once, and are read again only for checks whose
 * fingerprint changed: parsing and serialising 10,000 wide rows on every call cost more than the
 * whole measurement. Rows are ordered in Node by canary name, check name and id (code-unit
 * order), from the cache, instead of a collation sort in SQL.
 *
 * Measured values: summaries of every check over up to 40 days (the health page's) read the
 * packed hours and days from the rollup buckets kept per process (rollup-cache.ts) and the recent
 * tier from its copy kept per process (recent-cache.ts), both brought to one snapshot; summaries
 * of given checks and longer ranges run one statement (SUMMARY_SQL over SUMMARY_MEASURED_SQL, the
 * rules' reference). Both give the same result.
 *
 * Its parts: summary-columns.ts (the descriptive columns, the one list to change), summary-sql.ts
 * (the statements and their row layouts), summary-rows.ts (rows from their results),
 * summary-measure.ts (a check's measured values), summary-json.ts (a cached check and its object
 * or JSON bytes). This file runs a call: which path, the snapshot, the cache and the order.
 *
 * The caches are only an optimisation: every call validates what it uses against the database
 * (fingerprints, bucket versions, the rows written since the last snapshot), so processes sharing
 * one database never serve stale values.
 */
import type { CheckSummary } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { createRecentCache } from './recent-cache.js';
import { createRollupCache, MAX_CACHED_RANGE_MS, PACKED_SUMS } from './rollup-cache.js';
import { DESCRIPTIVE_SQL, type DescriptiveRow } from './summary-columns.js';
import { cachedCheckOf, jsonOf, summaryOf, TAIL_BYTES, type CachedCheck } from './summary-json.js';
import { measure, newMeasured } from './summary-measure.js';
import {
  addRecent,
  DurationSorter,
  fromSqlRow,
  parseChecks,
  setRecentPart,
  type SummaryRow,
} from './summary-rows.js';
import {
  ROLLUP_BUCKETS_SQL,
  ROLLUP_VERSIONS_SQL,
  SUMMARY_CHECKS_SQL,
  SUMMARY_RAW_SQL,
  SUMMARY_SQL,
  type SummarySqlRow,
} from './summary-sql.js';

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface SummaryQuery {
  start: Date;
  end: Date;
  labels?: Record<string, string>;
  /** Checks deleted before this are left out. Default: start. */
  deletedFrom?: Date;
  checkIds?: string[];
}

export type { CheckSummary };

export interface SummaryReader {
  /** The summary as objects. */
  read(query: SummaryQuery, rawFrom: Date): Promise<CheckSummary[]>;
  /** The summary as the JSON text of its array in UTF-8 (what the HTTP route sends). */
  readJson(query: SummaryQuery, rawFrom: Date): Promise<Buffer>;
}

export function createSummaryReader(pool: Pool, options: { maxRecentRows?: number } = {}): SummaryReader {
  const cache = new Map<string, CachedCheck>();
  const rollups = createRollupCache();
  const recentTier = createRecentCache(options.maxRecentRows);
  const durations = new DurationSorter();
  let ranked = true;
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `work` after every earlier call's work has ended. */
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };

  const rerank = () => {
    const entries = [...cache.values()].sort(
      (a, b) =>
        compareText(a.fields.canary_name, b.fields.canary_name) ||
        compareText(a.fields.name, b.fields.name) ||
        compareText(a.fields.id, b.fields.id),
    );
    entries.forEach((entry, index) => (entry.rank = index));
    ranked = true;
  };

  /** The summary's rows in order, each with its cached check. */
  const load = async (
    query: SummaryQuery,
    rawFrom: Date,
  ): Promise<{ rows: SummaryRow[]; checks: CachedCheck[]; sums: Float64Array; bases: Int32Array }> => {
    const deletedFrom = query.deletedFrom ?? query.start;
    const labels = query.labels ? JSON.stringify(query.labels) : null;
    // SUMMARY_SQL's parameters $1 … $6; SUMMARY_RAW_SQL takes the first three.
    const values = [query.start, query.end, rawFrom, deletedFrom, labels, query.checkIds ?? null];
    let rows: SummaryRow[];
    let sums: Float64Array;
    let baseOf: (row: SummaryRow, index: number) => number;
    // Summaries of a few checks (check detail, graph) and of long ranges read the rollups in SQL;
    // the health page's, of every check, from the rollups kept per process.
    if (query.checkIds || query.end.getTime() - query.start.getTime() > MAX_CACHED_RANGE_MS) {
      const { rows: sqlRows } = await pool.query<SummarySqlRow>({
        text: SUMMARY_SQL,
        values,
        rowMode: 'array',
      } as never);
      sums = new Float64Array(sqlRows.length * PACKED_SUMS.width);
      rows = sqlRows.map((row, index) => fromSqlRow(row, sums, index * PACKED_SUMS.width, durations));
      baseOf = (_row, index) => index * PACKED_SUMS.width;
    } else {
      // The checks (status and run times) are read on another connection meanwhile: they need
      // not agree with the snapshot, while the recent tier and the packed buckets must.
      const checkText = pool.query<[string | null]>({
        text: SUMMARY_CHECKS_SQL,
        values: [deletedFrom, labels],
        rowMode: 'array',
      } as never);
      checkText.catch(() => undefined);
      // One call at a time reads through the caches, each in a snapshot taken after the previous
      // call's: the recent tier's cache moves from one snapshot to a later one.
      const read = await serially(() =>
        withTransaction(
          pool,
          async (client) => {
            const packed = await rollups.packedSums(
              client,
              { versions: ROLLUP_VERSIONS_SQL, buckets: ROLLUP_BUCKETS_SQL },
              query.start.getTime(),
              query.end.getTime(),
              rawFrom.getTime(),
            );
            const tier = await recentTier.read(
              client,
              Math.max(query.start.getTime(), rawFrom.getTime()),
              query.end.getTime(),
            );
            let raw: string | null = null;
            if (tier === undefined) {
              // The tier is too large to keep (a backlog): aggregated here. Room for a hash
              // aggregate in memory (10,000 checks' durations take ~5 MB): with the default 4 MB
              // the planner walks the primary key instead or sorts on disk, 15-30% slower.
              await client.query("SET LOCAL work_mem = '64MB'");
              const { rows: aggregated } = await client.query<[string | null]>({
                text: SUMMARY_RAW_SQL,
                values: [query.start, query.end, rawFrom],
                rowMode: 'array',
              } as never);
              raw = aggregated[0]?.[0] ?? null;
            }
            const recent = parseChecks((await checkText).rows[0]?.[0] ?? '');
            if (tier === undefined) {
              // addRecent() merges two lists in id order (uuids order as their lower-case text).
              recent.sort((a, b) => compareText(a.id, b.id));
              addRecent(recent, raw ?? '', durations);
            } else {
              for (const row of recent) {
                const part = tier.partOf(row.id);
                if (part !== undefined) setRecentPart(row, part);
              }
            }
            return { packed, recent };
          },
          // One snapshot: the packed buckets' versions, their rows and the recent tier agree.
          'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
        ),
      );
      rows = read.recent;
      sums = read.packed.sums;
      const { slotOf } = read.packed;
      baseOf = (row) => {
        const slot = slotOf(row.id);
        return slot === undefined ? -1 : slot * PACKED_SUMS.width;
      };
    }
    // Each row's cached check, looked up once (10,000 lookups of fresh id strings cost ~5 ms).
    const found: Array<CachedCheck | undefined> = new Array(rows.length);
    const stale: string[] = [];
    for (let index = 0; index < rows.length; index += 1) {
      const check = cache.get(rows[index].id);
      if (check?.fingerprint === rows[index].fingerprint) found[index] = check;
      else stale.push(rows[index].id);
    }
    if (stale.length > 0) {
      const { rows: fresh } = await pool.query<DescriptiveRow>(DESCRIPTIVE_SQL, [stale]);
      for (const row of fresh) cache.set(row.id, cachedCheckOf(row));
      ranked = false;
    }
    // An unfiltered summary names every check there is: forget the others (deleted long ago).
    if (!query.labels && !query.checkIds && cache.size > rows.length) {
      const present = new Set(rows.map((row) => row.id));
      for (const id of cache.keys()) if (!present.has(id)) cache.delete(id);
      ranked = false;
    }
    if (!ranked) rerank();
    // In rank order, without a comparison sort: ranks are 0 … cache.size - 1, each used once. A
    // check deleted between the two statements has no descriptive row: left out.
    if (stale.length > 0) {
      for (let index = 0; index < rows.length; index += 1) found[index] ??= cache.get(rows[index].id);
    }
    const at = new Int32Array(cache.size).fill(-1);
    for (let index = 0; index < rows.length; index += 1) {
      const check = found[index];
      if (check) at[check.rank] = index;
    }
    const ordered: SummaryRow[] = [];
    const checks: CachedCheck[] = [];
    const bases: number[] = [];
    for (let rank = 0; rank < at.length; rank += 1) {
      const index = at[rank];
      if (index < 0) continue;
      const row = rows[index];
      ordered.push(row);
      checks.push(found[index] as CachedCheck);
      bases.push(baseOf(row, index));
    }
    return { rows: ordered, checks, sums, bases: Int32Array.from(bases) };
  };

  return {
    async read(query, rawFrom) {
      const { rows, checks, sums, bases } = await load(query, rawFrom);
      const measured = newMeasured();
      return rows.map((row, index) =>
        summaryOf(checks[index], row, measure(row, sums, bases[index], measured)),
      );
    },
    async readJson(query, rawFrom) {
      const { rows, checks, sums, bases } = await load(query, rawFrom);
      const measured = newMeasured();
      // Written straight into one buffer: 10,000 checks make ~5 MB of text, and building it as
      // strings kept every piece alive through the young generation's collections.
      let size = 2;
      for (const check of checks) size += check.head.length + TAIL_BYTES;
      let buffer = Buffer.allocUnsafe(size);
      let offset = buffer.write('[', 0, 'latin1');
      for (let index = 0; index < rows.length; index += 1) {
        const row = rows[index];
        const check = checks[index];
        measure(row, sums, bases[index], measured);
        const json = jsonOf(check, row, measured);
        const needed = offset + 1 + json.length + 1;
        if (needed > buffer.length) {
          const larger = Buffer.allocUnsafe(Math.max(needed, buffer.length * 2));
          buffer.copy(larger, 0, 0, offset);
          buffer = larger;
        }
        if (index > 0) buffer[offset++] = 44; // ','
        buffer.set(json, offset);
        offset += json.length;
      }
      offset += buffer.write(']', offset, 'latin1');
      return buffer.subarray(0, offset);
    },
  };
}
