import nodemailer from 'nodemailer';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

/**
 * Email: connects to Host:Port (default 587) with the encryption method (ImplicitTLS is TLS from
 * the first byte; None never upgrades; ExplicitTLS requires STARTTLS; Auto upgrades when offered)
 * and logs in when a username is set.
 */
export const testSmtp: ConnectionTester = async (connection, timeoutMs) => {
  const properties = connection.properties ?? {};
  const host = properties.host;
  if (!host) return unhealthy('the connection has no Host');
  const port = Number(properties.port || '587');
  const encryption = properties.encryption || 'Auto';
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: encryption === 'ImplicitTLS',
    ignoreTLS: encryption === 'None',
    requireTLS: encryption === 'ExplicitTLS',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    tls: { rejectUnauthorized: !connection.insecureTls },
    ...(connection.username ? { auth: { user: connection.username, pass: connection.password ?? '' } } : {}),
  });
  try {
    await transport.verify();
    return healthy(`connected to ${host}:${port}${connection.username ? ` as ${connection.username}` : ''}`);
  } catch (error) {
    return unhealthy(`could not connect to ${host}:${port}: ${failureText(error, connection)}`);
  } finally {
    transport.close();
  }
};
