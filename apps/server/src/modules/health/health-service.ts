import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { loadCanary } from './canary-sync.js';
import {
  canaryScheduleOf,
  nextRuntimeOf,
  runCanaryChecks,
  type CanaryRunnerOptions,
  type CanaryRunSummary,
} from './canary-runner.js';
import { CANARY_JOB_NAME, CANARY_RESOURCE_TYPE, canaryScheduleName } from './canary-scheduler.js';
import { checkStatusRetentionDays } from './rollups.js';

/** A request the health API cannot answer as asked (400) or about something missing (404). */
export class HealthRequestError extends Error {
  override readonly name = 'HealthRequestError';
  constructor(
    message: string,
    readonly statusCode: 400 | 404,
  ) {
    super(message);
  }
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  mo: 30 * 86_400_000,
  y: 365 * 86_400_000,
};

/**
 * Reads a time parameter: a duration before now (`1h`, `7d`, `1mo`, also `now-1h`), `now`, an
 * ISO 8601 time or epoch milliseconds. Undefined or empty gives `fallback`.
 */
export function parseTimeParameter(value: unknown, fallback: Date, field: string, now = new Date()): Date {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new HealthRequestError(`${field} must be a duration such as 1h or a time`, 400);
  }
  const text = String(value).trim();
  if (text === 'now') return now;
  const relative = /^(?:now-)?(\d+(?:\.\d+)?)(ms|mo|s|m|h|d|w|y)$/.exec(text);
  if (relative) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]]);
  if (/^\d{10,}$/.test(text)) return new Date(Number(text));
  const parsed = new Date(text);
  if (Number.isNaN(parsed.getTime())) {
    throw new HealthRequestError(`${field} must be a duration such as 1h or a time, got "${text}"`, 400);
  }
  return parsed;
}

export interface LabelsParseResult {
  labels?: Record<string, string>;
  invalid?: string;
}

/**
 * Reads a labels filter: an object of strings, a JSON object text, or `key=value,key2=value2`.
 * Anything else is reported as invalid (callers log it and ignore the filter).
 */
export function parseLabelsParameter(value: unknown): LabelsParseResult {
  if (value === undefined || value === null || value === '') return {};
  let candidate: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('{')) {
      try {
        candidate = JSON.parse(text) as unknown;
      } catch {
        return { invalid: text };
      }
    } else {
      const labels: Record<string, string> = {};
      for (const pair of text.split(',')) {
        const index = pair.indexOf('=');
        if (index <= 0) return { invalid: text };
        labels[pair.slice(0, index).trim()] = pair.slice(index + 1).trim();
      }
      return { labels };
    }
  }
  if (!candidate || typeof candidate !== 'object' || Array.isArray(candidate))
    return { invalid: String(value) };
  const labels: Record<string, string> = {};
  for (const [key, item] of Object.entries(candidate as Record<string, unknown>)) {
    if (typeof item !== 'string') return { invalid: JSON.stringify(candidate) };
    labels[key] = item;
  }
  return { labels };
}

export interface SummaryQuery {
  start: Date;
  end: Date;
  labels?: Record<string, string>;
  /** Checks deleted before this are left out. Default: start. */
  deletedFrom?: Date;
  checkIds?: string[];
}

export interface CheckSummary {
  id: string;
  name: string;
  description: string | null;
  endpoint: string | null;
  canary_name: string;
  type: string;
  icon: string | null;
  namespace: string | null;
  labels: Record<string, string>;
  agent_id: string;
  status: 'healthy' | 'unhealthy' | null;
  uptime: { passed: number; failed: number };
  latency: { rolling1h?: number; p95?: number; p97?: number; p99?: number };
  last_runtime: string | null;
  last_transition_time: string | null;
  deleted_at: string | null;
}

