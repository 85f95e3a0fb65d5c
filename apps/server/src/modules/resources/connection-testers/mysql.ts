import mysql, { type ConnectionOptions } from 'mysql2/promise';
import { failureText, healthy, unhealthy, withTimeout, type ConnectionTester } from './types.js';

/** `mysql://user:pass@host:port/db`, or the Go driver's `user:pass@tcp(host:port)/db`. */
function mysqlOptions(url: string): ConnectionOptions {
  if (/^mysql:\/\//i.test(url)) return { uri: url };
  const dsn = /^(?:([^:@/]*)(?::([^@]*))?@)?tcp\(([^):]*)(?::(\d+))?\)\/([^?]*)/.exec(url);
  if (!dsn) throw new Error('the URL must be mysql://host:3306/db or user:pass@tcp(host:3306)/db');
  return {
    ...(dsn[1] ? { user: decodeURIComponent(dsn[1]) } : {}),
    ...(dsn[2] ? { password: decodeURIComponent(dsn[2]) } : {}),
    host: dsn[3] || '127.0.0.1',
    port: dsn[4] ? Number(dsn[4]) : 3306,
    ...(dsn[5] ? { database: decodeURIComponent(dsn[5]) } : {}),
  };
}

/** Connects with the URL and credentials and runs `SELECT VERSION()`. */
export const testMysql: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  let client: mysql.Connection | undefined;
  try {
    client = await withTimeout(
      mysql.createConnection({
        ...mysqlOptions(connection.url),
        ...(connection.username ? { user: connection.username } : {}),
        ...(connection.password ? { password: connection.password } : {}),
        connectTimeout: timeoutMs,
      }),
      timeoutMs,
      'connecting',
    );
    client.on('error', () => undefined);
    const [rows] = await client.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
    return healthy(`connected: ${String(rows[0]?.version ?? 'MySQL')}`);
  } catch (error) {
    return unhealthy(`could not connect to MySQL: ${failureText(error, connection)}`);
  } finally {
    await client?.end().catch(() => client?.destroy());
  }
};
