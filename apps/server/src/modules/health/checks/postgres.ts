import pg from 'pg';
import { parseSpec } from './spec-fields.js';
import { runSqlCheck, sqlEndpoint, sqlSpecSchema, type SqlCheckSpec, type SqlDriver } from './sql-check.js';
import type { CheckType } from './types.js';

/** One connection per run: checks are infrequent and must see the server as a new client would. */
const queryPostgres: SqlDriver = async (target, query) => {
  const client = new pg.Client({
    connectionString: target.url,
    ...(target.username === '' ? {} : { user: target.username }),
    ...(target.password === '' ? {} : { password: target.password }),
    connectionTimeoutMillis: target.timeoutMs,
    query_timeout: target.timeoutMs,
    statement_timeout: target.timeoutMs,
    application_name: 'opsdeck-health-check',
  });
  // A dropped connection after the result is in must not surface as an unhandled error.
  client.on('error', () => undefined);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      void client.end().catch(() => undefined);
      reject(new Error('the query was cancelled'));
    };
    if (target.signal.aborted) onAbort();
    else target.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    await Promise.race([client.connect(), aborted]);
    const result = await Promise.race([client.query<Record<string, unknown>>(query), aborted]);
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last as pg.QueryResult<Record<string, unknown>>).rows ?? [];
  } finally {
    if (onAbort) target.signal.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  }
};

export const postgresCheck: CheckType<SqlCheckSpec> = {
  type: 'postgres',
  specKey: 'postgres',
  schema: sqlSpecSchema,
  parse: (raw) => parseSpec(sqlSpecSchema, raw, 'postgres'),
  endpoint: sqlEndpoint,
  run: (spec, ctx) => runSqlCheck(spec, ctx, queryPostgres, 'postgres'),
};
