import { Redis } from 'ioredis';
import { failureText, healthy, unhealthy, withTimeout, type ConnectionTester } from './types.js';

/** `redis://host:6379` or `host:6379`, the Database from the properties; answers PING. */
export const testRedis: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  const url = /^rediss?:\/\//.test(connection.url) ? connection.url : `redis://${connection.url}`;
  const db = Number(connection.properties?.db ?? '0');
  if (!Number.isInteger(db) || db < 0) return unhealthy('Database must be a number from 0');
  const client = new Redis(url, {
    ...(connection.username ? { username: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
    db,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    ...(url.startsWith('rediss://') ? { tls: { rejectUnauthorized: !connection.insecureTls } } : {}),
  });
  // A refused AUTH closes the connection: the server's answer is the error worth showing.
  let serverError: unknown;
  client.on('error', (error) => {
    serverError ??= error;
  });
  try {
    await withTimeout(client.connect(), timeoutMs, 'connecting');
    const answer = await withTimeout(client.ping(), timeoutMs, 'PING');
    return healthy(`connected: PING answered ${answer}`);
  } catch (error) {
    const reason = serverError && /closed/i.test(failureText(error, connection)) ? serverError : error;
    return unhealthy(`could not connect to Redis: ${failureText(reason, connection)}`);
  } finally {
    client.disconnect();
  }
};