interface SummaryRow {
  id: string;
  name: string;
  description: string | null;
  endpoint: string | null;
  canary_name: string;
  type: string;
  icon: string | null;
  namespace: string | null;
  labels: Record<string, string> | null;
  agent_id: string;
  status: 'healthy' | 'unhealthy' | null;
  passed: number;
  failed: number;
  rolling1h: number | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
  /** ISO 8601 in UTC with milliseconds, as Date.toISOString() writes it (formatted by SQL: 10,000 rows parse faster). */
  last_runtime: string | null;
  last_transition_time: string | null;
  deleted_at: string | null;
}

/** The first UTC day whose raw statuses are all still kept; older days are read from rollups. */
export function rawStatusesFrom(now: Date, retentionDays: number): Date {
  const oldest = new Date(now.getTime() - retentionDays * 86_400_000);
  return new Date(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth(), oldest.getUTCDate() + 1));
}

/** The start of the UTC day of a timestamptz expression. */
const DAY_OF = (expression: string) =>
  `(date_trunc('day', (${expression}) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** A rollup row's statuses with a duration (rows from before 0071 have none recorded: total). */
const TIMED = (alias: string) =>
  `coalesce(${alias}.timed, CASE WHEN ${alias}.duration_sum IS NULL THEN 0 ELSE ${alias}.total END)`;

/**
 * A percentile of the summary's parts averaged weighted by their timed statuses: the parts with
 * raw statuses kept (recent tier, packed hours and days), else the days before the raw retention.
 */
const WEIGHTED = (p: string) =>
  `coalesce(sum(${p} * timed) FILTER (WHERE NOT rolled) / nullif(sum(timed) FILTER (WHERE ${p} IS NOT NULL AND NOT rolled), 0),
            sum(${p} * timed) FILTER (WHERE rolled) / nullif(sum(timed) FILTER (WHERE ${p} IS NOT NULL AND rolled), 0)) AS ${p}`;

/** to_char() format of Date.toISOString() (timestamps are converted to UTC first). */
const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export interface HealthServiceOptions extends Omit<CanaryRunnerOptions, 'pool'> {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  /** Default CHECK_STATUS_RETENTION_DAYS or 30. */
  retentionDays?: number;
}

export interface RunNowResult {
  total: number;
  failed: number;
  success: number;
  errors: string[];
}

export interface StatusRecord {
  time: string;
  duration: number | null;
  status: boolean;
  message?: string | null;
  error?: string | null;
}

export interface GraphQuery {
  checkId: string;
  start: Date;
  end: Date;
  /** At most this many buckets, the latest ones (default 300, spec core §9). */
  count: number;
}

export interface GraphPoint {
  /** Start of the bucket. */
  time: string;
  /** True when every run in the bucket passed. */
  status: boolean;
  /** Mean duration of the bucket's runs, ms. */
  duration: number | null;
  passed: number;
  failed: number;
}

export interface CheckGraph {
  /** Bucket width in seconds: 60 up to 2 h, 900 up to 24 h, 3600 up to 7 d, 14400 beyond. */
  bucketSeconds: number;
  status: GraphPoint[];
  latency: CheckSummary['latency'];
  uptime: CheckSummary['uptime'];
}

/** The graph's bucket width for a range (API.md §2 'bucketed by range'). */
export function graphBucketSeconds(rangeMs: number): number {
  const hour = 3_600_000;
  if (rangeMs <= 2 * hour) return 60;
  if (rangeMs <= 24 * hour) return 900;
  if (rangeMs <= 7 * 24 * hour) return 3600;
  return 4 * 3600;
}

export interface HealthService {
  summary(query: SummaryQuery): Promise<CheckSummary[]>;
  graph(query: GraphQuery): Promise<CheckGraph | undefined>;
  checksWithStatuses(
    query: SummaryQuery & { includeMessages: boolean },
  ): Promise<Array<CheckSummary & { checkStatuses: StatusRecord[] }>>;
  runNow(checkId: string): Promise<RunNowResult>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The summary's measured parts per check (see HealthService.summary's rules). */
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
                     FROM check_status_compaction) AS edges) AS days
       ),
       raw_sorted AS (
         -- One sort for all checks (the aggregate reuses the input order) instead of one per
         -- check and percentile: percentile_of_sorted() is percentile_cont over the array.
         SELECT check_id,
                count(*) FILTER (WHERE status)::integer AS passed,
                count(*) FILTER (WHERE NOT status)::integer AS failed,
                array_agg(duration ORDER BY duration) FILTER (WHERE duration IS NOT NULL) AS sorted,
                sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_sum,
                count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_timed
         FROM check_statuses_recent
         WHERE time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
           AND ($6::uuid[] IS NULL OR check_id = ANY($6))
         GROUP BY check_id
       ),
       parts AS (
         SELECT check_id, passed, failed, coalesce(cardinality(sorted), 0) AS timed,
                percentile_of_sorted(sorted, 0.95) AS p95,
                percentile_of_sorted(sorted, 0.97) AS p97,
                percentile_of_sorted(sorted, 0.99) AS p99,
                recent_sum, recent_timed, false AS rolled
         FROM raw_sorted
         UNION ALL
         -- Packed hours outside the whole days.
         SELECT h.check_id, h.passed, h.failed, ${TIMED('h')}, h.duration_p95, h.duration_p97, h.duration_p99,
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN h.duration_sum END,
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN ${TIMED('h')} END,
                false
         FROM check_statuses_1h h
         WHERE h.created_at >= (SELECT lo FROM bounds) AND h.created_at <= (SELECT hi FROM bounds)
           AND h.created_at < (SELECT mark FROM bounds)
           AND (h.created_at < (SELECT d0 FROM bounds) OR h.created_at >= (SELECT d1 FROM bounds))
           AND ($6::uuid[] IS NULL OR h.check_id = ANY($6))
         UNION ALL
         -- Whole packed days (not scanned at all when there is none).
         SELECT d.check_id, d.passed, d.failed, ${TIMED('d')}, d.duration_p95, d.duration_p97, d.duration_p99,
                NULL, NULL, false
         FROM check_statuses_1d d
         WHERE (SELECT d0 < d1 FROM bounds)
           AND d.created_at >= (SELECT d0 FROM bounds) AND d.created_at < (SELECT d1 FROM bounds)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
         UNION ALL
         -- Whole days before the raw retention.
         SELECT d.check_id, d.passed, d.failed, ${TIMED('d')}, d.duration_p95, d.duration_p97, d.duration_p99,
                NULL, NULL, true
         FROM check_statuses_1d d
         WHERE $1::timestamptz < $3::timestamptz
           AND d.created_at >= ${DAY_OF('$1::timestamptz')}
           AND d.created_at < least($3::timestamptz, $2::timestamptz)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
       ),
       measured AS (
         SELECT check_id, sum(passed)::integer AS passed, sum(failed)::integer AS failed,
                ${WEIGHTED('p95')}, ${WEIGHTED('p97')}, ${WEIGHTED('p99')},
                sum(recent_sum)::numeric / nullif(sum(recent_timed), 0) AS rolling1h
         FROM parts
         GROUP BY check_id
       )`;

