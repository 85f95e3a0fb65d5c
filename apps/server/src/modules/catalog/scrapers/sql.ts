import mysql from 'mysql2/promise';
import pg from 'pg';
import { toJsonValue } from '../../../expressions/index.js';
import {
  ScrapeError,
  stringField,
  type RawResult,
  type ScrapeContext,
  type Scraper,
  type ScraperEntry,
} from './types.js';

const QUERY_TIMEOUT_MS = 60_000;

type Driver = 'postgres' | 'mysql';

function driverOf(url: string, declared: string | undefined): Driver {
  const name = (declared ?? new URL(url).protocol.replace(/:$/, '')).toLowerCase();
  if (['postgres', 'postgresql', 'pgx'].includes(name)) return 'postgres';
  if (['mysql', 'mariadb'].includes(name)) return 'mysql';
  throw new ScrapeError(`sql: unsupported driver "${name}": use a postgres:// or mysql:// connection`);
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the connection';
  }
}

async function queryPostgres(url: string, query: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, statement_timeout: QUERY_TIMEOUT_MS });
  await client.connect();
  try {
    const result = await client.query(query);
    // A multi-statement query answers with one result per statement: the last one holds the rows.
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last as pg.QueryResult<Record<string, unknown>>).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function queryMysql(url: string, query: string): Promise<Record<string, unknown>[]> {
  const connection = await mysql.createConnection({ uri: url, connectTimeout: 10_000 });
  try {
    const [rows] = await connection.query({ sql: query, timeout: QUERY_TIMEOUT_MS });
    if (!Array.isArray(rows)) return [];
    return rows as Record<string, unknown>[];
  } finally {
    await connection.end().catch(() => undefined);
  }
}

/**
 * `sql` (and its aliases `postgres`, `mysql`): runs `query` against `connection` (a
 * postgres:// or mysql:// URL; `url` is accepted too) and makes every row an item.
 */
function sqlScraper(type: string, fixedDriver?: Driver): Scraper {
  return {
    type,
    async scrape(entry: ScraperEntry, context: ScrapeContext): Promise<RawResult[]> {
      const url = stringField(entry, 'connection') ?? stringField(entry, 'url');
      const query = stringField(entry, 'query');
      if (!url) throw new ScrapeError(`${type}: connection is required`);
      if (!query) throw new ScrapeError(`${type}: query is required`);
      const driver = fixedDriver ?? driverOf(url, stringField(entry, 'driver'));
      context.signal.throwIfAborted();
      let rows: Record<string, unknown>[];
      try {
        rows = driver === 'postgres' ? await queryPostgres(url, query) : await queryMysql(url, query);
      } catch (error) {
        if (error instanceof ScrapeError) throw error;
        throw new ScrapeError(`${type}: query on ${redact(url)} failed: ${(error as Error).message}`);
      }
      return rows.map((row) => ({ config: toJsonValue(row), source: redact(url) }));
    },
  };
}

export const sqlScrapers: Scraper[] = [
  sqlScraper('sql'),
  sqlScraper('postgres', 'postgres'),
  sqlScraper('mysql', 'mysql'),
];
