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

export function createHealthService(options: HealthServiceOptions): HealthService {
  const { pool } = options;
  const retentionDays = options.retentionDays ?? checkStatusRetentionDays();

  /**
   * Uptime counts are exact over the range: statuses of the recent tier are counted one by one,
   * packed blocks (one per check per UTC day) by their totals when the range covers them whole
   * and by their running totals (width_bucket over the block's times, two subscripts) when an
   * edge of the range falls inside one. Before the raw retention, daily rollups are counted.
   * rolling1h (mean duration of the range's last hour) is exact the same way.
   *
   * Percentiles are exact over recent statuses; a block contributes its own day's percentiles,
   * weighted by how many of its statuses fall in the range; the two parts are combined weighted
   * by count. A range wholly before the raw retention uses the daily rollups' percentiles
   * weighted by their counts.
   */
  const summary = async (query: SummaryQuery): Promise<CheckSummary[]> => {
    const rawFrom = rawStatusesFrom(new Date(), retentionDays);
    const { rows } = await pool.query<SummaryRow>(
      `WITH raw_sorted AS (
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
       raw AS (
         SELECT check_id, passed, failed, recent_sum, recent_timed,
                coalesce(cardinality(sorted), 0) AS timed,
                percentile_of_sorted(sorted, 0.95) AS p95,
                percentile_of_sorted(sorted, 0.97) AS p97,
                percentile_of_sorted(sorted, 0.99) AS p99
         FROM raw_sorted
       ),
       edges AS (
         -- lo, hi: how many of the block's statuses are before the range and up to its end;
         -- r: up to the start of the range's last hour (rolling1h).
         SELECT b.check_id, b.total, b.passed, b.timed, b.duration_p95, b.duration_p97, b.duration_p99,
                b.passed_sums, b.duration_sums, b.durations, e.lo, e.hi, greatest(e.lo, e.lo1h) AS r
         FROM check_status_blocks b
         CROSS JOIN LATERAL (
           SELECT CASE WHEN b.first_time >= greatest($1::timestamptz, $3::timestamptz) THEN 0
                       ELSE width_bucket(greatest($1::timestamptz, $3::timestamptz) - interval '1 microsecond', b.times)
                  END AS lo,
                  CASE WHEN b.last_time <= $2::timestamptz THEN b.total
                       ELSE width_bucket($2::timestamptz, b.times) END AS hi,
                  CASE WHEN b.first_time > $2::timestamptz - interval '1 hour' THEN 0
                       WHEN b.last_time <= $2::timestamptz - interval '1 hour' THEN b.total
                       ELSE width_bucket($2::timestamptz - interval '1 hour', b.times)
                  END AS lo1h
           OFFSET 0
         ) e
         WHERE b.day >= date_trunc('day', greatest($1::timestamptz, $3::timestamptz) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
           AND b.day <= $2::timestamptz
           AND b.last_time >= greatest($1::timestamptz, $3::timestamptz) AND b.first_time <= $2::timestamptz
           AND ($6::uuid[] IS NULL OR b.check_id = ANY($6))
       ),
       parts AS MATERIALIZED (
         -- Narrow rows (no arrays) for the aggregate below.
         SELECT check_id, duration_p95, duration_p97, duration_p99,
                (hi - lo)::double precision AS n,
                CASE WHEN lo = 0 AND hi = total THEN passed
                     ELSE coalesce(passed_sums[hi], 0) - coalesce(passed_sums[lo], 0) END AS passed,
                CASE WHEN r >= hi THEN 0
                     ELSE coalesce(duration_sums[hi], 0) - coalesce(duration_sums[r], 0) END AS recent_sum,
                CASE WHEN r >= hi THEN 0
                     WHEN timed = total THEN hi - r
                     ELSE (SELECT count(d) FROM unnest(durations[r + 1:hi]) AS d)::integer END AS recent_timed
         FROM edges
         WHERE hi > lo
       ),
       packed AS (
         SELECT check_id,
                sum(passed)::integer AS passed,
                (sum(n) - sum(passed))::integer AS failed,
                sum(n) FILTER (WHERE duration_p95 IS NOT NULL) AS timed,
                sum(duration_p95 * n) FILTER (WHERE duration_p95 IS NOT NULL) AS p95_weighted,
                sum(duration_p97 * n) FILTER (WHERE duration_p97 IS NOT NULL) AS p97_weighted,
                sum(duration_p99 * n) FILTER (WHERE duration_p99 IS NOT NULL) AS p99_weighted,
                sum(recent_sum::double precision) AS recent_sum,
                sum(recent_timed)::integer AS recent_timed
         FROM parts
         GROUP BY check_id
       ),
       rolled AS (
         SELECT check_id,
                sum(passed)::integer AS passed,
                sum(failed)::integer AS failed,
                sum(duration_p95::double precision * total) / nullif(sum(total), 0) AS p95,
                sum(duration_p97::double precision * total) / nullif(sum(total), 0) AS p97,
                sum(duration_p99::double precision * total) / nullif(sum(total), 0) AS p99
         FROM check_statuses_1d
         WHERE $1::timestamptz < $3::timestamptz
           AND created_at >= date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
           AND created_at < least($3::timestamptz, $2::timestamptz)
           AND ($6::uuid[] IS NULL OR check_id = ANY($6))
         GROUP BY check_id
       ),
       measured AS (
         SELECT coalesce(raw.check_id, packed.check_id) AS check_id,
                coalesce(raw.passed, 0) + coalesce(packed.passed, 0) AS passed,
                coalesce(raw.failed, 0) + coalesce(packed.failed, 0) AS failed,
                CASE WHEN coalesce(packed.timed, 0) = 0 THEN raw.p95
                     ELSE (coalesce(raw.p95 * raw.timed, 0) + packed.p95_weighted)
                          / (coalesce(raw.timed, 0) + packed.timed) END AS p95,
                CASE WHEN coalesce(packed.timed, 0) = 0 THEN raw.p97
                     ELSE (coalesce(raw.p97 * raw.timed, 0) + packed.p97_weighted)
                          / (coalesce(raw.timed, 0) + packed.timed) END AS p97,
                CASE WHEN coalesce(packed.timed, 0) = 0 THEN raw.p99
                     ELSE (coalesce(raw.p99 * raw.timed, 0) + packed.p99_weighted)
                          / (coalesce(raw.timed, 0) + packed.timed) END AS p99,
                (coalesce(raw.recent_sum, 0) + coalesce(packed.recent_sum, 0)::bigint)::numeric
                  / nullif(coalesce(raw.recent_timed, 0) + coalesce(packed.recent_timed, 0), 0) AS rolling1h
         FROM raw FULL JOIN packed ON packed.check_id = raw.check_id
       )
       SELECT c.id, c.name, c.description, c.endpoint, ca.name AS canary_name, c.type,
              coalesce(c.icon, ca.icon) AS icon, c.namespace, c.labels, c.agent_id, c.status,
              coalesce(m.passed, 0) + coalesce(rolled.passed, 0) AS passed,
              coalesce(m.failed, 0) + coalesce(rolled.failed, 0) AS failed,
              round(m.rolling1h)::integer AS rolling1h,
              round(coalesce(m.p95, rolled.p95))::integer AS p95,
              round(coalesce(m.p97, rolled.p97))::integer AS p97,
              round(coalesce(m.p99, rolled.p99))::integer AS p99,
              to_char(c.last_runtime AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS last_runtime,
              to_char(c.last_transition_time AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS last_transition_time,
              to_char(c.deleted_at AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS deleted_at
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       LEFT JOIN measured m ON m.check_id = c.id
       LEFT JOIN rolled ON rolled.check_id = c.id
       WHERE (c.deleted_at IS NULL OR c.deleted_at >= $4)
         AND ($5::jsonb IS NULL OR c.labels @> $5::jsonb)
         AND ($6::uuid[] IS NULL OR c.id = ANY($6))
       ORDER BY ca.name, c.name, c.id`,
      [
        query.start,
        query.end,
        rawFrom,
        query.deletedFrom ?? query.start,
        query.labels ? JSON.stringify(query.labels) : null,
        query.checkIds ?? null,
      ],
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
