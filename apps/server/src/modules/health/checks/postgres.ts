import pg from 'pg';
import { parseSpec } from './spec-fields.js';
import { runSqlCheck, sqlEndpoint, sqlSpecSchema, type SqlCheckSpec, type SqlDriver } from './sql-check.js';
import { CheckSpecError, type CheckType } from './types.js';

/**
 * libpq's keyword/value form (`host=db port=5432 user=app dbname=orders sslmode=disable`, values
 * optionally single-quoted) as pg client options; URLs are left to pg's own parser.
 */
export function postgresConnectionOptions(text: string): pg.ClientConfig {
  const trimmed = text.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed) || !/^\w+\s*=/.test(trimmed)) return { connectionString: trimmed };
  const values: Record<string, string> = {};
  const pattern = /(\w+)\s*=\s*(?:'((?:\\.|[^'\\])*)'|(\S*))/g;
  let rest = trimmed;
  for (const match of trimmed.matchAll(pattern)) {
    values[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
    rest = rest.replace(match[0], '');
  }
  if (rest.trim() !== '')
    throw new CheckSpecError(`invalid postgres connection string near "${rest.trim()}"`);
  const known = new Set([
    'host',
    'hostaddr',
    'port',
    'user',
    'password',
    'dbname',
    'sslmode',
    'connect_timeout',
    'application_name',
    'options',
  ]);
  const unknown = Object.keys(values).filter((key) => !known.has(key));
  if (unknown.length > 0)
    throw new CheckSpecError(`postgres connection string: ${unknown.join(', ')} is not supported`);
  const sslmode = values.sslmode ?? 'disable';
  const ssl: pg.ClientConfig['ssl'] =
    sslmode === 'disable' || sslmode === 'allow' || sslmode === 'prefer'
      ? false
      : sslmode === 'require'
        ? { rejectUnauthorized: false }
        : true;
  return {
    host: values.hostaddr ?? values.host,
    port: values.port ? Number(values.port) : undefined,
    user: values.user,
    password: values.password,
    database: values.dbname,
    ssl,
    options: values.options,
  };
}

/** One connection per run: checks are infrequent and must see the server as a new client would. */
const queryPostgres: SqlDriver = async (target, query) => {
  const client = new pg.Client({
    ...postgresConnectionOptions(target.url),
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
