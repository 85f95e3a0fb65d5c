import os from 'node:os';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { EventConsumers, enqueueEvent, type ConsumerOptions, type EventHandler } from './event-queue.js';
import { EventQueueWorker, type EventQueueWorkerOptions } from './event-queue-worker.js';
import { JobHistory, type JobRun, type StartJobOptions } from './job-history.js';
import { createJobsMetrics } from './metrics.js';
import {
  Scheduler,
  type RegisterOptions,
  type ScheduleDefinition,
  type SchedulerOptions,
} from './schedules.js';
import { createWorkerId, errorMessage, type JobsLogger } from './support.js';

type EventTuning = Omit<EventQueueWorkerOptions, 'pool' | 'logger' | 'consumers' | 'workerId' | 'metrics'>;
type ScheduleTuning = Omit<SchedulerOptions, 'pool' | 'logger' | 'jobHistory' | 'workerId'>;

export interface JobsServiceOptions {
  pool: pg.Pool;
  logger: JobsLogger;
  /** Recorded in job history. Default os.hostname(). */
  hostname?: string;
  /** Registers job and event queue metrics here when given. */
  metrics?: Registry;
  /** Event queue tuning: concurrency, pollIntervalMs, handlerTimeoutMs, leaseMs, maxAttempts, backoff … */
  events?: EventTuning;
  /** Scheduler tuning: pollIntervalMs, leaseMs, renewIntervalMs, concurrency, claimIntervalMs. */
  schedules?: ScheduleTuning;
  /** How often this process proves it is alive. Default 10 s. */
  heartbeatIntervalMs?: number;
  /** A worker silent this long is dead: its RUNNING jobs become STOPPED. Default 60 s. */
  staleWorkerAfterMs?: number;
  /** Default grace for stop(). Default 10 s. */
  shutdownGraceMs?: number;
}

