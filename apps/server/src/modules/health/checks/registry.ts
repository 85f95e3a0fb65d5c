import { z } from 'zod';
import {
  evaluate,
  isEmptyExpression,
  parseTestOutcome,
  stringifyResult,
  toJsonValue,
  type EvaluateOptions,
  type Expression,
  type JsonValue,
} from '../../../expressions/index.js';
import { alertmanagerCheck } from './alertmanager.js';
import { errorText, failing, invalidResult, passing } from './check-result.js';
import { dnsCheck } from './dns.js';
import { execCheck } from './exec.js';
import { folderCheck } from './folder.js';
import { sftpCheck } from './sftp.js';
import { httpCheck } from './http.js';
import { icmpCheck } from './icmp.js';
import { ldapCheck } from './ldap.js';
import { mysqlCheck } from './mysql.js';
import { postgresCheck } from './postgres.js';
import { prometheusCheck } from './prometheus.js';
import { redisCheck } from './redis.js';
import { parseDuration } from './spec-fields.js';
import { tcpCheck } from './tcp.js';
import {
  CheckSpecError,
  type CanaryMetadata,
  type CheckContext,
  type CheckResult,
  type CheckRetries,
  type CheckSpecBase,
  type CheckType,
} from './types.js';
import { webhookCheck } from './webhook.js';

/** Every check type that runs. Adding a type is one new file and one line here. */
export const CHECK_TYPES: readonly CheckType[] = [
  httpCheck,
  tcpCheck,
  dnsCheck,
  icmpCheck,
  execCheck,
  postgresCheck,
  mysqlCheck,
  redisCheck,
  folderCheck,
  sftpCheck,
  prometheusCheck,
  alertmanagerCheck,
  ldapCheck,
  webhookCheck,
];

/** The types that run, by their type name. */
export const SUPPORTED_CHECK_TYPES: readonly string[] = CHECK_TYPES.map((checkType) => checkType.type);

/**
 * Canary spec keys of the ecosystem's other check types. Specs using them are stored and shown,
 * and their checks report CHECK_TYPE_NOT_SUPPORTED_MESSAGE.
 */
export const UNSUPPORTED_CHECK_TYPES: readonly string[] = [
  'awsConfig',
  'awsConfigRule',
  'azureDevops',
  'catalog',
  'cloudwatch',
  'containerd',
  'containerdPush',
  'databaseBackup',
  'docker',
  'dockerPush',
  'dynatrace',
  'elasticsearch',
  'gcsBucket',
  'github',
  'gitProtocol',
  'helm',
  'jmeter',
  'junit',
  'kubernetes',
  'kubernetesResource',
  'mongodb',
  'mssql',
  'namespace',
  'opensearch',
  'pod',
  'pubsub',
  'restic',
  's3',
  'smb',
];

/** Keys of a canary spec that configure the canary rather than list checks. */
export const CANARY_SETTING_KEYS: readonly string[] = [
  'env',
  'icon',
  'interval',
  'owner',
  'replicas',
  'resultMode',
  'retries',
  'schedule',
  'severity',
];

export const CHECK_TYPE_NOT_SUPPORTED_MESSAGE = 'check type not supported yet';

/** Budget for one attempt of a check when the caller gives none. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

/** Types whose results are pushed (webhook): scheduled runs and Run Now leave them out. */
export function isPushedCheckType(typeOrSpecKey: string): boolean {
  return findCheckType(typeOrSpecKey)?.pushed === true;
}

/** The check type for a type name or canary spec key ('http', 'postgres', ...). */
export function findCheckType(typeOrSpecKey: string): CheckType | undefined {
  return CHECK_TYPES.find(
    (checkType) => checkType.type === typeOrSpecKey || checkType.specKey === typeOrSpecKey,
  );
}

export interface CanaryCheckEntry {
  /** The key under the canary's spec, e.g. 'http'. */
  specKey: string;
  /** The check type name ('http'), or the spec key for types that do not run. */
  type: string;
  /** Position within the spec key's list. */
  index: number;
  name: string;
  supported: boolean;
  spec: unknown;
}

