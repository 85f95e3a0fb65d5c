/**
 * The catalog module: ScrapeConfig scrapers (file, http, sql/postgres/mysql, exec) and their
 * schedules, reconciling scraped items into config_items with changes, insights, relationships
 * and retention, and the catalog API (summary, change search, Run Now).
 */

export { catalogRoutes, type CatalogRoutesOptions } from './routes.js';
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
  scrapeConfigInvalid,
  updateScraper,
  validateScrapeConfigSpec,
  type SavedScraper,
} from './scraper-editor.js';
export { scrapeConfigSpecIssues, type SpecIssue } from './spec-validation.js';
export { startCatalogWorkers, type CatalogWorkers, type CatalogWorkersOptions } from './workers.js';
export { catalogModule } from './module.js';
export { scrapeConfigKind } from './scrape-config-kind.js';
export { linkConfigsToComponent, selectConfigs, type ConfigSelector } from './component-links.js';
