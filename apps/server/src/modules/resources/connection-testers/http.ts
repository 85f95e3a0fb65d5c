import http from 'node:http';
import https from 'node:https';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

/**
 * HTTP, Prometheus and Elasticsearch endpoints: a GET of the URL with basic authentication when
 * a username is set; healthy on 2xx and 3xx, unhealthy with the status otherwise, or with the
 * TLS or network error (a certificate refused unless Insecure TLS is set).
 */
export const testHttp: ConnectionTester = (connection, timeoutMs) => {
  if (!connection.url) return Promise.resolve(unhealthy('the connection has no URL'));
  let target: URL;
  try {
    target = new URL(connection.url);
  } catch {
    return Promise.resolve(unhealthy('the URL is not a valid http:// or https:// address'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.resolve(unhealthy('the URL is not a valid http:// or https:// address'));
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'opsdeck-connection-test' };
  if (connection.username)
    headers.authorization = `Basic ${Buffer.from(`${connection.username ?? ''}:${connection.password ?? ''}`).toString('base64')}`;
  else if (connection.password) headers.authorization = `Bearer ${connection.password}`;
  return new Promise((resolve) => {
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'GET',
        headers,
        timeout: timeoutMs,
        ...(target.protocol === 'https:' ? { rejectUnauthorized: !connection.insecureTls } : {}),
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        const line = `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
        if (status >= 200 && status < 400) resolve(healthy(`connected: ${line}`));
        else if (status === 401 || status === 403)
          resolve(unhealthy(`the server refused the credentials: ${line}`));
        else resolve(unhealthy(`the server answered ${line}`));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => {
      const code = (error as { code?: string }).code ?? '';
      const tls = /CERT|SSL|TLS|SELF_SIGNED/i.test(code) ? 'TLS: ' : '';
      resolve(unhealthy(`could not reach ${target.host}: ${tls}${failureText(error, connection)}`));
    });
    request.end();
  });
};
