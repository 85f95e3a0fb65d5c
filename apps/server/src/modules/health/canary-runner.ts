import type { Pool } from '../../platform/db/pool.js';
import { errorMessage } from '../../platform/jobs/support.js';
import { parseSchedule } from '../../platform/jobs/index.js';
import type { CheckLogger, CheckRetries, CheckRun, RunCheckOptions } from './checks/index.js';
import { DEFAULT_CHECK_TIMEOUT_MS, isPushedCheckType, runCheck } from './checks/index.js';
import { recordCheckResult, recordDerivedResult } from './check-recorder.js';
import { syncCanaryChecks, type CanaryRow, type SyncedCheck } from './canary-sync.js';

/** A canary without schedule or interval runs this often. */
export const DEFAULT_CANARY_SCHEDULE = '@every 5m';
/** Checks of one canary running at once. */
export const DEFAULT_CHECK_CONCURRENCY = 10;

export interface CanaryRunnerOptions {
  pool: Pool;
  logger: CheckLogger;
  /** Checks of this canary run at once. Default DEFAULT_CHECK_CONCURRENCY. */
  concurrency?: number;
  /** Budget per check attempt in milliseconds. Default DEFAULT_CHECK_TIMEOUT_MS. */
  checkTimeoutMs?: number;
  /** Looks up named connections for checks that use one; without it they find none. */
  resolveConnection?: RunCheckOptions['resolveConnection'];
  resolveValueFrom?: RunCheckOptions['resolveValueFrom'];
}

export interface CanaryRunSummary {
  /** Results recorded (declared checks that ran plus checks their transforms produced). */
  total: number;
  success: number;
  failed: number;
  /** One line per failed result or result that could not be recorded. */
  errors: string[];
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The schedule a canary runs on: `spec.schedule`, else the deprecated `spec.interval` (seconds),
 * else the row's schedule column, else DEFAULT_CANARY_SCHEDULE; null when `spec.replicas` is 0
 * (paused).
 */
export function canaryScheduleOf(canary: Pick<CanaryRow, 'spec' | 'schedule'>): string | null {
  const spec = record(canary.spec);
  const replicas = typeof spec.replicas === 'string' ? Number(spec.replicas) : spec.replicas;
  if (replicas === 0) return null;
  if (typeof spec.schedule === 'string' && spec.schedule.trim() !== '') return spec.schedule.trim();
  const interval = typeof spec.interval === 'string' ? Number(spec.interval) : spec.interval;
  if (typeof interval === 'number' && Number.isFinite(interval) && interval > 0) {
    return `@every ${Math.max(1, Math.round(interval))}s`;
  }
  if (canary.schedule && canary.schedule.trim() !== '') return canary.schedule.trim();
  return DEFAULT_CANARY_SCHEDULE;
}

/** When a canary with this schedule next runs; null when paused or the schedule is invalid. */
export function nextRuntimeOf(schedule: string | null, key: string, now = new Date()): Date | null {
  if (!schedule) return null;
  try {
    return parseSchedule(schedule).nextAfter(now, key);
  } catch {
    return null;
  }
}

function failureText(name: string, result: { error: string; message: string }): string {
  const reason = result.error || result.message || 'failed';
  return `${name}: ${reason}`;
}

/** Runs `work` over `items` with at most `limit` in flight; stops taking items once aborted. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next];
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * Syncs a canary's checks rows from its spec, runs the selected checks (all by default) with a
 * concurrency limit and a per-attempt deadline, and records every result in its own
 * transaction. A hung target holds only its own lane, and only until its deadline.
 */
export async function runCanaryChecks(
  canary: CanaryRow,
  options: CanaryRunnerOptions & {
    signal?: AbortSignal;
    nextRuntime?: Date | null;
    /** Runs only the declared checks this accepts. */
    filter?: (check: SyncedCheck) => boolean;
  },
): Promise<CanaryRunSummary> {
  const summary: CanaryRunSummary = { total: 0, success: 0, failed: 0, errors: [] };
  const synced = await syncCanaryChecks(options.pool, canary);
  // Webhook checks get their results from pushes (POST /webhook/{id}), never from a run.
  const runnable = synced.filter((check) => !isPushedCheckType(check.entry.type));
  const selected = options.filter ? runnable.filter(options.filter) : runnable;
  const spec = record(canary.spec);
  const retries =
    spec.retries && typeof spec.retries === 'object' ? (spec.retries as CheckRetries) : undefined;
  const labels = record(canary.labels) as Record<string, string>;
  const recordOptions = { nextRuntime: options.nextRuntime ?? null };

  const count = (name: string, result: { pass: boolean; error: string; message: string }) => {
    summary.total += 1;
    if (result.pass) summary.success += 1;
    else {
      summary.failed += 1;
      summary.errors.push(failureText(name, result));
    }
  };

  await forEachLimited(
    selected,
    options.concurrency ?? DEFAULT_CHECK_CONCURRENCY,
    options.signal,
    async (check) => {
      let run: CheckRun;
      try {
        run = await runCheck(check.entry.type, check.entry.spec, {
          canary: { id: canary.id, name: canary.name, namespace: canary.namespace, labels, retries },
          logger: options.logger,
          resolveConnection: options.resolveConnection ?? (() => undefined),
          resolveValueFrom: options.resolveValueFrom,
          signal: options.signal,
          timeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
        });
      } catch (error) {
        // runCheck answers failures as results; this is a bug in it, kept out of other checks.
        summary.total += 1;
        summary.failed += 1;
        summary.errors.push(`${check.entry.name}: ${errorMessage(error)}`);
        return;
      }
      try {
        await recordCheckResult(options.pool, check.id, canary.id, run, recordOptions);
        count(check.entry.name, run.result);
      } catch (error) {
        summary.total += 1;
        summary.failed += 1;
        summary.errors.push(`${check.entry.name}: recording the result failed: ${errorMessage(error)}`);
      }
      for (const derived of run.derived) {
        try {
          const recorded = await recordDerivedResult(
            options.pool,
            canary,
            run.startedAt,
            derived,
            recordOptions,
          );
          if (recorded) count(derived.name, derived);
        } catch (error) {
          summary.total += 1;
          summary.failed += 1;
          summary.errors.push(`${derived.name}: recording the result failed: ${errorMessage(error)}`);
        }
      }
    },
  );
  return summary;
}