export function createHealthService(options: HealthServiceOptions): HealthService {
  const { pool } = options;
  const retentionDays = options.retentionDays ?? checkStatusRetentionDays();

  /**
   * Statuses of the recent tier (check_statuses_recent) are counted exactly: those with
   * start <= time <= end. Packed statuses (check_status_blocks) are never read from the blocks'
   * arrays: they are counted at hour granularity from the rollups compaction writes in the same
   * transaction as the blocks (migration 0071): a packed hour counts whole when its midpoint is in
   * the range (the range's edges rounded to the nearest hour), from check_statuses_1h, or from
   * check_statuses_1d when all 24 hours of a UTC day count and the day is wholly packed. Hours
   * starting before compaction's mark (check_status_compaction) hold only packed statuses and
   * packed statuses are all before it, so none is counted twice or missed, whatever the timing
   * of compaction and of results recorded late. Before the raw retention, whole days of the daily
   * rollups are counted (a day counts when it starts on or after the range's first UTC day).
   *
   * rolling1h is the mean duration over the range's last hour, by the same rules (packed hours
   * whose midpoint falls in it). p95/p97/p99 are exact over the recent statuses; each packed hour
   * or day contributes its own percentile weighted by its statuses with a duration, and all parts
   * are averaged weighted by those counts.
   */
  const summary = async (query: SummaryQuery): Promise<CheckSummary[]> => {
    const rawFrom = rawStatusesFrom(new Date(), retentionDays);
    const parameters = [
      query.start,
      query.end,
      rawFrom,
      query.deletedFrom ?? query.start,
      query.labels ? JSON.stringify(query.labels) : null,
      query.checkIds ?? null,
    ];
    // Building the rows as one json_agg in SQL halves the Node CPU (~100 → ~50 ms for 10,000
    // checks) but costs PostgreSQL as much again: not faster end to end in the bench, so rows.
    const { rows } = await pool.query<SummaryRow>(
      `${SUMMARY_MEASURED_SQL}
       SELECT c.id, c.name, c.description, c.endpoint, ca.name AS canary_name, c.type,
              coalesce(c.icon, ca.icon) AS icon, c.namespace, c.labels, c.agent_id, c.status,
              coalesce(m.passed, 0) AS passed,
              coalesce(m.failed, 0) AS failed,
              round(m.rolling1h)::integer AS rolling1h,
              round(m.p95)::integer AS p95,
              round(m.p97)::integer AS p97,
              round(m.p99)::integer AS p99,
              to_char(c.last_runtime AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS last_runtime,
              to_char(c.last_transition_time AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS last_transition_time,
              to_char(c.deleted_at AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS deleted_at
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       LEFT JOIN measured m ON m.check_id = c.id
       WHERE (c.deleted_at IS NULL OR c.deleted_at >= $4)
         AND ($5::jsonb IS NULL OR c.labels @> $5::jsonb)
         AND ($6::uuid[] IS NULL OR c.id = ANY($6))
       ORDER BY ca.name, c.name, c.id`,
      parameters,
    );
    return rows.map((row) => {
      const latency: CheckSummary['latency'] = {};
      if (row.rolling1h !== null) latency.rolling1h = row.rolling1h;
      if (row.p95 !== null) latency.p95 = row.p95;
      if (row.p97 !== null) latency.p97 = row.p97;
      if (row.p99 !== null) latency.p99 = row.p99;
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        endpoint: row.endpoint,
        canary_name: row.canary_name,
        type: row.type,
        icon: row.icon,
        namespace: row.namespace,
        labels: row.labels ?? {},
        agent_id: row.agent_id,
        status: row.status,
        uptime: { passed: row.passed, failed: row.failed },
        latency,
        last_runtime: row.last_runtime,
        last_transition_time: row.last_transition_time,
        deleted_at: row.deleted_at,
      };
    });
  };

  const checksWithStatuses: HealthService['checksWithStatuses'] = async (query) => {
    const checks = await summary(query);
    if (checks.length === 0) return [];
    const { rows } = await pool.query<{
      check_id: string;
      time: Date;
      duration: number | null;
      status: boolean;
      message: string | null;
      error: string | null;
    }>(
      `SELECT check_id, time, duration, status, message, error
       FROM check_statuses_between($2, $3)
       WHERE check_id = ANY($1::uuid[])
       ORDER BY check_id, time DESC`,
      [checks.map((check) => check.id), query.start, query.end],
    );
    const byCheck = new Map<string, StatusRecord[]>();
    for (const row of rows) {
      const record: StatusRecord = {
        time: row.time.toISOString(),
        duration: row.duration,
        status: row.status,
      };
      if (query.includeMessages) {
        record.message = row.message;
        record.error = row.error;
      }
      const list = byCheck.get(row.check_id) ?? [];
      list.push(record);
      byCheck.set(row.check_id, list);
    }
    return checks.map((check) => ({ ...check, checkStatuses: byCheck.get(check.id) ?? [] }));
  };

  /**
   * A check's runs in buckets over the range: raw statuses where they are kept, hourly rollups
   * before that (so buckets of an hour or more still cover old ranges). Latency percentiles and
   * uptime are the summary's for the same range.
   */
  const graph = async (query: GraphQuery): Promise<CheckGraph | undefined> => {
    if (!isUuid(query.checkId)) return undefined;
    const [check] = await summary({ start: query.start, end: query.end, checkIds: [query.checkId] });
    if (!check) return undefined;
    const bucketSeconds = graphBucketSeconds(query.end.getTime() - query.start.getTime());
    const rawFrom = rawStatusesFrom(new Date(), retentionDays);
    const { rows } = await pool.query<{
      bucket: Date;
      passed: number;
      failed: number;
      duration: number | null;
    }>(
      `WITH runs AS (
         SELECT time, 1 AS total, status::int AS passed, (NOT status)::int AS failed,
                duration::bigint AS duration_sum, (duration IS NOT NULL)::int AS timed
         FROM check_statuses_between(greatest($2::timestamptz, $5::timestamptz), $3::timestamptz)
         WHERE check_id = $1
         UNION ALL
         SELECT created_at, total, passed, failed, duration_sum, total
         FROM check_statuses_1h
         WHERE $4::int >= 3600 AND check_id = $1 AND created_at >= $2
           AND created_at < least($5::timestamptz, $3::timestamptz)
       )
       SELECT to_timestamp(floor(extract(epoch FROM time) / $4::int) * $4::int) AS bucket,
              sum(passed)::int AS passed, sum(failed)::int AS failed,
              round(sum(duration_sum)::numeric / nullif(sum(timed), 0))::int AS duration
       FROM runs
       GROUP BY 1
       ORDER BY 1 DESC
       LIMIT $6::int`,
      [query.checkId, query.start, query.end, bucketSeconds, rawFrom, query.count],
    );
    return {
      bucketSeconds,
      status: rows.reverse().map((row) => ({
        time: row.bucket.toISOString(),
        status: row.failed === 0,
        duration: row.duration,
        passed: row.passed,
        failed: row.failed,
      })),
      latency: check.latency,
      uptime: check.uptime,
    };
  };

  const runNow = async (checkId: string): Promise<RunNowResult> => {
    if (!isUuid(checkId)) throw new HealthRequestError(`check ${checkId} not found`, 404);
    const { rows } = await pool.query<{ canary_id: string; transformed: boolean; deleted_at: Date | null }>(
      'SELECT canary_id, transformed, deleted_at FROM checks WHERE id = $1',
      [checkId],
    );
    const check = rows[0];
    if (!check || check.deleted_at !== null) throw new HealthRequestError(`check ${checkId} not found`, 404);
    const canary = await loadCanary(pool, check.canary_id);
    if (!canary || canary.deleted_at !== null) {
      throw new HealthRequestError(`the canary of check ${checkId} was deleted`, 404);
    }
    const job = await options.jobs.startJob({
      name: CANARY_JOB_NAME,
      resourceType: CANARY_RESOURCE_TYPE,
      resourceId: canary.id,
      agentId: canary.agent_id,
    });
    let result: CanaryRunSummary;
    try {
      result = await runCanaryChecks(canary, {
        ...options,
        pool,
        nextRuntime: nextRuntimeOf(canaryScheduleOf(canary), canaryScheduleName(canary.id)),
        // A check made by a transform runs through the check whose transform produces it.
        filter: (synced) => check.transformed || synced.id === checkId,
      });
    } catch (error) {
      await job.failure(error);
      throw error;
    }
    if (result.success > 0) job.incrementSuccess(result.success);
    for (const error of result.errors) job.addError(error);
    await job.success();
    return { total: result.total, failed: result.failed, success: result.success, errors: result.errors };
  };

  return { summary, graph, checksWithStatuses, runNow };
}
