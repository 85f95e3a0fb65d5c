import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import type { ModuleWorkers } from '../../server-module.js';
import { dropOrphanViewTables } from './view-service.js';

/** How often the tables of deleted views are dropped. */
export const ORPHAN_SWEEP_INTERVAL_MS = 10 * 60_000;

/** Drops the tables of deleted views every ORPHAN_SWEEP_INTERVAL_MS (and once at start). */
export async function startViewWorkers(options: { pool: Pool; logger: Logger }): Promise<ModuleWorkers> {
  let running: Promise<void> = Promise.resolve();
  const sweep = (): void => {
    running = dropOrphanViewTables(options.pool)
      .then((dropped) => {
        if (dropped.length > 0)
          options.logger.info({ tables: dropped }, 'dropped the tables of deleted views');
      })
      .catch((error: unknown) =>
        options.logger.warn({ err: (error as Error).message }, 'dropping the tables of deleted views failed'),
      );
  };
  sweep();
  const timer = setInterval(sweep, ORPHAN_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
