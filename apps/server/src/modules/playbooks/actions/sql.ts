import mysql from 'mysql2/promise';
import pg from 'pg';
import { openConnection } from './connections.js';
import { ActionFailure, type PlaybookActionType } from './types.js';

/** Rows kept in the result. */
const ROW_LIMIT = 1000;

function driverOf(driver: unknown, url: string): 'postgres' | 'mysql' {
  const named = typeof driver === 'string' ? driver.toLowerCase() : '';
  if (named === 'postgres' || named === 'postgresql') return 'postgres';
  if (named === 'mysql' || named === 'mariadb') return 'mysql';
  if (named !== '')
    throw new ActionFailure(`sql: driver "${named}" is not supported here (use postgres or mysql)`);
  if (/^postgres(ql)?:/i.test(url)) return 'postgres';
  if (/^(mysql|mariadb):/i.test(url)) return 'mysql';
  throw new ActionFailure('sql: cannot tell the driver from the URL; set driver to postgres or mysql');
}

/** A URL with the connection's username and password filled in (when it has none). */
function withCredentials(url: string, username?: string, password?: string): string {
  if (!username) return url;
  const parsed = new URL(url.replace(/^mariadb:/i, 'mysql:'));
  if (parsed.username === '') {
    parsed.username = encodeURIComponent(username);
    if (password) parsed.password = encodeURIComponent(password);
  }
  return parsed.toString();
}

/** Driver errors can quote the URL; keep only what names the problem. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/[a-z]+:\/\/[^\s]+/gi, '<url>');
}

/**
 * `sql`: one query on PostgreSQL or MySQL/MariaDB, through a connection or a URL. The rows
 * (up to 1000) and the affected count are the result.
 */
export const sqlAction: PlaybookActionType = {
  type: 'sql',
  async run(spec, context) {
    const query = spec.query;
    if (typeof query !== 'string' || query.trim() === '') throw new ActionFailure('sql: query is required');
    const connection = await openConnection(spec, context);
    const baseUrl = (typeof spec.url === 'string' && spec.url !== '' ? spec.url : connection?.url) ?? '';
    if (baseUrl === '') throw new ActionFailure('sql: url or connection is required');
    const driver = driverOf(spec.driver ?? connection?.type?.replace(/^sql_?/, ''), baseUrl);
    const url = withCredentials(
      baseUrl,
      (spec.username as string | undefined) ?? connection?.username,
      (spec.password as string | undefined) ?? connection?.password,
    );
    const timeout = Math.max(1, context.timeoutMs);
    try {
      if (driver === 'postgres') {
        const client = new pg.Client({
          connectionString: url,
          statement_timeout: timeout,
          connectionTimeoutMillis: timeout,
        });
        await client.connect();
        const onAbort = () => void client.end().catch(() => undefined);
        context.signal.addEventListener('abort', onAbort);
        try {
          const result = await client.query(query);
          const last = Array.isArray(result) ? (result.at(-1) as pg.QueryResult) : result;
          return {
            result: { rows: last.rows.slice(0, ROW_LIMIT), count: last.rowCount ?? last.rows.length },
          };
        } finally {
          context.signal.removeEventListener('abort', onAbort);
          await client.end().catch(() => undefined);
        }
      }
      const connectionUrl = url.replace(/^mariadb:/i, 'mysql:');
      const client = await mysql.createConnection({ uri: connectionUrl, connectTimeout: timeout });
      const onAbort = () => client.destroy();
      context.signal.addEventListener('abort', onAbort);
      try {
        const [rows] = await client.query({ sql: query, timeout });
        if (Array.isArray(rows)) {
          return { result: { rows: (rows as unknown[]).slice(0, ROW_LIMIT), count: rows.length } };
        }
        return { result: { rows: [], count: (rows as { affectedRows?: number }).affectedRows ?? 0 } };
      } finally {
        context.signal.removeEventListener('abort', onAbort);
        await client.end().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof ActionFailure) throw error;
      throw new ActionFailure(`sql: ${describe(error)}`);
    }
  },
};
