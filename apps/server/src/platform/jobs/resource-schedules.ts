import type pg from 'pg';
import type { JobsService } from './jobs-service.js';
import { listenForNotifications, type NotificationListener } from './notification-listener.js';
import type { ScheduleDefinition } from './schedules.js';
import { errorMessage, type JobsLogger } from './support.js';

/** What a resource wants after a change: a schedule, none (kept and watched), or to be forgotten. */
export interface ResourceScheduleDecision {
  schedule: string | null;
  /** The resource is gone for good: stop watching it once its schedule is removed. */
  forget?: boolean;
}

export interface ResourceScheduleSyncOptions<Row> {
  jobs: Pick<JobsService, 'schedules'>;
  logger: JobsLogger;
  /** The resource's name in log lines ('canary', 'scraper'). */
  kind: string;
  pollIntervalMs: number;
  /** The rows to look at: every live one, plus those with ids in `knownIds` (deleted since). */
  load(knownIds: string[]): Promise<Row[]>;
  /**
   * With loadByIds, lets a refresh read only the ids and versions of the rows `load` would answer,
   * and then the full rows of the new and changed ones.
   */
  versions?(knownIds: string[]): Promise<Array<{ id: string; updatedAt: Date }>>;
  loadByIds?(ids: string[]): Promise<Row[]>;
  /**
   * A channel the table's changes are NOTIFYed on (by a trigger, so every way in and every
   * process is covered): a notification refreshes at once. Polling stays the guarantee.
   */
  notify?: { pool: pg.Pool; channel: string };
  /**
   * A row created or changed after the first refresh has its schedule made due at once (unless
   * it ran since the change, in any process), instead of waiting for its next tick.
   */
  runChangedAtOnce?: boolean;
  idOf(row: Row): string;
  updatedAtOf(row: Row): Date;
  scheduleName(id: string): string;
  /** Called once per new or changed row (side effects such as syncing child rows go here). */
  decide(row: Row): Promise<ResourceScheduleDecision>;
  /**
   * decide() for many rows at once (one answer per row, in order). With it, a refresh decides
   * and registers new and changed rows in batches of REFRESH_BATCH, a few statements each,
   * instead of a few round trips per row; when a batch fails, its rows are decided one by one.
   */
  decideMany?(rows: Row[]): Promise<ResourceScheduleDecision[]>;
  /** The schedule definition of a row; registered (or replaced) when its schedule is set. */
  definition(row: Row, schedule: string): Omit<ScheduleDefinition, 'name' | 'schedule'>;
}

export interface ResourceScheduleSync {
  /** Reads the resources and (re)registers, or unregisters, their schedules. */
  refresh(): Promise<void>;
  /** Names of the schedules registered by this process. */
  registered(): string[];
  /** Stops polling. Schedules stay registered in the database: other processes keep running them. */
  stop(): Promise<void>;
}

/** Rows applied at once by a refresh. */
const REFRESH_CONCURRENCY = 8;
/** Rows decided and registered together when the resource decides many at once (decideMany). */
const REFRESH_BATCH = 500;

interface Known {
  updatedAt: number;
  schedule: string | null;
}

/**
 * One schedule per live resource row (canaries, scrapers), kept in step with its table by polling
 * updated_at: a new or changed row is decided and (re)registered, a row that is gone has its
 * schedule removed. A schedule that does not parse keeps the row off the scheduler (logged) until
 * the row changes. Refreshes never overlap: a poll landing during a slow one waits for it.
 */
