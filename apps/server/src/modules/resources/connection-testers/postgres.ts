import pg from 'pg';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

/** Connects with the URL and credentials and runs `SELECT version()`. */
export const testPostgres: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  // The URL's own credentials win in pg's parser: the connection's go into the URL.
  let connectionString = connection.url;
  if (/^postgres(ql)?:\/\//i.test(connectionString) && (connection.username || connection.password)) {
    try {
      const url = new URL(connectionString);
      if (connection.username) url.username = encodeURIComponent(connection.username);
      if (connection.password) url.password = encodeURIComponent(connection.password);
      connectionString = url.toString();
    } catch {
      return unhealthy('the URL is not a valid postgres:// address');
    }
  }
  const client = new pg.Client({
    connectionString,
    ...(connection.username ? { user: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    return healthy(`connected: ${rows[0]?.version.split(' ').slice(0, 2).join(' ') ?? 'PostgreSQL'}`);
  } catch (error) {
    return unhealthy(`could not connect to PostgreSQL: ${failureText(error, connection)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
};
