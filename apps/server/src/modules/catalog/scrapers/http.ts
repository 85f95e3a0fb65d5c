import { evaluate, toJsonValue, type JsonValue } from '../../../expressions/index.js';
import { formatOf, parseDocuments } from './parse.js';
import {
  ScrapeError,
  stringField,
  type RawResult,
  type ScrapeContext,
  type Scraper,
  type ScraperEntry,
} from './types.js';

/** Pages fetched at most when a pagination expression keeps returning a next page. */
export const DEFAULT_MAX_PAGES = 100;
const REQUEST_TIMEOUT_MS = 30_000;

function headersOf(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const header of value) {
      if (header && typeof header === 'object' && typeof (header as { name?: unknown }).name === 'string') {
        const { name, value: headerValue } = header as { name: string; value?: unknown };
        headers[name] = headerValue === undefined || headerValue === null ? '' : String(headerValue);
      }
    }
  } else if (value && typeof value === 'object') {
    for (const [name, headerValue] of Object.entries(value)) headers[name] = String(headerValue);
  }
  return headers;
}

interface Pagination {
  nextPageExpr: string;
  reduce?: string;
  maxPages: number;
}

function paginationOf(value: unknown): Pagination | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const spec = value as Record<string, unknown>;
  const nextPageExpr = stringField(spec, 'nextPageExpr');
  if (!nextPageExpr) throw new ScrapeError('http: pagination needs nextPageExpr');
  const maxPages = typeof spec.maxPages === 'number' && spec.maxPages > 0 ? spec.maxPages : DEFAULT_MAX_PAGES;
  return { nextPageExpr, reduce: stringField(spec, 'reduce'), maxPages };
}

/**
 * `http`: one request, or a chain of pages. With `pagination.nextPageExpr` (CEL over `response`
 * {body, headers, status, url} and `request` {url, page}) each page names the next URL (an
 * empty or null result ends the chain); the pages are joined by `pagination.reduce` (CEL over
 * `pages`) or, by default, array pages are concatenated and other pages listed.
 */
export const httpScraper: Scraper = {
  type: 'http',
  async scrape(entry: ScraperEntry, context: ScrapeContext): Promise<RawResult[]> {
    const firstUrl = stringField(entry, 'url');
    if (!firstUrl) throw new ScrapeError('http: url is required');
    const method = (stringField(entry, 'method') ?? 'GET').toUpperCase();
    const headers = headersOf(entry.headers);
    const body =
      entry.body === undefined || entry.body === null
        ? undefined
        : typeof entry.body === 'string'
          ? entry.body
          : JSON.stringify(entry.body);
    const pagination = paginationOf(entry.pagination);
    const pages: JsonValue[] = [];
    let url: string | undefined = firstUrl;
    const seen = new Set<string>();
    while (url) {
      if (seen.has(url)) throw new ScrapeError(`http: pagination loops back to ${url}`);
      seen.add(url);
      if (pages.length >= (pagination?.maxPages ?? 1)) {
        if (pagination) throw new ScrapeError(`http: more than ${pagination.maxPages} pages`);
        break;
      }
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
      let response: Response;
      try {
        response = await fetch(url, { method, headers, body, signal });
      } catch (error) {
        throw new ScrapeError(`http: ${method} ${url} failed: ${(error as Error).message}`);
      }
      const text = await response.text();
      if (!response.ok) {
        throw new ScrapeError(
          `http: ${method} ${url} returned ${response.status} ${response.statusText}`.trim(),
        );
      }
      const contentType = response.headers.get('content-type') ?? '';
      const declared =
        entry.format ??
        (contentType.includes('json') ? 'json' : contentType.includes('yaml') ? 'yaml' : 'json');
      const [page = null] = parseDocuments(text, formatOf(declared, url), `http: ${url}`);
      pages.push(page);
      if (!pagination) break;
      const next = await evaluate(
        { expr: pagination.nextPageExpr },
        {
          response: {
            body: page,
            headers: Object.fromEntries(response.headers),
            status: response.status,
            url,
          },
          request: { url, page: pages.length },
        },
      );
      url = typeof next === 'string' && next.trim() !== '' ? new URL(next, url).toString() : undefined;
    }
    let config: JsonValue;
    if (!pagination) config = pages[0] ?? null;
    else if (pagination.reduce) config = await evaluate({ expr: pagination.reduce }, { pages });
    else if (pages.every(Array.isArray)) config = (pages as JsonValue[][]).flat();
    else config = pages;
    return [{ config: toJsonValue(config), source: firstUrl, defaults: { id: firstUrl, name: firstUrl } }];
  },
};