export function createResourceScheduleSync<Row>(
  options: ResourceScheduleSyncOptions<Row>,
): ResourceScheduleSync {
  const { jobs, logger, kind } = options;
  const known = new Map<string, Known>();
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  let initialised = false;
  let listener: NotificationListener | undefined;

  const apply = async (row: Row): Promise<void> => {
    const id = options.idOf(row);
    const name = options.scheduleName(id);
    const previous = known.get(id);
    const updatedAt = options.updatedAtOf(row).getTime();
    if (previous && previous.updatedAt === updatedAt) return;
    const { schedule, forget } = await options.decide(row);
    if (schedule === null) {
      // An unknown row may have a schedule left from when no process watched it.
      if (previous === undefined || previous.schedule) await jobs.schedules.unregister(name);
      if (forget) known.delete(id);
      else known.set(id, { updatedAt, schedule: null });
      return;
    }
    try {
      const runAtOnce = options.runChangedAtOnce === true && initialised;
      await jobs.schedules.register(
        { ...options.definition(row, schedule), name, schedule },
        runAtOnce ? { dueNowUnlessRunSince: options.updatedAtOf(row) } : undefined,
      );
      known.set(id, { updatedAt, schedule });
    } catch (error) {
      logger.warn({ [kind]: id, schedule, err: errorMessage(error) }, `${kind} schedule not registered`);
      if (previous?.schedule) await jobs.schedules.unregister(name);
      known.set(id, { updatedAt, schedule: null });
    }
  };

  /** The rows to apply (new and changed ones when versions can be read) and every id seen. */
  const read = async (): Promise<{ rows: Row[]; seen: Set<string> }> => {
    if (options.versions && options.loadByIds) {
      const versions = await options.versions([...known.keys()]);
      const changed = versions
        .filter((version) => known.get(version.id)?.updatedAt !== version.updatedAt.getTime())
        .map((version) => version.id);
      const rows = changed.length > 0 ? await options.loadByIds(changed) : [];
      return { rows, seen: new Set(versions.map((version) => version.id)) };
    }
    const rows = await options.load([...known.keys()]);
    return { rows, seen: new Set(rows.map((row) => options.idOf(row))) };
  };

  /** Applies rows a few at once, so thousands of them do not wait on one round trip after another. */
  const applyEach = async (rows: Row[]): Promise<void> => {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < rows.length) {
        const row = rows[next];
        next += 1;
        try {
          await apply(row);
        } catch (error) {
          logger.error({ [kind]: options.idOf(row), err: errorMessage(error) }, `syncing a ${kind} failed`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, rows.length) }, lane));
  };

  /** apply() for a batch of new or changed rows: one decideMany and one registerMany. */
  const applyBatch = async (
    rows: Row[],
    decideMany: NonNullable<typeof options.decideMany>,
    registerMany: NonNullable<typeof jobs.schedules.registerMany>,
  ): Promise<void> => {
    let decisions: ResourceScheduleDecision[];
    try {
      decisions = await decideMany(rows);
    } catch {
      // One row the batch could not take keeps none of the others out.
      await applyEach(rows);
      return;
    }
    const runAtOnce = options.runChangedAtOnce === true && initialised;
    const scheduled: Array<{ row: Row; id: string; updatedAt: number; schedule: string }> = [];
    for (const [index, row] of rows.entries()) {
      const id = options.idOf(row);
      const updatedAt = options.updatedAtOf(row).getTime();
      const { schedule, forget } = decisions[index];
      if (schedule !== null) {
        scheduled.push({ row, id, updatedAt, schedule });
        continue;
      }
      const previous = known.get(id);
      if (previous === undefined || previous.schedule)
        await jobs.schedules.unregister(options.scheduleName(id));
      if (forget) known.delete(id);
      else known.set(id, { updatedAt, schedule: null });
    }
    let errors: Array<Error | undefined>;
    try {
      errors = await registerMany(
        scheduled.map(({ row, id, schedule }) => ({
          definition: { ...options.definition(row, schedule), name: options.scheduleName(id), schedule },
          options: runAtOnce ? { dueNowUnlessRunSince: options.updatedAtOf(row) } : undefined,
        })),
      );
    } catch (error) {
      // Not known yet: the next refresh tries these rows again.
      logger.error(
        { [kind]: scheduled.length, err: errorMessage(error) },
        `registering ${kind} schedules failed`,
      );
      return;
    }
    for (const [index, { id, updatedAt, schedule }] of scheduled.entries()) {
      const error = errors[index];
      if (!error) {
        known.set(id, { updatedAt, schedule });
        continue;
      }
      logger.warn({ [kind]: id, schedule, err: errorMessage(error) }, `${kind} schedule not registered`);
      if (known.get(id)?.schedule) await jobs.schedules.unregister(options.scheduleName(id));
      known.set(id, { updatedAt, schedule: null });
    }
  };

  const refreshOnce = async (): Promise<void> => {
    const { rows, seen } = await read();
    for (const row of rows) seen.add(options.idOf(row));
    const { decideMany } = options;
    const registerMany = jobs.schedules.registerMany?.bind(jobs.schedules);
    if (decideMany && registerMany) {
      const changed = rows.filter(
        (row) => known.get(options.idOf(row))?.updatedAt !== options.updatedAtOf(row).getTime(),
      );
      for (let start = 0; start < changed.length; start += REFRESH_BATCH) {
        await applyBatch(changed.slice(start, start + REFRESH_BATCH), decideMany, registerMany);
      }
    } else {
      await applyEach(rows);
    }
    // Rows removed outright (not soft-deleted).
    for (const [id, entry] of known) {
      if (seen.has(id)) continue;
      if (entry.schedule) await jobs.schedules.unregister(options.scheduleName(id));
      known.delete(id);
    }
    initialised = true;
  };

  const refresh = (): Promise<void> => {
    const next = chain.then(refreshOnce, refreshOnce);
    chain = next.catch(() => undefined);
    return next;
  };

  const poll = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      refresh()
        .catch((error: unknown) => logger.error({ err: errorMessage(error) }, `reading ${kind}s failed`))
        .finally(poll);
    }, options.pollIntervalMs);
    timer.unref();
  };
  poll();

  if (options.notify) {
    // Notifications of one transaction (or a burst) are taken in by one refresh.
    let pending: NodeJS.Timeout | undefined;
    listener = listenForNotifications({
      pool: options.notify.pool,
      channel: options.notify.channel,
      logger,
      onWake: () => {
        if (stopped || pending) return;
        pending = setTimeout(() => {
          pending = undefined;
          if (stopped) return;
          refresh().catch((error: unknown) =>
            logger.error({ err: errorMessage(error) }, `reading ${kind}s failed`),
          );
        }, 20);
      },
    });
  }

  return {
    refresh,
    registered: () =>
      [...known.entries()]
        .filter(([, entry]) => entry.schedule !== null)
        .map(([id]) => options.scheduleName(id)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await listener?.close();
      await chain;
    },
  };
}
