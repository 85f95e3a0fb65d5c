import { Client } from 'ldapts';
import { failureText, healthy, unhealthy, withTimeout, type ConnectionTester } from './types.js';

/** Binds with the username (a DN) and password; an anonymous bind without a username. */
export const testLdap: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  if (!/^ldaps?:\/\//i.test(connection.url)) return unhealthy('the URL must start with ldap:// or ldaps://');
  const client = new Client({
    url: connection.url,
    timeout: timeoutMs,
    connectTimeout: timeoutMs,
    tlsOptions: { rejectUnauthorized: !connection.insecureTls },
  });
  try {
    await withTimeout(
      client.bind(connection.username ?? '', connection.password ?? ''),
      timeoutMs,
      'binding',
    );
    return healthy(connection.username ? `bound as ${connection.username}` : 'bound anonymously');
  } catch (error) {
    return unhealthy(`could not bind to LDAP: ${failureText(error, connection)}`);
  } finally {
    await client.unbind().catch(() => undefined);
  }
};
