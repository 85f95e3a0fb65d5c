/** One attempt of a check under a hard deadline. */
import { errorText, failing, invalidResult, passing } from './check-result.js';
import type { RunCheckOptions } from './run-types.js';
import {
  CheckSpecError,
  type CheckContext,
  type CheckResult,
  type CheckSpecBase,
  type CheckType,
} from './types.js';

class CheckTimeout extends Error {}

/** Runs one attempt under a hard deadline: a target that never answers cannot hold the caller. */
export async function runWithDeadline(
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
    lastResult: options.lastResult,
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
    // The signal is aborted only when the run is still going (the deadline or the caller's abort
    // answered first). A run that settled has finished its I/O: aborting it anyway made Node build
    // an AbortError, with its stack, per finished HTTP request: a seventh of the engine's CPU
    // (issue 22).
  }
}
