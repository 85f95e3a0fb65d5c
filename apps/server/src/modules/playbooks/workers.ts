import type { ModuleWorkers, WorkerContext } from '../../server-module.js';
import { DEFAULT_PLAYBOOK_TIMEOUT_MS } from './durations.js';
import { advanceRun, CancelWatch, EXECUTE_EVENT, StartGate } from './runner.js';
import { createEventTriggerHandler, PLAYBOOK_TRIGGER_SUBSCRIBER } from './event-triggers.js';
import { startPlaybookSchedules } from './schedule-triggers.js';

/** Runs moved forward at once by one process, unless PLAYBOOK_RUN_CONCURRENCY says otherwise. */
export const DEFAULT_RUN_CONCURRENCY = 100;

function runConcurrencyOf(configured: number | undefined): number {
  if (configured !== undefined) return configured;
  const fromEnv = Number(process.env.PLAYBOOK_RUN_CONCURRENCY);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_RUN_CONCURRENCY;
}

/**
 * Consumes the runner's queue event: one process at a time moves a run forward (the queue's
 * lease), and each action starts once (the runner's claim on its row). Runs have a lane of their
 * own in the queue (`runConcurrency` at once per process), so a burst of runs starts at once
 * rather than behind the shared slots, and cannot starve other events. An unexpected error fails
 * the run rather than retrying it without end.
 */
export async function startPlaybookWorkers(
  context: WorkerContext & { cancelPollMs?: number; schedulePollMs?: number; runConcurrency?: number },
): Promise<ModuleWorkers> {
  const { pool, jobs, logger, secrets } = context;
  const cancels = new CancelWatch(pool, context.cancelPollMs ?? 500);
  const starts = new StartGate();
  jobs.events.on(
    EXECUTE_EVENT,
    async (event, { signal }) => {
      const runId = String(event.properties.run_id ?? '');
      if (runId === '') return;
      // One job-history row per stretch of work on the run (a run that sleeps, retries or waits
      // for approval has one per stretch), ending with the run's status at the end of it. It is
      // written alongside the run's start, not before it: start latency is the runner's target.
      const jobStarting = pool
        .query<{ playbook_id: string; name: string }>(
          `SELECT r.playbook_id, p.name FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
          [runId],
        )
        .then(({ rows }) =>
          rows[0]
            ? jobs.startJob({
                name: `playbook run ${rows[0].name}`,
                resourceType: 'playbook',
                resourceId: rows[0].playbook_id,
              })
            : undefined,
        );
      // Unexpected errors fail the run inside advanceRun; what reaches here (the database
      // unreachable) is retried by the queue.
      const advanced = await advanceRun({ pool, jobs, secrets, cancels, starts }, runId, signal).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      const job = await jobStarting;
      if (advanced) {
        const message = advanced.error instanceof Error ? advanced.error.message : String(advanced.error);
        if (!signal.aborted)
          logger.error({ run: runId, err: message }, 'playbook run could not move forward');
        await job?.stopped(signal.aborted ? 'the process stopped' : message);
        throw advanced.error;
      }
      if (!job) return;
      const after = await pool.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM playbook_runs WHERE id = $1',
        [runId],
      );
      const status = after.rows[0]?.status ?? 'unknown';
      job.setDetail('summary', { run_id: runId, status });
      if (['failed', 'timed_out', 'cancelled'].includes(status)) {
        await job.failure(after.rows[0]?.error ?? status);
      } else {
        job.incrementSuccess();
        await job.success();
      }
    },
    // A run may take its whole timeout; the lease is renewed while it works. The lane claims
    // through a connection of its own (not behind the running actions' statements).
    {
      claimConnection: true,
      timeoutMs: DEFAULT_PLAYBOOK_TIMEOUT_MS + 60_000,
      maxAttempts: 20,
      concurrency: runConcurrencyOf(context.runConcurrency),
    },
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
      cancels.stop();
      await schedules.stop();
    },
  };
}
