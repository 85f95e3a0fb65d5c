import type { JobStatus } from '@opsdeck/contracts';
import type pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { errorMessage, type JobsLogger } from './support.js';

export type EventOutcome = 'success' | 'retry' | 'failed' | 'released';

export interface JobsMetrics {
  recordJobRun(name: string, status: JobStatus): void;
  observeEvent(name: string, outcome: EventOutcome, seconds: number): void;
}

/**
 * Registers the jobs metrics in `registry`. Several services in one process (tests) share the
 * metrics already registered under these names instead of failing on a duplicate.
 */
export function createJobsMetrics(registry: Registry, pool: pg.Pool, logger: JobsLogger): JobsMetrics {
  const jobRuns =
    existing(registry, 'opsdeck_job_runs_total', Counter) ??
    new Counter({
      name: 'opsdeck_job_runs_total',
      help: 'Finished job runs by job name and final status.',
      labelNames: ['name', 'status'] as const,
      registers: [registry],
    });
  const jobFailures =
    existing(registry, 'opsdeck_job_failures_total', Counter) ??
    new Counter({
      name: 'opsdeck_job_failures_total',
      help: 'Job runs that ended FAILED, by job name.',
      labelNames: ['name'] as const,
      registers: [registry],
    });
  const eventDuration =
    existing(registry, 'opsdeck_event_handling_duration_seconds', Histogram) ??
    new Histogram({
      name: 'opsdeck_event_handling_duration_seconds',
      help: 'Time spent in event handlers, by event name and outcome.',
      labelNames: ['name', 'outcome'] as const,
      buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60],
      registers: [registry],
    });
  if (!existing(registry, 'opsdeck_event_queue_depth', Gauge)) {
    new Gauge({
      name: 'opsdeck_event_queue_depth',
      help: 'Events in the queue by name and status (pending or failed), read at scrape time.',
      labelNames: ['name', 'status'] as const,
      registers: [registry],
      async collect() {
        try {
          const { rows } = await pool.query<{ name: string; status: string; depth: number }>(
            'SELECT name, status, count(*)::integer AS depth FROM event_queue GROUP BY name, status',
          );
          this.reset();
          for (const row of rows) this.set({ name: row.name, status: row.status }, row.depth);
        } catch (error) {
          logger.warn({ err: errorMessage(error) }, 'reading the event queue depth failed');
        }
      },
    });
  }
  return {
    recordJobRun(name, status) {
      jobRuns.inc({ name, status });
      if (status === 'FAILED') jobFailures.inc({ name });
    },
    observeEvent(name, outcome, seconds) {
      eventDuration.observe({ name, outcome }, seconds);
    },
  };
}

function existing<T>(
  registry: Registry,
  name: string,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  const metric: unknown = registry.getSingleMetric(name);
  return metric instanceof type ? metric : undefined;
}
