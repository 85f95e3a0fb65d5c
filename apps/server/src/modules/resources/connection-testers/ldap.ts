import { Client } from 'ldapts';
import { failureText, healthy, unhealthy, withTimeout, type ConnectionTester } from './types.js';

/** LDAP result codes a bind meets, by their RFC 4511 §4.1.9 names. */
const RESULT_NAMES: Record<number, string> = {
  32: 'noSuchObject',
  34: 'invalidDNSyntax',
  48: 'inappropriateAuthentication',
  49: 'invalidCredentials',
  50: 'insufficientAccessRights',
  53: 'unwillingToPerform',
};

/** Binds with the username (a DN) and password; an anonymous bind without a username. */
export const testLdap: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  if (!/^ldaps?:\/\//i.test(connection.url)) return unhealthy('the URL must start with ldap:// or ldaps://');
  const client = new Client({
    url: connection.url,
    timeout: timeoutMs,
    connectTimeout: timeoutMs,
    ...(/^ldaps:/i.test(connection.url)
      ? { tlsOptions: { rejectUnauthorized: !connection.insecureTls } }
      : {}),
  });
  try {
    await withTimeout(
      client.bind(connection.username ?? '', connection.password ?? ''),
      timeoutMs,
      'binding',
    );
    return healthy(connection.username ? `bound as ${connection.username}` : 'bound anonymously');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const named = typeof code === 'number' ? RESULT_NAMES[code] : undefined;
    const reason = named ? `${named} (LDAP result ${code})` : failureText(error, connection);
    return unhealthy(`could not bind to LDAP: ${reason}`);
  } finally {
    await client.unbind().catch(() => undefined);
  }
};
