/** A check's retry policy (the canary's `retries` merged with the check's) and its waits. */
import { parseDuration } from './spec-fields.js';
import { CheckSpecError, type CheckRetries } from './types.js';

export interface RetryPolicy {
  configured: boolean;
  delay: number;
  timeout: number;
  interval: number;
  maxRetries?: number;
  disabled: boolean;
}

export function retryPolicy(
  defaults: CheckRetries | undefined,
  override: CheckRetries | undefined,
): RetryPolicy {
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

export function canRetry(policy: RetryPolicy, attempts: number, startedAt: number): boolean {
  if (policy.disabled) return false;
  const enabled = (policy.maxRetries ?? 0) > 0 || policy.timeout > 0;
  if (!enabled) return false;
  if (policy.maxRetries !== undefined && attempts - 1 >= policy.maxRetries) return false;
  if (policy.timeout > 0 && Date.now() - startedAt >= policy.timeout) return false;
  return true;
}

export function sleep(milliseconds: number, signal: AbortSignal): Promise<boolean> {
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
