import type { Pool } from '../../platform/db/pool.js';
import { errorMessage } from '../../platform/jobs/support.js';
import { SEALED_PREFIX } from '../../platform/secret-fields.js';
import { parseSchedule } from '../../platform/jobs/index.js';
import { canaryScheduleFromSpec } from './canary-kind.js';
import type {
  CheckLogger,
  CheckMetric,
  CheckResult,
  CheckRetries,
  CheckRun,
  RunCheckOptions,
} from './checks/index.js';
import { readLastResult } from './check-lookup.js';
import { DEFAULT_CHECK_TIMEOUT_MS, isPushedCheckType, runCheck } from './checks/index.js';
import { recordCheckResult, recordDerivedResult } from './check-recorder.js';
import { evaluateCheckMetrics, type CheckIdentity, type CheckMetrics } from './check-metrics.js';
import { syncCanaryChecks, type CanaryRow, type SyncedCheck } from './canary-sync.js';
import { planCanaryRun, type PlannedCheck } from './check-dependencies.js';
import { asRecord, stringMap, textOrNull } from './spec-values.js';

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
  /** Where check results and the checks' own `metrics` are exported (the /metrics registry). */
  metrics?: CheckMetrics;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

export interface CanaryRunSummary {
  /** Results recorded (declared checks that ran plus checks their transforms produced). */
  total: number;
  success: number;
  failed: number;
  /** One line per failed result or result that could not be recorded. */
  errors: string[];
}

/**
 * The schedule a canary runs on: `spec.schedule`, else the deprecated `spec.interval` (seconds),
 * else the row's schedule column, else DEFAULT_CANARY_SCHEDULE; null when `spec.replicas` is 0
 * (paused).
 */
