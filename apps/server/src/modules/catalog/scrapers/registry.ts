import { execScraper } from './exec.js';
import { fileScraper } from './file.js';
import { httpScraper } from './http.js';
import { sqlScrapers } from './sql.js';
import { ScrapeError, type Scraper, type ScraperEntry } from './types.js';

const SCRAPERS: ReadonlyMap<string, Scraper> = new Map(
  [fileScraper, httpScraper, execScraper, ...sqlScrapers].map((scraper) => [scraper.type, scraper]),
);

/** Spec keys that configure the scrape as a whole rather than name a source. */
export const SCRAPE_CONFIG_SETTINGS = new Set(['schedule', 'retention', 'full', 'logLevel', 'properties']);

/** The message of a run whose spec names a scraper type this server does not implement. */
export const UNSUPPORTED_MESSAGE = 'scraper type not supported yet';

export function supportedScraperTypes(): string[] {
  return [...SCRAPERS.keys()];
}

export function scraperFor(type: string): Scraper | undefined {
  return SCRAPERS.get(type);
}

export interface PlannedEntry {
  scraper: Scraper;
  entry: ScraperEntry;
  /** `file[0]`: where the entry sits in the spec, for errors. */
  label: string;
}

/**
 * The entries a spec asks to scrape, in spec order. Any source type other than file, http,
 * sql/postgres/mysql and exec (kubernetes, aws, azure, githubActions, trivy …) is stored and
 * shown but fails the run with "<type>: scraper type not supported yet"; so does a spec with
 * no source at all.
 */
export function planScrape(spec: Record<string, unknown>): PlannedEntry[] {
  const planned: PlannedEntry[] = [];
  const unsupported: string[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (SCRAPE_CONFIG_SETTINGS.has(key) || value === null || value === undefined) continue;
    const scraper = SCRAPERS.get(key);
    if (!scraper) {
      unsupported.push(key);
      continue;
    }
    const entries = Array.isArray(value) ? value : [value];
    entries.forEach((entry, index) => {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
        throw new ScrapeError(`${key}[${index}] must be an object`);
      }
      planned.push({ scraper, entry: entry as ScraperEntry, label: `${key}[${index}]` });
    });
  }
  if (unsupported.length > 0) throw new ScrapeError(`${unsupported.join(', ')}: ${UNSUPPORTED_MESSAGE}`);
  if (planned.length === 0) throw new ScrapeError('the spec names no scraper (file, http, sql, exec …)');
  return planned;
}
