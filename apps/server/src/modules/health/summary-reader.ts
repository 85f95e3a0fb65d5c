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
 * The caches are only an optimisation: every call validates what it uses against the database
 * (fingerprints, bucket versions, the rows written since the last snapshot), so processes sharing
 * one database never serve stale values.
 */
import type { CheckStatus, CheckSummary } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { createRecentCache, RECENT_PART_WIDTH, setPercentiles, type RecentPart } from './recent-cache.js';
import { cursor, numberAt } from './text-numbers.js';
import { createRollupCache, MAX_CACHED_RANGE_MS, PACKED_SUMS_WIDTH } from './rollup-cache.js';

const DAY_OF = (expression: string) =>
  `(date_trunc('day', (${expression}) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** A rollup row's statuses with a duration (rows from before 0071 have none recorded: total). */
const TIMED = (alias: string) =>
  `coalesce(${alias}.timed, CASE WHEN ${alias}.duration_sum IS NULL THEN 0 ELSE ${alias}.total END)`;

/** A rollup's percentiles times its timed statuses, and those timed statuses (0 without a percentile). */
const DAY_WEIGHTS = (alias: string) =>
  ['p95', 'p97', 'p99']
    .map(
      (p) => `${alias}.duration_${p}::float8 * ${TIMED(alias)} AS ${p}_w,
         CASE WHEN ${alias}.duration_${p} IS NULL THEN 0 ELSE ${TIMED(alias)} END AS ${p}_t`,
    )
    .join(', ');

/**
 * Sums of a packed percentile weighted by its timed statuses, and of those timed statuses (over
 * parts whose raw statuses are kept, and over days rolled up before the raw retention).
 */
const PACKED_WEIGHTS = (p: string) =>
  `sum(${p}_w) FILTER (WHERE NOT rolled) AS ${p}_w,
   sum(${p}_t) FILTER (WHERE NOT rolled)::float8 AS ${p}_t,
   sum(${p}_w) FILTER (WHERE rolled) AS ${p}_rw,
   sum(${p}_t) FILTER (WHERE rolled)::float8 AS ${p}_rt`;

/**
 * The summary's measured parts per check, as the CTEs `raw` (the recent tier) and `packed` (the
 * rollups of packed statuses; before the raw retention, `rolled`). Parameters: $1 start, $2 end,
 * $3 the first UTC day whose raw statuses are kept, $6 check ids or null. Rules: see
 * HealthService.summary.
 */
const SUMMARY_MEASURED_SQL = `WITH bounds AS MATERIALIZED (
         -- lo..hi: hour starts whose midpoint is in the range (and raw statuses are kept);
         -- [d0, d1): UTC days whose 24 hours all count (none in the last hour's window) and
         -- which are wholly packed.
         SELECT lo, hi, mark, d0, greatest(d0, d1) AS d1
         FROM (SELECT lo, hi, mark,
                      CASE WHEN lo = ${DAY_OF('lo')} THEN lo ELSE ${DAY_OF('lo')} + interval '1 day' END AS d0,
                      -- a day's last hour must end before hi, so that rolling1h sees it as an hour
                      least(${DAY_OF("hi - interval '1 microsecond'")}, ${DAY_OF('mark')}) AS d1
               FROM (SELECT greatest($1::timestamptz - interval '30 minutes', $3::timestamptz) AS lo,
                            $2::timestamptz - interval '30 minutes' AS hi,
                            packed_before AS mark
                     -- one row (LIMIT: the planner's estimate, else it may take 2,200 and JIT-compile)
                     FROM check_status_compaction LIMIT 1) AS edges) AS days
       ),
       raw AS (
         -- The recent tier, exact: one row per check with statuses in the range. Durations are
         -- sent unsorted (a hash aggregate): their percentiles are taken in Node, cheaper than
         -- one sort per check here.
         SELECT check_id,
                count(*) FILTER (WHERE status) AS passed,
                count(*) FILTER (WHERE NOT status) AS failed,
                array_agg(duration) FILTER (WHERE duration IS NOT NULL) AS durations,
                sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_sum,
                count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_timed
         FROM check_statuses_recent
         WHERE time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
           AND ($6::uuid[] IS NULL OR check_id = ANY($6))
         GROUP BY check_id
       ),
       packed_parts AS (
         -- Packed hours outside the whole days.
         SELECT h.check_id, h.passed, h.failed, ${DAY_WEIGHTS('h')},
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN h.duration_sum END AS recent_sum,
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN ${TIMED('h')} END AS recent_timed,
                false AS rolled
         FROM check_statuses_1h h
         WHERE h.created_at >= (SELECT lo FROM bounds) AND h.created_at <= (SELECT hi FROM bounds)
           AND h.created_at < (SELECT mark FROM bounds)
           AND (h.created_at < (SELECT d0 FROM bounds) OR h.created_at >= (SELECT d1 FROM bounds))
           AND ($6::uuid[] IS NULL OR h.check_id = ANY($6))
         UNION ALL
         -- Whole packed days (not scanned at all when there is none).
         SELECT d.check_id, d.passed, d.failed, ${DAY_WEIGHTS('d')}, NULL, NULL, false
         FROM check_statuses_1d d
         WHERE (SELECT d0 < d1 FROM bounds)
           AND d.created_at >= (SELECT d0 FROM bounds) AND d.created_at < (SELECT d1 FROM bounds)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
         UNION ALL
         -- Whole days before the raw retention.
         SELECT d.check_id, d.passed, d.failed, ${DAY_WEIGHTS('d')}, NULL, NULL, true
         FROM check_statuses_1d d
         WHERE $1::timestamptz < $3::timestamptz
           AND d.created_at >= ${DAY_OF('$1::timestamptz')}
           AND d.created_at < least($3::timestamptz, $2::timestamptz)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
       ),
       packed AS (
         SELECT check_id, sum(passed) AS passed, sum(failed) AS failed,
                ${PACKED_WEIGHTS('p95')}, ${PACKED_WEIGHTS('p97')}, ${PACKED_WEIGHTS('p99')},
                sum(recent_sum) AS recent_sum, sum(recent_timed) AS recent_timed
         FROM packed_parts
         GROUP BY check_id
       )`;

const DESCRIPTIVE_COLUMNS = `c.id, c.name, c.description, c.endpoint, ca.name AS canary_name, c.type,
       coalesce(c.icon, ca.icon) AS icon, c.namespace, c.labels, c.agent_id`;
/** Changes whenever one of the check's descriptive columns does (migration 0072). */
const FINGERPRINT = `c.descriptive_version || ':' || ca.descriptive_version`;

/** Epoch milliseconds (exact: truncated to the millisecond first), read faster than to_char(). */
const EPOCH_MS = (column: string) => `date_part('epoch', date_trunc('milliseconds', ${column})) * 1000`;

/** $4 checks deleted before this are left out; $5 labels (jsonb) or null; $6 check ids or null. */
const CHECK_FILTER = `(c.deleted_at IS NULL OR c.deleted_at >= $4)
         AND ($5::jsonb IS NULL OR c.labels @> $5::jsonb)
         AND ($6::uuid[] IS NULL OR c.id = ANY($6))`;

/** Columns: see DbRow. */
const SUMMARY_SQL = `${SUMMARY_MEASURED_SQL}
       SELECT c.id, ${FINGERPRINT} AS fingerprint, c.status,
              (coalesce(r.passed, 0) + coalesce(k.passed, 0))::integer AS passed,
              (coalesce(r.failed, 0) + coalesce(k.failed, 0))::integer AS failed,
              array_to_string(r.durations, ' ') AS durations,
              (coalesce(r.recent_sum, 0) + coalesce(k.recent_sum, 0))::float8 AS recent_sum,
              (coalesce(r.recent_timed, 0) + coalesce(k.recent_timed, 0))::float8 AS recent_timed,
              k.p95_w, k.p95_t, k.p95_rw, k.p95_rt,
              k.p97_w, k.p97_t, k.p97_rw, k.p97_rt,
              k.p99_w, k.p99_t, k.p99_rw, k.p99_rt,
              ${EPOCH_MS('c.last_runtime')} AS last_runtime,
              ${EPOCH_MS('c.last_transition_time')} AS last_transition_time,
              ${EPOCH_MS('c.deleted_at')} AS deleted_at
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       LEFT JOIN raw r ON r.check_id = c.id
       LEFT JOIN packed k ON k.check_id = c.id
       WHERE ${CHECK_FILTER}`;

/** Epoch milliseconds as an integer (exact: the double is within a rounding error of it). */
const EPOCH_MS_TEXT = (column: string) =>
  `coalesce((date_part('epoch', date_trunc('milliseconds', ${column})) * 1000)::bigint::text, '')`;

/**
 * The recent tier's part per check with statuses in the range ($1 start, $2 end, $3 the first day
 * whose raw statuses are kept), as one text, in check id order: a line per check of its id,
 * passed, failed, the last hour's duration sum and timed statuses, and its durations (unsorted,
 * space-separated), separated by commas. One text value instead of 10,000 rows: parsing the
 * rows' fields into strings, and collecting them, cost more in Node than the statement itself.
 */
const SUMMARY_RAW_SQL = `SELECT string_agg(check_id::text || ',' || passed || ',' || failed || ',' || recent_sum || ','
                         || recent_timed || ',' || coalesce(array_to_string(durations, ' '), ''), E'\\n' ORDER BY check_id)
       FROM (SELECT check_id,
                    count(*) FILTER (WHERE status) AS passed,
                    count(*) FILTER (WHERE NOT status) AS failed,
                    coalesce(sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour'), 0) AS recent_sum,
                    count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_timed,
                    array_agg(duration) FILTER (WHERE duration IS NOT NULL) AS durations
             FROM check_statuses_recent
             WHERE time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
             GROUP BY check_id) AS raw`;

/**
 * The summary's checks with their status and run times ($1 checks deleted before this are left
 * out; $2 labels (jsonb) or null), as one text: a line per check of its id, its fingerprint, h, u
 * or nothing for its status, and its run times in epoch milliseconds. Not ordered (sorting 10,000
 * ids in SQL was a quarter of the statement): the recent tier's parts are looked up by id, and
 * only its SQL fallback (addRecent) sorts them.
 */
const SUMMARY_CHECKS_SQL = `SELECT string_agg(c.id::text || ',' || ${FINGERPRINT} || ','
                         || CASE c.status WHEN 'healthy' THEN 'h' WHEN 'unhealthy' THEN 'u' ELSE '' END || ','
                         || ${EPOCH_MS_TEXT('c.last_runtime')} || ',' || ${EPOCH_MS_TEXT('c.last_transition_time')} || ','
                         || ${EPOCH_MS_TEXT('c.deleted_at')}, E'\\n')
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       WHERE (c.deleted_at IS NULL OR c.deleted_at >= $1) AND ($2::jsonb IS NULL OR c.labels @> $2::jsonb)`;

/**
 * Compaction's mark in epoch microseconds (-Infinity before anything was packed), then the
 * versions of the rollup buckets between $1 and $2 (migration 0074), bucket starts in epoch ms,
 * and each granularity's version at -Infinity (moved by a TRUNCATE).
 */
const ROLLUP_VERSIONS_SQL = `SELECT 'mark' AS granularity,
              CASE WHEN isfinite(packed_before) THEN (extract(epoch FROM packed_before) * 1000000)::float8
                   ELSE '-Infinity'::float8 END AS at,
              NULL::text AS version
       FROM check_status_compaction
       UNION ALL
       SELECT granularity, (extract(epoch FROM bucket) * 1000)::float8, version::text
       FROM check_rollup_versions
       WHERE (bucket >= $1 AND bucket <= $2) OR bucket = '-infinity'`;

/**
 * The rows of rollup buckets: $1 hour starts (check_statuses_1h), $2 day starts
 * (check_statuses_1d). Columns: see RollupRow.
 */
const ROLLUP_ROWS_SQL = (granularity: string, table: string, parameter: string) =>
  `SELECT '${granularity}', (extract(epoch FROM created_at) * 1000)::float8, check_id, passed, failed,
          ${TIMED('b')}, duration_p95, duration_p97, duration_p99, duration_sum::float8
   FROM ${table} b WHERE created_at = ANY(${parameter}::timestamptz[])`;
const ROLLUP_BUCKETS_SQL = `${ROLLUP_ROWS_SQL('1h', 'check_statuses_1h', '$1')}
       UNION ALL
       ${ROLLUP_ROWS_SQL('1d', 'check_statuses_1d', '$2')}`;

const DESCRIPTIVE_SQL = `SELECT ${DESCRIPTIVE_COLUMNS}, ${FINGERPRINT} AS fingerprint
       FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE c.id = ANY($1::uuid[])`;

export interface SummaryQuery {
  start: Date;
  end: Date;
  labels?: Record<string, string>;
  /** Checks deleted before this are left out. Default: start. */
  deletedFrom?: Date;
  checkIds?: string[];
}

export type { CheckSummary };

type Descriptive = Pick<
  CheckSummary,
  | 'id'
  | 'name'
  | 'description'
  | 'endpoint'
  | 'canary_name'
  | 'type'
  | 'icon'
  | 'namespace'
  | 'labels'
  | 'agent_id'
>;

interface CachedCheck {
  fingerprint: string;
  fields: Descriptive;
  /** The check's JSON object text up to and including agent_id, without the closing brace. */
  head: Buffer;
  /** Position in (canary name, check name, id) order among the cached checks. */
  rank: number;
  /** The last ISO texts made of its run times (most don't change between two reads). */
  times: [number | null, string | null, number | null, string | null, number | null, string | null];
  /** Its last JSON object and what its tail was made of (see jsonOf). */
  tail:
    | {
        status: RecentRow[2];
        epochs: [number | null, number | null, number | null];
        measured: Measured;
        bytes: Buffer;
      }
    | undefined;
}

/** One row of SUMMARY_SQL in array mode. */
type DbRow = [
  id: string,
  fingerprint: string,
  status: CheckStatus | null,
  passed: number,
  failed: number,
  /** The recent tier's durations in the range, unsorted, space-separated ('12 7 30'). */
  durations: string | null,
  recentSum: number,
  recentTimed: number,
  // per percentile (p95, p97, p99): packed weighted sum and timed count, then the same rolled;
  // then last_runtime, last_transition_time and deleted_at in epoch milliseconds
  ...rest: Array<number | null>,
];
const FIRST_PACKED = 8;
const FIRST_TIME = FIRST_PACKED + 12;

/** The integer at `at` in `text` up to the next separator, null when empty (see numberAt). */
function field(text: string, at: number): number | null {
  const value = numberAt(text, at);
  return Number.isNaN(value) ? null : value;
}

/** The lines of SUMMARY_CHECKS_SQL's text as rows, without a recent-tier part yet. */
function parseChecks(text: string): RecentRow[] {
  const rows: RecentRow[] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 36);
    const comma = text.indexOf(',', at + 37);
    const fingerprint = text.slice(at + 37, comma);
    const code = text.charCodeAt(comma + 1);
    const status = code === 104 ? 'healthy' : code === 117 ? 'unhealthy' : null;
    const lastRuntime = field(text, text.indexOf(',', comma + 1) + 1);
    const lastTransitionTime = field(text, cursor);
    const deletedAt = field(text, cursor);
    at = cursor;
    rows.push([id, fingerprint, status, 0, 0, null, 0, 0, lastRuntime, lastTransitionTime, deletedAt]);
  }
  return rows;
}

/**
 * Adds the recent tier's part (SUMMARY_RAW_SQL's text) to the rows of the checks it names: both
 * are in id order (uuids order as their lower-case text does).
 */
function addRecent(rows: RecentRow[], text: string): void {
  let at = 0;
  let next = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 36);
    const passed = field(text, at + 37) ?? 0;
    const failed = field(text, cursor) ?? 0;
    const recentSum = field(text, cursor) ?? 0;
    const recentTimed = field(text, cursor) ?? 0;
    let end = text.indexOf('\n', cursor);
    if (end < 0) end = text.length;
    while (next < rows.length && rows[next][0] < id) next += 1;
    const row = rows[next];
    if (row !== undefined && row[0] === id) {
      row[3] = passed;
      row[4] = failed;
      row[5] = end > cursor ? percentilePart(text.slice(cursor, end)) : null;
      row[6] = recentSum;
      row[7] = recentTimed;
    }
    at = end + 1;
  }
}

/** A check's row: its status and run times, and the recent tier's part (counts, durations, the last hour's sum and timed statuses). */
type RecentRow = [
  id: string,
  fingerprint: string,
  status: CheckStatus | null,
  passed: number,
  failed: number,
  /** The recent tier's statuses with a duration and their percentiles (RecentPart's [4..7]), or null. */
  percentiles: RecentPart | null,
  recentSum: number,
  recentTimed: number,
  lastRuntime: number | null,
  lastTransitionTime: number | null,
  deletedAt: number | null,
];

/**
 * A row of SUMMARY_SQL as a row of SUMMARY_RECENT_SQL (its counts include the packed parts) with
 * its packed percentile sums written into `sums` at `base` (rollup-cache.ts's layout).
 */
function fromSqlRow(row: DbRow, sums: Float64Array, base: number): RecentRow {
  for (let index = 0; index < 12; index += 1)
    sums[base + 4 + index] = (row[FIRST_PACKED + index] as number | null) ?? 0;
  const recent = [...row.slice(0, FIRST_PACKED), ...row.slice(FIRST_TIME)] as unknown as RecentRow;
  recent[5] = row[5] ? percentilePart(row[5]) : null;
  return recent;
}

/** A check's measured values: passed, failed, rolling1h, p95, p97, p99 (NaN: none). */
type Measured = Float64Array;

let durationsBuffer = new Int32Array(4096);

/** Space-separated durations ('12 7 30'), sorted, in a shared buffer (valid until the next call). */
function sortedDurations(text: string): Int32Array {
  let count = 1;
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) === 32) count += 1;
  if (count > durationsBuffer.length) durationsBuffer = new Int32Array(count * 2);
  let n = 0;
  let value = 0;
  let negative = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32) {
      durationsBuffer[n++] = negative ? -value : value;
      value = 0;
      negative = false;
    } else if (code === 45) negative = true;
    else value = value * 10 + (code - 48);
  }
  durationsBuffer[n++] = negative ? -value : value;
  return durationsBuffer.subarray(0, n).sort();
}

/** A part holding the count and percentiles of space-separated durations (SQL's recent tier). */
function percentilePart(text: string): RecentPart {
  const part = new Float64Array(RECENT_PART_WIDTH);
  const sorted = sortedDurations(text);
  setPercentiles(part, sorted, sorted.length);
  return part;
}

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
 */
function measure(row: RecentRow, sums: Float64Array, base: number, out: Measured): Measured {
  const packed = base >= 0;
  out[0] = row[3] + (packed ? sums[base] : 0);
  out[1] = row[4] + (packed ? sums[base + 1] : 0);
  const recentTimed = row[7] + (packed ? sums[base + 3] : 0);
  out[2] = recentTimed > 0 ? Math.round((row[6] + (packed ? sums[base + 2] : 0)) / recentTimed) : NaN;
  const recent = row[5];
  for (let index = 0; index < 3; index += 1) {
    const at = base + 4 + index * 4;
    let sum = packed ? sums[at] : 0;
    let count = packed ? sums[at + 1] : 0;
    if (recent !== null && recent[4] > 0) {
      sum += recent[5 + index] * recent[4];
      count += recent[4];
    }
    const rolledTimed = packed ? sums[at + 3] : 0;
    let value = NaN;
    if (count > 0) value = sum / count;
    else if (rolledTimed) value = sums[at + 2] / rolledTimed;
    out[3 + index] = Number.isNaN(value) ? NaN : roundHalfEven(value);
  }
  return out;
}

const LATENCY_KEYS = ['rolling1h', 'p95', 'p97', 'p99'] as const;

function latencyOf(measured: Measured): CheckSummary['latency'] {
  const latency: CheckSummary['latency'] = {};
  for (let index = 0; index < 4; index += 1) {
    if (!Number.isNaN(measured[2 + index])) latency[LATENCY_KEYS[index]] = measured[2 + index];
  }
  return latency;
}

/** latencyOf() as JSON members, without building the object. */
function latencyText(measured: Measured): string {
  let text = '';
  for (let index = 0; index < 4; index += 1) {
    const value = measured[2 + index];
    if (!Number.isNaN(value)) text += `${text === '' ? '' : ','}"${LATENCY_KEYS[index]}":${value}`;
  }
  return text;
}

/** A run time of the row as ISO text, reusing the check's last one when it didn't change. */
function isoTime(check: CachedCheck, row: RecentRow, index: 0 | 1 | 2): string | null {
  const epochMs = row[8 + index] as number | null;
  if (epochMs === null) return null;
  if (check.times[index * 2] === epochMs) return check.times[index * 2 + 1] as string;
  const text = new Date(Math.round(epochMs)).toISOString();
  check.times[index * 2] = epochMs;
  check.times[index * 2 + 1] = text;
  return text;
}

/**
 * The check's JSON object as bytes: its head, then its status, uptime, latency and run times,
 * reused while none of those changed (most checks' between two reads of the health page).
 */
function jsonOf(check: CachedCheck, row: RecentRow, measured: Measured): Buffer {
  const last = check.tail;
  if (
    last !== undefined &&
    last.status === row[2] &&
    last.epochs[0] === row[8] &&
    last.epochs[1] === row[9] &&
    last.epochs[2] === row[10] &&
    sameValues(last.measured, measured)
  ) {
    return last.bytes;
  }
  // ASCII only: a status of the CHECK constraint's two values, numbers and ISO times.
  const text =
    `,"status":${row[2] === null ? 'null' : `"${row[2]}"`},` +
    `"uptime":{"passed":${measured[0]},"failed":${measured[1]}},"latency":{${latencyText(measured)}},` +
    `"last_runtime":${jsonTime(isoTime(check, row, 0))},"last_transition_time":${jsonTime(isoTime(check, row, 1))},` +
    `"deleted_at":${jsonTime(isoTime(check, row, 2))}}`;
  const tail = Buffer.from(text, 'latin1');
  const bytes = Buffer.allocUnsafe(check.head.length + tail.length);
  check.head.copy(bytes, 0);
  tail.copy(bytes, check.head.length);
  check.tail = {
    status: row[2],
    epochs: [row[8], row[9], row[10]],
    measured: Float64Array.from(measured),
    bytes,
  };
  return bytes;
}

/** Equal measured values (NaN, none, equals NaN). */
function sameValues(a: Measured, b: Measured): boolean {
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] !== b[index] && !(Number.isNaN(a[index]) && Number.isNaN(b[index]))) return false;
  }
  return true;
}

/** Room for a check's JSON after its head: status, uptime, latency and three times. */
const TAIL_BYTES = 320;

const jsonTime = (text: string | null) => (text === null ? 'null' : `"${text}"`);

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
  ): Promise<{ rows: RecentRow[]; checks: CachedCheck[]; sums: Float64Array; bases: Int32Array }> => {
    const values = [
      query.start,
      query.end,
      rawFrom,
      query.deletedFrom ?? query.start,
      query.labels ? JSON.stringify(query.labels) : null,
      query.checkIds ?? null,
    ];
    let rows: RecentRow[];
    let sums: Float64Array;
    let baseOf: (row: RecentRow, index: number) => number;
    // Summaries of a few checks (check detail, graph) and of long ranges read the rollups in SQL;
    // the health page's, of every check, from the rollups kept per process.
    if (query.checkIds || query.end.getTime() - query.start.getTime() > MAX_CACHED_RANGE_MS) {
      const { rows: sqlRows } = await pool.query<DbRow>({
        text: SUMMARY_SQL,
        values,
        rowMode: 'array',
      } as never);
      sums = new Float64Array(sqlRows.length * PACKED_SUMS_WIDTH);
      rows = sqlRows.map((row, index) => fromSqlRow(row, sums, index * PACKED_SUMS_WIDTH));
      baseOf = (_row, index) => index * PACKED_SUMS_WIDTH;
    } else {
      // The checks (status and run times) are read on another connection meanwhile: they need
      // not agree with the snapshot, while the recent tier and the packed buckets must.
      const checkText = pool.query<[string | null]>({
        text: SUMMARY_CHECKS_SQL,
        values: [values[3], values[4]],
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
                values: values.slice(0, 3),
                rowMode: 'array',
              } as never);
              raw = aggregated[0]?.[0] ?? null;
            }
            const recent = parseChecks((await checkText).rows[0]?.[0] ?? '');
            if (tier === undefined) {
              // addRecent() merges two lists in id order (uuids order as their lower-case text).
              recent.sort((a, b) => compareText(a[0], b[0]));
              addRecent(recent, raw ?? '');
            } else {
              for (const row of recent) {
                const part = tier.partOf(row[0]);
                if (part === undefined) continue;
                row[3] = part[0];
                row[4] = part[1];
                row[5] = part;
                row[6] = part[2];
                row[7] = part[3];
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
        const slot = slotOf(row[0]);
        return slot === undefined ? -1 : slot * PACKED_SUMS_WIDTH;
      };
    }
    // Each row's cached check, looked up once (10,000 lookups of fresh id strings cost ~5 ms).
    const found: Array<CachedCheck | undefined> = new Array(rows.length);
    const stale: string[] = [];
    for (let index = 0; index < rows.length; index += 1) {
      const check = cache.get(rows[index][0]);
      if (check?.fingerprint === rows[index][1]) found[index] = check;
      else stale.push(rows[index][0]);
    }
    if (stale.length > 0) {
      const { rows: fresh } = await pool.query<Descriptive & { fingerprint: string }>(DESCRIPTIVE_SQL, [
        stale,
      ]);
      for (const { fingerprint, ...fields } of fresh) {
        fields.labels = fields.labels ?? {};
        const text = JSON.stringify(fields);
        cache.set(fields.id, {
          fingerprint,
          fields,
          head: Buffer.from(text.slice(0, -1)),
          rank: 0,
          times: [null, null, null, null, null, null],
          tail: undefined,
        });
      }
      ranked = false;
    }
    // An unfiltered summary names every check there is: forget the others (deleted long ago).
    if (!query.labels && !query.checkIds && cache.size > rows.length) {
      const present = new Set(rows.map((row) => row[0]));
      for (const id of cache.keys()) if (!present.has(id)) cache.delete(id);
      ranked = false;
    }
    if (!ranked) rerank();
    // In rank order, without a comparison sort: ranks are 0 … cache.size - 1, each used once. A
    // check deleted between the two statements has no descriptive row: left out.
    if (stale.length > 0) {
      for (let index = 0; index < rows.length; index += 1) found[index] ??= cache.get(rows[index][0]);
    }
    const at = new Int32Array(cache.size).fill(-1);
    for (let index = 0; index < rows.length; index += 1) {
      const check = found[index];
      if (check) at[check.rank] = index;
    }
    const ordered: RecentRow[] = [];
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
      const measured = new Float64Array(6);
      return rows.map((row, index) => {
        const check = checks[index];
        measure(row, sums, bases[index], measured);
        return {
          ...check.fields,
          labels: { ...check.fields.labels },
          status: row[2],
          uptime: { passed: measured[0], failed: measured[1] },
          latency: latencyOf(measured),
          last_runtime: isoTime(check, row, 0),
          last_transition_time: isoTime(check, row, 1),
          deleted_at: isoTime(check, row, 2),
        };
      });
    },
    async readJson(query, rawFrom) {
      const { rows, checks, sums, bases } = await load(query, rawFrom);
      const measured = new Float64Array(6);
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