export function canaryScheduleOf(canary: Pick<CanaryRow, 'spec' | 'schedule'>): string | null {
  const spec = asRecord(canary.spec);
  const replicas = typeof spec.replicas === 'string' ? Number(spec.replicas) : spec.replicas;
  if (replicas === 0) return null;
  const fromSpec = canaryScheduleFromSpec(spec);
  if (fromSpec) return fromSpec;
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

/** What a tick needs to know of a check's stored spec, read once per synced spec (not per tick). */
interface SpecFacts {
  /** The spec holds sealed strings: it is opened for each run. */
  sealed: boolean;
  /** The spec templates with the previous result: it is read for each run. */
  usesLastResult: boolean;
}

const specFacts = new WeakMap<SyncedCheck, SpecFacts>();

function factsOf(check: SyncedCheck): SpecFacts {
  let facts = specFacts.get(check);
  if (!facts) {
    const text = JSON.stringify(check.entry.spec) ?? '';
    facts = { sealed: text.includes(SEALED_PREFIX), usesLastResult: text.includes('last_result') };
    specFacts.set(check, facts);
  }
  return facts;
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

function withErrors(result: CheckResult, errors: string[]): CheckResult {
  if (errors.length === 0) return result;
  const added = errors.join(', ');
  return { ...result, pass: false, error: result.error ? `${result.error}, ${added}` : added };
}

/** A result for a check that did not run: its spec's dependsOn is wrong, or a dependency failed. */
function notRun(error: string, message = ''): CheckResult {
  return { pass: false, duration: 0, message, error, data: {} };
}

/** What a check's expressions see of a check it depends on (`dependsOn.<name>`). */
function dependencyView(result: CheckResult): Record<string, unknown> {
  return {
    ...result.data,
    pass: result.pass,
    message: result.message,
    error: result.error,
    duration: result.duration,
  };
}

/**
 * Syncs a canary's checks rows from its spec, runs the selected checks (all by default) with a
 * concurrency limit and a per-attempt deadline, and records every result in its own
 * transaction. A hung target holds only its own lane, and only until its deadline.
 *
 * A check whose spec has `dependsOn: [names]` runs after those checks of the same canary (they
 * run too when only it was selected) and sees their results as `dependsOn.<name>` in its
 * expressions; when one of them failed it does not run and is recorded failing with
 * 'skipped: dependency "<name>" failed'. An unknown name or a cycle is an invalid check.
 * The checks' `metrics` are evaluated after each run and exported with the results.
 */
export async function runCanaryChecks(
  canary: CanaryRow,
  options: CanaryRunnerOptions & {
    signal?: AbortSignal;
    nextRuntime?: Date | null;
    /** Runs only the declared checks this accepts (and the checks they depend on). */
    filter?: (check: SyncedCheck) => boolean;
    /** The canary's checks rows, already synced from this very row; synced here without it. */
    synced?: SyncedCheck[];
  },
): Promise<CanaryRunSummary> {
  const summary: CanaryRunSummary = { total: 0, success: 0, failed: 0, errors: [] };
  const synced = options.synced ?? (await syncCanaryChecks(options.pool, canary));
  // Webhook checks get their results from pushes (POST /webhook/{id}), never from a run.
  const runnable = synced.filter((check) => !isPushedCheckType(check.entry.type));
  const plan = planCanaryRun(runnable, options.filter);
  const spec = asRecord(canary.spec);
  const retries =
    spec.retries && typeof spec.retries === 'object' ? (spec.retries as CheckRetries) : undefined;
  const labels = asRecord(canary.labels) as Record<string, string>;
  const recordOptions = { nextRuntime: options.nextRuntime ?? null };
  const canaryVariables = { id: canary.id, name: canary.name, namespace: canary.namespace, labels };

  const count = (name: string, result: { pass: boolean; error: string; message: string }) => {
    summary.total += 1;
    if (result.pass) summary.success += 1;
    else {
      summary.failed += 1;
      summary.errors.push(failureText(name, result));
    }
  };

  // Each check's final result, settled once it is recorded (or could not run).
  const settled = new Map<
    string,
    { promise: Promise<CheckResult>; resolve: (result: CheckResult) => void }
  >();
  for (const planned of plan) {
    let resolve: (result: CheckResult) => void = () => undefined;
    const promise = new Promise<CheckResult>((done) => {
      resolve = done;
    });
    settled.set(planned.check.id, { promise, resolve });
  }

  /** Evaluates the spec's metrics and exports them with the check's reported ones. */
  const applyMetrics = (
    result: CheckResult,
    specMetrics: unknown,
    variables: Record<string, unknown>,
    reported: readonly CheckMetric[] | undefined,
  ): CheckResult => {
    const evaluated = evaluateCheckMetrics(specMetrics, variables);
    const exportErrors = options.metrics?.exportMetrics([...(reported ?? []), ...evaluated.metrics]) ?? [];
    return withErrors(result, [...evaluated.errors, ...exportErrors]);
  };

  const identityOf = (check: SyncedCheck): CheckIdentity => {
    const entrySpec = asRecord(check.entry.spec);
    return {
      checkId: check.id,
      name: check.entry.name,
      type: check.entry.type,
      canaryName: canary.name,
      canaryNamespace: textOrNull(entrySpec.namespace) ?? canary.namespace,
      owner: textOrNull(spec.owner),
      severity: textOrNull(entrySpec.severity) ?? textOrNull(spec.severity),
      labels: { ...stringMap(canary.labels), ...stringMap(entrySpec.labels) },
    };
  };

  const recordOwn = async (
    identity: CheckIdentity,
    startedAt: string,
    result: CheckResult,
  ): Promise<void> => {
    try {
      await recordCheckResult(
        options.pool,
        identity.checkId,
        canary.id,
        { startedAt, result },
        recordOptions,
      );
      count(identity.name, result);
      options.metrics?.observeResult(identity, result);
    } catch (error) {
      summary.total += 1;
      summary.failed += 1;
      summary.errors.push(`${identity.name}: recording the result failed: ${errorMessage(error)}`);
    }
  };

  const recordDerived = async (identity: CheckIdentity, run: CheckRun): Promise<void> => {
    for (const derived of run.derived) {
      try {
        const exportErrors = options.metrics?.exportMetrics(derived.metrics ?? []) ?? [];
        const result = { ...derived, ...withErrors(derived, exportErrors) };
        const recorded = await recordDerivedResult(
          options.pool,
          canary,
          run.startedAt,
          result,
          recordOptions,
        );
        if (!recorded) continue;
        count(derived.name, result);
        options.metrics?.observeResult(
          {
            ...identity,
            checkId: recorded.checkId,
            name: derived.name,
            type: derived.type,
            canaryNamespace: derived.namespace ?? identity.canaryNamespace,
            labels: derived.labels ?? {},
          },
          result,
        );
      } catch (error) {
        summary.total += 1;
        summary.failed += 1;
        summary.errors.push(`${derived.name}: recording the result failed: ${errorMessage(error)}`);
      }
    }
  };

  /** Runs one planned check (or decides it cannot run); the result is not recorded yet. */
  const execute = async (planned: PlannedCheck): Promise<{ result: CheckResult; run?: CheckRun }> => {
    const { check } = planned;
    if (planned.problem) return { result: notRun(planned.problem) };
    const dependencies: Record<string, unknown> = {};
    for (const dependency of planned.dependsOn) {
      const result = await settled.get(dependency.id)!.promise;
      if (!result.pass) {
        const name = dependency.entry.name;
        return { result: notRun(`skipped: dependency "${name}" failed`, `not run because "${name}" failed`) };
      }
      dependencies[dependency.entry.name] = dependencyView(result);
    }
    // Earlier checks' results, as `outputs.<name>` (the ecosystem's name) and `dependsOn.<name>`,
    // in expressions and in the check's `metrics` alike.
    const variables =
      planned.dependsOn.length > 0 ? { dependsOn: dependencies, outputs: dependencies } : undefined;
    const facts = factsOf(check);
    // A spec without sealed strings is run as stored: the same object every tick, so its parse
    // is reused (run-check.ts).
    const checkSpec =
      options.openSecrets && facts.sealed ? options.openSecrets(check.entry.spec) : check.entry.spec;
    const run = await runCheck(check.entry.type, checkSpec as typeof check.entry.spec, {
      canary: { ...canaryVariables, retries },
      logger: options.logger,
      resolveConnection: options.resolveConnection ?? (() => undefined),
      resolveValueFrom: options.resolveValueFrom,
      signal: options.signal,
      timeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      variables,
      // Only specs that template with the previous result pay for reading it.
      lastResult: facts.usesLastResult ? await readLastResult(options.pool, check.id) : undefined,
    });
    if (run.result.invalid) return { result: run.result, run };
    const entrySpec = asRecord(check.entry.spec);
    const result = applyMetrics(
      run.result,
      entrySpec.metrics,
      {
        ...variables,
        ...run.result.data,
        check: {
          name: check.entry.name,
          description: textOrNull(entrySpec.description) ?? '',
          labels: stringMap(entrySpec.labels),
          endpoint: run.endpoint,
          type: run.type,
        },
        canary: canaryVariables,
      },
      run.result.metrics,
    );
    return { result, run };
  };

  await forEachLimited(
    plan,
    options.concurrency ?? DEFAULT_CHECK_CONCURRENCY,
    options.signal,
    async (planned) => {
      const identity = identityOf(planned.check);
      let outcome: { result: CheckResult; run?: CheckRun };
      try {
        outcome = await execute(planned);
      } catch (error) {
        // runCheck answers failures as results; this is a bug in it, kept out of other checks.
        const result = notRun(errorMessage(error));
        settled.get(planned.check.id)!.resolve(result);
        summary.total += 1;
        summary.failed += 1;
        summary.errors.push(`${identity.name}: ${errorMessage(error)}`);
        return;
      }
      // Dependents go on as soon as the result is known; recording happens alongside.
      settled.get(planned.check.id)!.resolve(outcome.result);
      await recordOwn(identity, outcome.run?.startedAt ?? new Date().toISOString(), outcome.result);
      if (outcome.run) await recordDerived(identity, outcome.run);
    },
  );
  return summary;
}
