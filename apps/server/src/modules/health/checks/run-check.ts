/**
 * Running one check: its spec parsed, retries (retries.ts), each attempt under a deadline
 * (deadline.ts) followed by its expressions (result-expressions.ts).
 */
import type { JsonValue } from '../../../expressions/index.js';
import { errorText, failing, invalidResult, passing } from './check-result.js';
import { runWithDeadline } from './deadline.js';
import { renderCheckFields } from './field-templates.js';
import { findCheckType, unsupportedCheckMessage } from './registry.js';
import {
  applyTemplates,
  expressionVariables,
  transformResult,
  type AttemptOutcome,
} from './result-expressions.js';
import { canRetry, retryPolicy, sleep, type RetryPolicy } from './retries.js';
import {
  DEFAULT_CHECK_TIMEOUT_MS,
  type CheckRun,
  type DerivedCheckResult,
  type RunCheckOptions,
} from './run-types.js';
import { CheckSpecError, type CheckResult, type CheckSpecBase, type CheckType } from './types.js';

export type { CheckRun, DerivedCheckResult, RunCheckOptions } from './run-types.js';

async function runAttempt(
  checkType: CheckType,
  spec: CheckSpecBase,
  endpoint: string,
  options: RunCheckOptions,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  let result = await runWithDeadline(checkType, spec, options, timeoutMs);
  if (result.invalid) return { result, derived: [] };
  if (spec.markFailOnEmpty && result.empty && result.pass)
    result = failing(result, 'check returned an empty result');
  const variables = expressionVariables(result, spec, checkType, endpoint, options.canary, options.variables);
  const transformed = await transformResult(result, spec, checkType, endpoint, variables, options);
  for (const child of result.children ?? []) {
    transformed.derived.push({
      ...child,
      data: {},
      type: checkType.type,
      endpoint,
      namespace: options.canary.namespace,
    });
  }
  if (transformed.result.invalid) return transformed;
  const finalVariables =
    transformed.result === result
      ? variables
      : expressionVariables(transformed.result, spec, checkType, endpoint, options.canary, options.variables);
  return {
    result: await applyTemplates(transformed.result, spec, finalVariables, options),
    derived: transformed.derived,
  };
}

function shouldRetry(outcome: AttemptOutcome): boolean {
  const all = [outcome.result, ...outcome.derived];
  if (all.some((result) => result.invalid)) return false;
  return all.some((result) => !result.pass);
}

function rawName(spec: unknown): string {
  if (spec && typeof spec === 'object' && 'name' in spec) {
    const name = (spec as { name?: unknown }).name;
    if (typeof name === 'string' || typeof name === 'number') return String(name);
  }
  return '';
}

/**
 * Runs one check: validates the spec, applies retries and a hard per-attempt deadline, then the
 * spec's `transform`, `display` and `test` and `markFailOnEmpty`. It never throws for anything a
 * spec or a target can do; failures and bad specs come back as results.
 */
export async function runCheck(type: string, spec: unknown, options: RunCheckOptions): Promise<CheckRun> {
  const checkType = findCheckType(type);
  if (!checkType) {
    return {
      startedAt: new Date().toISOString(),
      type,
      name: rawName(spec),
      endpoint: '',
      result: invalidResult(unsupportedCheckMessage(type), { message: unsupportedCheckMessage(type) }),
      derived: [],
      attempts: 0,
    };
  }
  return runCheckOfType(checkType, spec, options);
}

/**
 * Parses of stored specs by check type, kept while the spec object lives: a canary's unchanged
 * spec is the same object tick after tick (canary-scheduler.ts keeps its synced checks), and its
 * zod parse was 1 % of the engine's CPU (issue 22). Templated specs are parsed per run.
 */
const parsedSpecs = new WeakMap<CheckType, WeakMap<object, CheckSpecBase>>();

function parseOnce(checkType: CheckType, spec: unknown): CheckSpecBase {
  if (spec === null || typeof spec !== 'object') return checkType.parse(spec);
  let byType = parsedSpecs.get(checkType);
  if (!byType) {
    byType = new WeakMap();
    parsedSpecs.set(checkType, byType);
  }
  let parsed = byType.get(spec);
  if (!parsed) {
    parsed = checkType.parse(spec);
    byType.set(spec, parsed);
  }
  return parsed;
}

/** runCheck for a given check type implementation (also how a type is exercised in isolation). */
export async function runCheckOfType(
  checkType: CheckType,
  spec: unknown,
  options: RunCheckOptions,
): Promise<CheckRun> {
  const startedAt = new Date().toISOString();
  let parsed: CheckSpecBase;
  let policy: RetryPolicy;
  try {
    const rendered = await renderCheckFields(
      spec,
      { canary: options.canary, resolveValueFrom: options.resolveValueFrom },
      options.lastResult,
      checkType.selfTemplatedFields,
    );
    parsed = rendered === spec ? parseOnce(checkType, spec) : checkType.parse(rendered);
    policy = retryPolicy(options.canary.retries, parsed.retries);
  } catch (error) {
    const reason =
      error instanceof CheckSpecError
        ? error.message
        : `invalid ${checkType.type} check: ${errorText(error)}`;
    return {
      startedAt,
      type: checkType.type,
      name: rawName(spec),
      endpoint: '',
      result: invalidResult(reason),
      derived: [],
      attempts: 0,
    };
  }
  let endpoint = '';
  try {
    endpoint = checkType.endpoint(parsed);
  } catch {
    endpoint = '';
  }
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS);
  const signal = options.signal ?? new AbortController().signal;
  const run = (result: CheckResult, derived: DerivedCheckResult[], attempts: number): CheckRun => ({
    startedAt,
    type: checkType.type,
    name: parsed.name,
    endpoint,
    result,
    derived,
    attempts,
  });

  if (policy.configured && !policy.disabled && policy.delay > 0 && !(await sleep(policy.delay, signal))) {
    return run(failing(passing(), 'check was cancelled'), [], 0);
  }
  const firstAttemptAt = Date.now();
  let attempts = 0;
  let outcome: AttemptOutcome;
  for (;;) {
    attempts += 1;
    if (attempts > 1) options.logger.debug({ check: parsed.name, attempt: attempts }, 'retrying check');
    outcome = await runAttempt(checkType, parsed, endpoint, options, timeoutMs);
    if (!shouldRetry(outcome) || signal.aborted || !canRetry(policy, attempts, firstAttemptAt)) break;
    const remaining = policy.timeout > 0 ? policy.timeout - (Date.now() - firstAttemptAt) : policy.interval;
    if (!(await sleep(Math.min(policy.interval, Math.max(remaining, 0)), signal))) break;
  }
  if (policy.configured || attempts > 1) {
    const elapsed = Date.now() - firstAttemptAt;
    const retries: Record<string, JsonValue> = {
      attempts,
      retries: attempts - 1,
      elapsedMillis: elapsed,
      retryConfigured: policy.configured,
    };
    if (policy.maxRetries !== undefined) retries.maxRetries = policy.maxRetries;
    if (policy.disabled) retries.disabled = true;
    outcome.result = { ...outcome.result, data: { ...outcome.result.data, retries } };
  }
  return run(outcome.result, outcome.derived, attempts);
}
