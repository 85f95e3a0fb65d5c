import type { JsonValue } from '../../../expressions/index.js';

/** One scraper entry of a ScrapeConfig spec (`file[0]`, `http[1]`, …), as written. */
export type ScraperEntry = Record<string, unknown>;

/**
 * What a source returned for one entry, before the common fields (id, name, items, transform …)
 * are applied: a parsed document (JSON/YAML), or text for plain files.
 */
export interface RawResult {
  config: JsonValue;
  /** Where it came from (a file path, a URL, a query): the item's `source`. */
  source?: string;
  /** Defaults a source knows for its items (the file's path as id and name, for instance). */
  defaults?: { id?: string; name?: string };
}

export interface ScrapeContext {
  signal: AbortSignal;
  /** Resolves relative file paths and is the working directory of scripts. */
  baseDir: string;
}

/** A scraper type: reads its real source and returns raw results; any failure throws. */
export interface Scraper {
  /** The spec key: `file`, `http`, `sql`, `exec`. */
  readonly type: string;
  scrape(entry: ScraperEntry, context: ScrapeContext): Promise<RawResult[]>;
}

/** A readable failure of one source (bad JSON, an HTTP error, a failing query). */
export class ScrapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScrapeError';
  }
}

export function stringField(entry: ScraperEntry, key: string): string | undefined {
  const value = entry[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
