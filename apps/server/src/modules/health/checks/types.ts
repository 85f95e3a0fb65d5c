import type { z } from 'zod';
import type { Expression, JsonValue } from '../../../expressions/index.js';

/** The logging surface a check needs; the platform's pino logger satisfies it. */
export interface CheckLogger {
  debug(message: string): void;
  debug(fields: Record<string, unknown>, message?: string): void;
  info(message: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(message: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(message: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

/**
 * The ecosystem's retry policy (`retries` on a canary spec and on each check; the check's fields
 * win). Durations are strings such as "500ms", "10s", "1m".
 */
export interface CheckRetries {
  /** Wait before the first attempt. */
  delay?: string;
  /** Stop retrying once this much time has passed since the first attempt. */
  timeout?: string;
  /** Wait between attempts. Default 1s when retrying is enabled. */
  interval?: string;
  /** Attempts after the first. */
  maxRetries?: number;
  disabled?: boolean;
}

/** What a check knows about the canary that holds it (the `canary` expression variable). */
export interface CanaryMetadata {
  id?: string;
  name: string;
  namespace: string;
  labels?: Record<string, string>;
  /** Canary-level retry defaults (`spec.retries`). */
  retries?: CheckRetries;
}

/** A connection as stored in settings, decrypted for the check that uses it. */
export interface ResolvedConnection {
  name?: string;
  namespace?: string;
  type?: string;
  url?: string;
  username?: string;
  password?: string;
  certificate?: string;
  insecureTls?: boolean;
  properties?: Record<string, string>;
}

/** A `valueFrom` reference in a spec (secret or config map key). */
export interface ValueFromReference {
  secretKeyRef?: { name: string; key: string };
  configMapKeyRef?: { name: string; key: string };
}

export interface CheckContext {
  /** Aborted when the check's time budget runs out or the caller gives up. */
  signal: AbortSignal;
  /** Milliseconds left in the check's budget when it started. */
  timeoutMs: number;
  logger: CheckLogger;
  canary: CanaryMetadata;
  /**
   * Looks up a named connection (`connection: connection://namespace/name`, or a bare name).
   * Undefined when there is no such connection.
   */
  resolveConnection(name: string): Promise<ResolvedConnection | undefined> | ResolvedConnection | undefined;
  /** Resolves `valueFrom` references; when absent, specs may only use static values. */
  resolveValueFrom?(reference: ValueFromReference, namespace: string): Promise<string | undefined>;
  /** The previous run of this check (`last_result` in templated fields), when there was one. */
  lastResult?: Record<string, unknown>;
}

/** A labelled number a check reports alongside its result. */
export interface CheckMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  value: number;
  labels?: Record<string, string>;
}

export interface CheckResult {
  pass: boolean;
  /** The check could not run as specified (bad spec, missing connection, unsupported type). */
  invalid?: boolean;
  /** Milliseconds the check took. */
  duration: number;
  message: string;
  error: string;
  /** The check's raw outcome (shown as details; `results` in expressions). */
  detail?: JsonValue;
  /** The variables `test`, `display` and `transform` see, besides `check` and `canary`. */
  data: Record<string, JsonValue>;
  metrics?: CheckMetric[];
  /**
   * Keys of `data` holding milliseconds that expressions see as Go durations (`elapsed`,
   * `sslAge`): CEL durations, Go's Duration text in templates, nanoseconds in JavaScript.
   */
  durations?: readonly string[];
  /**
   * Results of their own this run produced (a JUnit suite's test cases): recorded as checks of
   * the canary beside this one, as a fan-out `transform` would.
   */
  children?: Array<{
    name: string;
    pass: boolean;
    message: string;
    error: string;
    duration: number;
    description?: string;
    labels?: Record<string, string>;
  }>;
  /** The check found nothing (no rows, no files, no records); `markFailOnEmpty` turns this into a failure. */
  empty?: boolean;
}

/** Fields every check spec shares (the ecosystem's Description and Templatable). */
export interface CheckSpecBase {
  name: string;
  description?: string;
  icon?: string;
  namespace?: string;
  labels?: Record<string, string>;
  test?: Expression;
  display?: Expression;
  transform?: Expression;
  markFailOnEmpty?: boolean;
  retries?: CheckRetries;
  transformDeleteStrategy?: string;
}

/** One check type: one file exporting this, registered with one line in registry.ts. */
export interface CheckType<Spec extends CheckSpecBase = CheckSpecBase> {
  /** The type recorded on the check, e.g. 'http'. */
  readonly type: string;
  /** The key under a canary's `spec` that lists checks of this type, e.g. 'http'. */
  readonly specKey: string;
  /** Results arrive from outside (webhook pushes): the scheduler never runs checks of this type. */
  readonly pushed?: boolean;
  /** Validates one raw spec entry; throws a CheckSpecError naming the bad field. */
  parse(raw: unknown): Spec;
  /**
   * The zod schema `parse` applies. When present, `opsdeck apply` and the API validate the
   * canary's entries of this type with it (issues carry field paths, e.g.
   * `spec.prometheus[0].query`) and the canary JSON Schema describes them.
   */
  readonly schema?: z.ZodType;
  /** Fields the type templates itself (with values only it knows); the generic pass leaves them. */
  readonly selfTemplatedFields?: readonly string[];
  /** What the check points at, for the checks list (url, host:port, path, ...). */
  endpoint(spec: Spec): string;
  run(spec: Spec, ctx: CheckContext): Promise<CheckResult>;
}

/** A spec that cannot be run as written; becomes an invalid result, never a crash. */
export class CheckSpecError extends Error {
  override readonly name = 'CheckSpecError';
}