function entryName(raw: unknown, specKey: string, index: number): string {
  if (raw && typeof raw === 'object' && 'name' in raw) {
    const name = (raw as { name?: unknown }).name;
    if (typeof name === 'string' && name.trim() !== '') return name;
    if (typeof name === 'number') return String(name);
  }
  return `${specKey}-${index + 1}`;
}

/**
 * The checks a canary spec declares, in spec order: supported types, the ecosystem's other types
 * and any unknown list-of-objects key (both marked unsupported). Canary settings are skipped.
 */
export function listCanaryChecks(canarySpec: unknown): CanaryCheckEntry[] {
  if (!canarySpec || typeof canarySpec !== 'object' || Array.isArray(canarySpec)) return [];
  const entries: CanaryCheckEntry[] = [];
  for (const [specKey, value] of Object.entries(canarySpec as Record<string, unknown>)) {
    if (CANARY_SETTING_KEYS.includes(specKey)) continue;
    const items = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
    const checkType = findCheckType(specKey);
    const known = checkType !== undefined || UNSUPPORTED_CHECK_TYPES.includes(specKey);
    if (!known && !items.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item)))
      continue;
    items.forEach((raw: unknown, index) => {
      entries.push({
        specKey,
        type: checkType?.type ?? specKey,
        index,
        name: entryName(raw, specKey, index),
        supported: checkType !== undefined,
        spec: raw,
      });
    });
  }
  return entries;
}

/** What runCheck needs from its caller. */
export interface RunCheckOptions {
  canary: CanaryMetadata;
  logger: CheckContext['logger'];
  resolveConnection: CheckContext['resolveConnection'];
  resolveValueFrom?: CheckContext['resolveValueFrom'];
  /** Aborting it stops the check (and its retries) at once. */
  signal?: AbortSignal;
  /** Budget per attempt, in milliseconds. Default DEFAULT_CHECK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Limits for the check's expressions (JavaScript time and memory, template size). */
  expressions?: EvaluateOptions;
  /** More variables for the check's expressions (`dependsOn`: the results of earlier checks). */
  variables?: Record<string, unknown>;
}

/** A check produced by a `transform` that names new checks (fan-out). */
export interface DerivedCheckResult extends CheckResult {
  name: string;
  id?: string;
  description?: string;
  icon?: string;
  type: string;
  endpoint: string;
  namespace?: string;
  labels?: Record<string, string>;
  deletedAt?: string;
  transformDeleteStrategy?: string;
  displayType?: string;
}

export interface CheckRun {
  /** The check type that ran ('http'), or the requested type when it is not supported. */
  type: string;
  name: string;
  endpoint: string;
  /** The check's own result, after transform patches, `display` and `test`. */
  result: CheckResult;
  /** Checks created by a fan-out `transform`; empty otherwise. */
  derived: DerivedCheckResult[];
  /** How many times the check ran (1 without retries; 0 when it could not run at all). */
  attempts: number;
  /** When the run began (ISO 8601). */
  startedAt: string;
}

const transformedResultSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  type: z.string().optional(),
  endpoint: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.unknown()).optional(),
  pass: z.boolean().optional(),
  invalid: z.boolean().optional(),
  duration: z.number().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  detail: z.unknown().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  metrics: z
    .array(
      z.looseObject({
        name: z.string(),
        type: z.enum(['counter', 'gauge', 'histogram']).default('gauge'),
        value: z.number(),
        labels: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
  deletedAt: z.string().optional(),
  transformDeleteStrategy: z.string().optional(),
  displayType: z.string().optional(),
});
type TransformedResult = z.infer<typeof transformedResultSchema>;

function stringLabels(labels: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
  }
  return out;
}

function readTransformOutput(value: JsonValue): TransformedResult[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return [];
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`the transform did not return JSON: ${errorText(error)}`);
    }
  }
  if (parsed === null) return [];
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((item, index) => {
    const result = transformedResultSchema.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(`transform entry ${index + 1}: ${issue.path.join('.') || 'value'}: ${issue.message}`);
    }
    return result.data;
  });
}

interface RetryPolicy {
  configured: boolean;
  delay: number;
  timeout: number;
  interval: number;
  maxRetries?: number;
  disabled: boolean;
}

