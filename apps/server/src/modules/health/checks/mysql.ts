import type { ConnectionOptions } from 'mysql2/promise';
import { parseSpec } from './spec-fields.js';
import { runSqlCheck, sqlEndpoint, sqlSpecSchema, type SqlCheckSpec, type SqlDriver } from './sql-check.js';
import { CheckSpecError, type CheckType } from './types.js';

/**
 * Connection options from either a mysql:// URL or the Go driver's DSN form that the ecosystem's
 * specs use (`user:pass@tcp(host:3306)/db?param=value`).
 */
export function mysqlConnectionOptions(url: string): ConnectionOptions {
  // `mysql://user:pass@tcp(host:3306)/db` is the Go DSN behind a scheme, as the ecosystem accepts.
  if (/^mysql:\/\//i.test(url) && /(^mysql:\/\/|@)(tcp|unix)\(/i.test(url))
    return mysqlConnectionOptions(url.replace(/^mysql:\/\//i, ''));
  if (/^mysql:\/\//i.test(url)) return { uri: url };
  const dsn = /^(?:([^:@/]*)(?::([^@]*))?@)?(?:(tcp|unix)\(([^)]*)\))?\/([^?]*)(?:\?(.*))?$/.exec(url);
  if (!dsn)
    throw new CheckSpecError(
      'invalid mysql check: url must be mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db',
    );
  const [, user, password, protocol, address, database, query] = dsn;
  const options: ConnectionOptions = {};
  if (user) options.user = decodeURIComponent(user);
  if (password) options.password = decodeURIComponent(password);
  if (database) options.database = decodeURIComponent(database);
  if (protocol === 'unix' && address) options.socketPath = address;
  else if (address) {
    const hostPort = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]*)(?::(\d+))?$/.exec(address);
    if (hostPort?.[1]) options.host = hostPort[1];
    if (hostPort?.[2]) options.port = Number(hostPort[2]);
  }
  const params = new URLSearchParams(query ?? '');
  const charset = params.get('charset');
  if (charset) options.charset = charset.split(',')[0];
  return options;
}

const queryMysql: SqlDriver = async (target, query) => {
  // Imported when a check runs: `opsdeck apply` validates specs without loading the driver.
  const { default: mysql } = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    ...mysqlConnectionOptions(target.url),
    ...(target.username === '' ? {} : { user: target.username }),
    ...(target.password === '' ? {} : { password: target.password }),
    connectTimeout: target.timeoutMs,
    multipleStatements: false,
    dateStrings: false,
    supportBigNumbers: true,
  });
  connection.on('error', () => undefined);
  const onAbort = () => connection.destroy();
  target.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const [rows] = await connection.query({ sql: query, timeout: target.timeoutMs });
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  } finally {
    target.signal.removeEventListener('abort', onAbort);
    await connection.end().catch(() => connection.destroy());
  }
};

export const mysqlCheck: CheckType<SqlCheckSpec> = {
  type: 'mysql',
  specKey: 'mysql',
  schema: sqlSpecSchema,
  parse: (raw) => parseSpec(sqlSpecSchema, raw, 'mysql'),
  endpoint: sqlEndpoint,
  run: (spec, ctx) => runSqlCheck(spec, ctx, queryMysql, 'mysql'),
};
