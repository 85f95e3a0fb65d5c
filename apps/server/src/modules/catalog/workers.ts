import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import { createScraperScheduler } from './scraper-scheduler.js';

export interface CatalogWorkersOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: Logger;
  /** How often config_scrapers is re-read for changes. Default 10 s. */
  pollIntervalMs?: number;
  /** Budget of one scrape. Default 5 minutes. */
  runTimeoutMs?: number;
  /** Relative file paths and exec scripts resolve here. Default process.cwd(). */
  baseDir?: string;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

export interface CatalogWorkers {
  /** Re-reads scrapers now instead of at the next poll. */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/** Registers one schedule per live scraper and keeps them in step with config_scrapers. */
export async function startCatalogWorkers(options: CatalogWorkersOptions): Promise<CatalogWorkers> {
  const logger = options.logger.child({ component: 'catalog' });
  const scheduler = createScraperScheduler({
    pool: options.pool,
    jobs: options.jobs,
    logger,
    pollIntervalMs: options.pollIntervalMs,
    runTimeoutMs: options.runTimeoutMs,
    baseDir: options.baseDir,
    openSecrets: options.openSecrets,
  });
  try {
    await scheduler.refresh();
  } catch (error) {
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'reading scrapers failed');
  }
  return { refresh: () => scheduler.refresh(), stop: () => scheduler.stop() };
}