function retryPolicy(defaults: CheckRetries | undefined, override: CheckRetries | undefined): RetryPolicy {
  const merged: CheckRetries = { ...defaults };
  for (const [key, value] of Object.entries(override ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  const configured = defaults !== undefined || override !== undefined;
  const read = (field: 'delay' | 'timeout' | 'interval'): number => {
    const text = merged[field];
    if (text === undefined || text === '') return 0;
    const value = parseDuration(text);
    if (value < 0) throw new CheckSpecError(`${field} cannot be negative`);
    return value;
  };
  if (merged.maxRetries !== undefined && merged.maxRetries < 0)
    throw new CheckSpecError('maxRetries cannot be negative');
  const policy: RetryPolicy = {
    configured,
    disabled: merged.disabled ?? false,
    delay: read('delay'),
    timeout: read('timeout'),
    interval: read('interval'),
    maxRetries: merged.maxRetries,
  };
  const enabled = (policy.maxRetries ?? 0) > 0 || policy.timeout > 0;
  if (enabled && merged.interval === undefined) policy.interval = 1_000;
  return policy;
}

function canRetry(policy: RetryPolicy, attempts: number, startedAt: number): boolean {
  if (policy.disabled) return false;
  const enabled = (policy.maxRetries ?? 0) > 0 || policy.timeout > 0;
  if (!enabled) return false;
  if (policy.maxRetries !== undefined && attempts - 1 >= policy.maxRetries) return false;
  if (policy.timeout > 0 && Date.now() - startedAt >= policy.timeout) return false;
  return true;
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<boolean> {
  if (milliseconds <= 0) return Promise.resolve(!signal.aborted);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

class CheckTimeout extends Error {}

/** Runs one attempt under a hard deadline: a target that never answers cannot hold the caller. */
async function runWithDeadline(
  checkType: CheckType,
  spec: CheckSpecBase,
  options: RunCheckOptions,
  timeoutMs: number,
): Promise<CheckResult> {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(new CheckTimeout());
      reject(new CheckTimeout());
    }, timeoutMs);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const context: CheckContext = {
    signal: controller.signal,
    timeoutMs,
    logger: options.logger,
    canary: options.canary,
    resolveConnection: options.resolveConnection,
    resolveValueFrom: options.resolveValueFrom,
  };
  const started = performance.now();
  const running = Promise.resolve().then(() => checkType.run(spec, context));
  // The run may settle after the deadline has already answered; its outcome is then dropped.
  running.catch(() => undefined);
  deadline.catch(() => undefined);
  try {
    const result = await Promise.race([running, deadline]);
    return result.duration > 0
      ? result
      : { ...result, duration: Math.max(1, Math.round(performance.now() - started)) };
  } catch (error) {
    const duration = Math.max(1, Math.round(performance.now() - started));
    if (error instanceof CheckTimeout)
      return failing(passing({ duration }), `check timed out after ${timeoutMs}ms`);
    if (error instanceof CheckSpecError) return invalidResult(error.message, { duration });
    if (controller.signal.aborted && !(error instanceof Error && error === controller.signal.reason)) {
      return failing(passing({ duration }), `check was cancelled: ${errorText(error)}`);
    }
    if (options.signal?.aborted) return failing(passing({ duration }), 'check was cancelled');
    options.logger.warn({ err: error, checkType: checkType.type, check: spec.name }, 'check threw');
    return failing(passing({ duration }), errorText(error));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
    if (!controller.signal.aborted) controller.abort(new Error('the check finished'));
  }
}

function expressionVariables(
  result: CheckResult,
  spec: CheckSpecBase,
  checkType: CheckType,
  endpoint: string,
  canary: CanaryMetadata,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...extra,
    ...result.data,
    check: {
      name: spec.name,
      description: spec.description ?? '',
      labels: spec.labels ?? {},
      endpoint,
      type: checkType.type,
    },
    canary: {
      id: canary.id ?? '',
      name: canary.name,
      namespace: canary.namespace,
      labels: canary.labels ?? {},
    },
  };
}

async function evaluateOrThrow(
  expression: Expression,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<JsonValue> {
  return evaluate(expression, variables, options.expressions);
}

/** `display` sets the message; `test` can only turn a passing check into a failing one. */
async function applyTemplates(
  result: CheckResult,
  spec: CheckSpecBase,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<CheckResult> {
  let out = result;
  if (spec.display && !isEmptyExpression(spec.display)) {
    try {
      out = { ...out, message: stringifyResult(await evaluateOrThrow(spec.display, variables, options)) };
    } catch (error) {
      out = failing(out, errorText(error));
    }
  }
  if (spec.test && !isEmptyExpression(spec.test)) {
    try {
      const value = await evaluateOrThrow(spec.test, variables, options);
      const outcome = parseTestOutcome(value);
      if (outcome === undefined)
        out = failing(out, `test expression did not return a boolean value. got ${stringifyResult(value)}`);
      else if (!outcome) out = failing(out, 'test expression returned false');
    } catch (error) {
      out = failing(out, errorText(error));
    }
  }
  return out;
}

interface AttemptOutcome {
  result: CheckResult;
  derived: DerivedCheckResult[];
}

async function transformResult(
  result: CheckResult,
  spec: CheckSpecBase,
  checkType: CheckType,
  endpoint: string,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<AttemptOutcome> {
  if (!spec.transform || isEmptyExpression(spec.transform)) return { result, derived: [] };
  let entries: TransformedResult[];
  try {
    entries = readTransformOutput(await evaluateOrThrow(spec.transform, variables, options));
  } catch (error) {
    return {
      result: {
        ...result,
        pass: false,
        invalid: true,
        error: `error transforming result: ${errorText(error)}`,
      },
      derived: [],
    };
  }
  if (entries.length === 0) {
    const kept = { ...result, detail: undefined };
    return {
      result: spec.markFailOnEmpty && kept.pass ? failing(kept, 'transform returned an empty result') : kept,
      derived: [],
    };
  }
  const first = entries[0];
  if (first.name !== undefined && first.name !== '' && first.name !== spec.name) {
    const derived = entries.map((entry): DerivedCheckResult => ({
      pass: entry.pass ?? false,
      invalid: entry.invalid,
      duration: entry.duration ?? 0,
      message: entry.message ?? '',
      error: entry.error ?? '',
      detail: entry.detail === undefined ? undefined : toJsonValue(entry.detail),
      data: (toJsonValue(entry.data ?? {}) as Record<string, JsonValue>) ?? {},
      metrics: entry.metrics,
      id: entry.id,
      name: entry.name || spec.name,
      description: entry.description || spec.description,
      icon: entry.icon || spec.icon,
      type: entry.type || checkType.type,
      endpoint: entry.endpoint || endpoint,
      namespace: entry.namespace,
      labels: stringLabels(entry.labels),
      deletedAt: entry.deletedAt,
      transformDeleteStrategy: entry.transformDeleteStrategy || spec.transformDeleteStrategy,
      displayType: entry.displayType,
    }));
    // The parent stays as a record of the run; its (possibly large) detail is not kept.
    return { result: { ...result, detail: undefined }, derived };
  }
  if (entries.length > 1) {
    return {
      result: {
        ...result,
        pass: false,
        invalid: true,
        error: 'error transforming result: transformation returned more than 1 entry without a name',
      },
      derived: [],
    };
  }
  const patch = first;
  const patched: CheckResult = {
    ...result,
    data: { ...result.data },
    metrics: [...(result.metrics ?? []), ...(patch.metrics ?? [])],
  };
  if (patch.pass !== undefined) patched.pass = patch.pass;
  if (patch.invalid !== undefined) patched.invalid = patch.invalid;
  if (patch.duration !== undefined) patched.duration = patch.duration;
  if (patch.message) patched.message = patch.message;
  if (patch.error) patched.error = patch.error;
  if (patch.detail !== undefined) {
    if (patch.detail === '$delete') {
      patched.detail = undefined;
      delete patched.data.results;
    } else {
      patched.detail = toJsonValue(patch.detail);
    }
  }
  for (const [key, value] of Object.entries(patch.data ?? {})) patched.data[key] = toJsonValue(value);
  return { result: patched, derived: [] };
}

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
      result: invalidResult(CHECK_TYPE_NOT_SUPPORTED_MESSAGE, { message: CHECK_TYPE_NOT_SUPPORTED_MESSAGE }),
      derived: [],
      attempts: 0,
    };
  }
  return runCheckOfType(checkType, spec, options);
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
    parsed = checkType.parse(spec);
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
