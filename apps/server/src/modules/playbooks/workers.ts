import type { ModuleWorkers, WorkerContext } from '../../server-module.js';
import { DEFAULT_PLAYBOOK_TIMEOUT_MS } from './durations.js';
import { advanceRun, EXECUTE_EVENT, setRunStatus } from './runner.js';
import { createEventTriggerHandler, PLAYBOOK_TRIGGER_SUBSCRIBER } from './event-triggers.js';
import { startPlaybookSchedules } from './schedule-triggers.js';

/**
 * Consumes the runner's queue event: one process at a time moves a run forward (the queue's
 * lease). An unexpected error fails the run rather than retrying it without end.
 */
export async function startPlaybookWorkers(
  context: WorkerContext & { cancelPollMs?: number; schedulePollMs?: number },
): Promise<ModuleWorkers> {
  const { pool, jobs, logger, secrets } = context;
  jobs.events.on(
    EXECUTE_EVENT,
    async (event, { signal }) => {
      const runId = String(event.properties.run_id ?? '');
      if (runId === '') return;
      try {
        await advanceRun({ pool, jobs, secrets, cancelPollMs: context.cancelPollMs }, runId, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        logger.error({ run: runId, err: message }, 'playbook run failed unexpectedly');
        await setRunStatus(pool, runId, 'failed', { error: message });
      }
    },
    // A run may take its whole timeout; the lease is renewed while it works.
    { timeoutMs: DEFAULT_PLAYBOOK_TIMEOUT_MS + 60_000, maxAttempts: 20 },
  );
  // Event triggers (`on.canary`, `on.config`, `on.component`): the copies the event queue's
  // subscription fan-out (migration 0210) makes for each subscribed playbook.
  const triggerPattern = `${PLAYBOOK_TRIGGER_SUBSCRIBER}.*`;
  jobs.events.on(triggerPattern, createEventTriggerHandler({ pool, logger, secrets }), { maxAttempts: 5 });
  // Schedule triggers (`on.schedule`): one schedule per playbook, kept in step with the table.
  const schedules = startPlaybookSchedules({
    pool,
    jobs,
    logger,
    secrets,
    pollIntervalMs: context.schedulePollMs,
  });
  await schedules.refresh();
  return {
    async stop() {
      jobs.events.off(EXECUTE_EVENT);
      jobs.events.off(triggerPattern);
      await schedules.stop();
    },
  };
}
