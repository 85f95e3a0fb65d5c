/** What running a check takes and gives (run-check.ts). */
import type { EvaluateOptions } from '../../../expressions/index.js';
import type { CanaryMetadata, CheckContext, CheckResult } from './types.js';

/** Budget for one attempt of a check when the caller gives none. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

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
  /** The previous run of this check (`last_result` in templated fields). */
  lastResult?: Record<string, unknown>;
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
