/**
 * The catalog module: ScrapeConfig scrapers (file, http, sql/postgres/mysql, exec) and their
 * schedules, reconciling scraped items into config_items with changes, insights, relationships
 * and retention, and the catalog API (summary, change search, Run Now).
 */
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import { createScraperScheduler } from './scraper-scheduler.js';

export { catalogRoutes, type CatalogRoutesOptions } from './routes.js';
export { CatalogRequestError } from './catalog-request.js';
export { createCatalogService, type CatalogService } from './catalog-service.js';
export { DEFAULT_CHANGE_DEPTH, type ChangeSearchResult } from './change-search.js';
export { parseTristate } from './catalog-filters.js';
export { type ConfigSummaryRow } from './catalog-summary.js';
export {
  createScraperScheduler,
  DEFAULT_SCRAPER_SCHEDULE,
  loadScraper,
  runScrapeJob,
  SCRAPER_JOB_NAME,
  SCRAPER_RESOURCE_TYPE,
  scraperScheduleName,
  type ScraperScheduler,
} from './scraper-scheduler.js';
export {
  DIFF_CHANGE_TYPE,
  MISSING_DELETE_REASON,
  runScrape,
  type ReconcileSummary,
  type ScrapeOutcome,
  type ScraperRow,
  type TypeSummary,
} from './scrape-engine.js';
export { applyPatch, jsonPatch, unifiedDiff, type PatchOperation } from './json-diff.js';
export { planScrape, supportedScraperTypes, UNSUPPORTED_MESSAGE } from './scrapers/registry.js';
export { ScrapeError, type RawResult, type Scraper } from './scrapers/types.js';
export {
  createScraper,
  ScrapeConfigInvalidError,
  updateScraper,
  validateScrapeConfigSpec,
  type SavedScraper,
} from './scraper-editor.js';
export { scrapeConfigSpecIssues, type SpecIssue } from './spec-validation.js';

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
