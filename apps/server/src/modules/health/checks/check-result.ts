import type { CheckResult } from './types.js';

/** A passing result; checks fill in what they learned. */
export function passing(init: Partial<CheckResult> = {}): CheckResult {
  return { pass: true, duration: 0, message: '', error: '', data: {}, ...init };
}

function joinErrors(existing: string, added: string): string {
  if (added === '') return existing;
  return existing === '' ? added : `${existing}, ${added}`;
}

/** The same result, failed, with the reason appended to its error (as the ecosystem's Failf does). */
export function failing(result: CheckResult, reason: string): CheckResult {
  return { ...result, pass: false, error: joinErrors(result.error, reason) };
}

/** A result for a check that could not run as specified. */
export function invalidResult(reason: string, init: Partial<CheckResult> = {}): CheckResult {
  return { ...passing(init), pass: false, invalid: true, error: reason };
}

/** Milliseconds since `start` (from performance.now()), rounded up so a real run never reads as 0. */
export function elapsedSince(start: number): number {
  return Math.max(1, Math.round(performance.now() - start));
}

/** The error text of anything thrown. */
export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((inner: unknown) => errorText(inner)).join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
