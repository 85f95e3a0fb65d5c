import type {
  CheckGraphPoint,
  CheckGraphResponse,
  CheckStatusRecord,
  RunCheckResponse,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { readTimeParameter } from '../../platform/time/index.js';
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
import { createSummaryReader, type CheckSummary, type SummaryQuery } from './summary-reader.js';
import { HttpError } from '../../platform/http/errors.js';

export type { CheckSummary, SummaryQuery } from './summary-reader.js';

/**
 * Reads a time parameter in the one time grammar (`platform/time`): `now`, `now-1h`, `now-1mo`,
 * a duration before now (`1h`, `7d`, `1mo`), an ISO 8601 time or epoch milliseconds. Undefined or
 * empty gives `fallback`; anything else that is not a time is a 400 naming `field`.
 */
export function parseTimeParameter(value: unknown, fallback: Date, field: string, now = new Date()): Date {
  return readTimeParameter(value, field, (message) => new HttpError(400, message, field), now) ?? fallback;
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

/** The first UTC day whose raw statuses are all still kept; older days are read from rollups. */
export function rawStatusesFrom(now: Date, retentionDays: number): Date {
  const oldest = new Date(now.getTime() - retentionDays * 86_400_000);
  return new Date(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth(), oldest.getUTCDate() + 1));
}

export interface HealthServiceOptions extends Omit<CanaryRunnerOptions, 'pool'> {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  /** Default CHECK_STATUS_RETENTION_DAYS or 30. */
  retentionDays?: number;
  /** The summary keeps the recent tier per process up to this many statuses (default 4,000,000). */
  summaryRecentRows?: number;
}

/** Run Now's answer, as `POST /api/canary/run/check/{id}` sends it. */
export type RunNowResult = RunCheckResponse;

/** A run in `GET /api/canary/api`; message and error only when asked for. */
export type StatusRecord = CheckStatusRecord;

export interface GraphQuery {
  checkId: string;
  start: Date;
  end: Date;
  /** At most this many buckets, the latest ones (default 300, spec core §9). */
  count: number;
}

export type GraphPoint = CheckGraphPoint;

/** The body of `GET /api/canary/api/graph`. */
export type CheckGraph = CheckGraphResponse;

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
  /** The summary as the JSON text of its array in UTF-8, as /api/canary/api/summary sends it. */
  summaryJson(query: SummaryQuery): Promise<Buffer>;
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
  const reader = createSummaryReader(pool, { maxRecentRows: options.summaryRecentRows });
  const summary = (query: SummaryQuery): Promise<CheckSummary[]> =>
    reader.read(query, rawStatusesFrom(new Date(), retentionDays));
  const summaryJson = (query: SummaryQuery): Promise<Buffer> =>
    reader.readJson(query, rawStatusesFrom(new Date(), retentionDays));

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
    if (!isUuid(checkId)) throw new HttpError(404, `check ${checkId} not found`);
    const { rows } = await pool.query<{ canary_id: string; transformed: boolean; deleted_at: Date | null }>(
      'SELECT canary_id, transformed, deleted_at FROM checks WHERE id = $1',
      [checkId],
    );
    const check = rows[0];
    if (!check || check.deleted_at !== null) throw new HttpError(404, `check ${checkId} not found`);
    const canary = await loadCanary(pool, check.canary_id);
    if (!canary || canary.deleted_at !== null) {
      throw new HttpError(404, `the canary of check ${checkId} was deleted`);
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

  return { summary, summaryJson, graph, checksWithStatuses, runNow };
}