export interface JobsService {
  /** This process in locked_by columns and job_history.worker_id. */
  readonly workerId: string;
  readonly schedules: {
    register(definition: ScheduleDefinition, options?: RegisterOptions): Promise<void>;
    /** register() for many, in two statements; per entry the error that kept it out, or undefined. */
    registerMany?(
      entries: ReadonlyArray<{ definition: ScheduleDefinition; options?: RegisterOptions }>,
    ): Promise<Array<Error | undefined>>;
    unregister(name: string): Promise<void>;
    triggerNow(name: string): Promise<boolean>;
    names(): string[];
  };
  readonly events: {
    on(pattern: string, handler: EventHandler, options?: ConsumerOptions): void;
    off(pattern: string): void;
    /** enqueueEvent: pass the transaction client of the change that caused the event. */
    enqueue: typeof enqueueEvent;
  };
  /** A job history row for work that is not a schedule (a run-now request, a playbook step). */
  startJob(options: StartJobOptions): Promise<JobRun>;
  markStaleRunningJobs(): Promise<number>;
  /** Registers this worker, sweeps jobs of dead workers, starts the scheduler and consumers. */
  start(): Promise<void>;
  /**
   * Stops claiming work, lets running handlers finish for up to graceMs, then stops the rest
   * (their jobs STOPPED, their event claims released) and resolves.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export function createJobsService(options: JobsServiceOptions): JobsService {
  const { pool, logger } = options;
  const hostname = options.hostname ?? os.hostname();
  const workerId = createWorkerId(hostname);
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 10_000;
  const staleWorkerAfterMs = options.staleWorkerAfterMs ?? 60_000;
  const defaultGraceMs = options.shutdownGraceMs ?? 10_000;
  if (staleWorkerAfterMs <= heartbeatIntervalMs) {
    throw new RangeError('staleWorkerAfterMs must be longer than heartbeatIntervalMs');
  }
  const metrics = options.metrics ? createJobsMetrics(options.metrics, pool, logger) : undefined;
  const jobHistory = new JobHistory({ pool, hostname, workerId, metrics });
  const consumers = new EventConsumers();
  const queue = new EventQueueWorker({ ...options.events, pool, logger, consumers, workerId, metrics });
  let state: 'idle' | 'running' | 'stopping' = 'idle';
  // Consumers with a concurrency of their own: one worker each, with the service's tuning. A lane
  // whose consumer is removed stops claiming; it is stopped (its handlers given the grace) with
  // the service.
  const lanes = new Map<string, { worker: EventQueueWorker; consumers: EventConsumers }>();
  const retired: EventQueueWorker[] = [];
  const addLane = (pattern: string, handler: EventHandler, consumerOptions: ConsumerOptions) => {
    if (pattern.includes('*'))
      throw new TypeError(`"${pattern}": a consumer with its own concurrency takes an exact event name`);
    if (lanes.has(pattern) || consumers.resolve(pattern))
      throw new Error(`Events "${pattern}" already have a consumer`);
    const own = new EventConsumers().on(pattern, handler, consumerOptions);
    const worker = new EventQueueWorker({
      ...options.events,
      concurrency: consumerOptions.concurrency,
      pool,
      logger,
      consumers: own,
      workerId,
      metrics,
    });
    lanes.set(pattern, { worker, consumers: own });
    if (state === 'running') worker.start();
  };
  const scheduler = new Scheduler({ ...options.schedules, pool, logger, jobHistory, workerId });
  let heartbeatTimer: NodeJS.Timeout | undefined;

  const markStaleRunningJobs = async (): Promise<number> => {
    const stopped = await jobHistory.markStaleRunningJobs(staleWorkerAfterMs);
    if (stopped > 0) logger.warn({ jobs: stopped }, 'marked jobs of stopped processes as STOPPED');
    return stopped;
  };

  const beat = async (): Promise<void> => {
    try {
      await jobHistory.heartbeat();
      await markStaleRunningJobs();
    } catch (error) {
      logger.error({ err: errorMessage(error) }, 'jobs heartbeat failed');
    }
  };

  return {
    workerId,
    schedules: {
      register: (definition, registerOptions) => scheduler.register(definition, registerOptions),
      registerMany: (entries) => scheduler.registerMany(entries),
      unregister: (name) => scheduler.unregister(name),
      triggerNow: (name) => scheduler.triggerNow(name),
      names: () => scheduler.names(),
    },
    events: {
      on: (pattern, handler, consumerOptions = {}) => {
        if (consumerOptions.concurrency !== undefined) {
          addLane(pattern, handler, consumerOptions);
          return;
        }
        const prefix = pattern.endsWith('*') ? pattern.slice(0, -1) : undefined;
        for (const name of lanes.keys())
          if (name === pattern || (prefix !== undefined && name.startsWith(prefix)))
            throw new Error(`Events "${name}" already have a consumer of their own`);
        consumers.on(pattern, handler, consumerOptions);
      },
      off: (pattern) => {
        const lane = lanes.get(pattern);
        if (!lane) return consumers.off(pattern);
        lanes.delete(pattern);
        lane.consumers.off(pattern);
        retired.push(lane.worker);
      },
      enqueue: enqueueEvent,
    },
    startJob: (jobOptions) => jobHistory.startJob(jobOptions),
    markStaleRunningJobs,
    async start() {
      if (state !== 'idle') return;
      state = 'running';
      try {
        await jobHistory.heartbeat();
        await markStaleRunningJobs();
        await scheduler.start();
      } catch (error) {
        state = 'idle';
        throw error;
      }
      queue.start();
      for (const lane of lanes.values()) lane.worker.start();
      heartbeatTimer = setInterval(() => void beat(), heartbeatIntervalMs);
      heartbeatTimer.unref();
      logger.info({ workerId, schedules: scheduler.names().length }, 'jobs service started');
    },
    async stop(stopOptions = {}) {
      if (state !== 'running') return;
      state = 'stopping';
      const graceMs = stopOptions.graceMs ?? defaultGraceMs;
      clearInterval(heartbeatTimer);
      await Promise.all([
        scheduler.stop(graceMs),
        queue.stop(graceMs),
        ...[...lanes.values()].map((lane) => lane.worker.stop(graceMs)),
        ...retired.splice(0).map((worker) => worker.stop(graceMs)),
      ]);
      await jobHistory
        .retire()
        .catch((error: unknown) =>
          logger.warn({ err: errorMessage(error) }, 'removing the worker row failed'),
        );
      state = 'idle';
      logger.info({ workerId }, 'jobs service stopped');
    },
  };
}
