import http from 'node:http';
import https from 'node:https';
import { DeliveryError, type HttpRequest, type HttpResponse } from './channels/index.js';

export interface HttpSenderOptions {
  /**
   * Sends requests for a provider's origin elsewhere (`https://hooks.slack.com` →
   * `http://127.0.0.1:4000`): how a local peer stands in for a hosted provider. Paths, headers
   * and bodies are unchanged.
   */
  originOverrides?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP call of a channel; a non-2xx answer or a network error is a DeliveryError. */
export function createHttpSender(options: HttpSenderOptions = {}) {
  const overrides = options.originOverrides ?? {};
  const timeoutMs = options.timeoutMs ?? 15_000;
  return async (request: HttpRequest, provider: string): Promise<HttpResponse> => {
    let url = new URL(request.url);
    const override = overrides[url.origin];
    if (override) url = new URL(url.pathname + url.search, override);
    const client = url.protocol === 'https:' ? https : http;
    return await new Promise<HttpResponse>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: request.method,
          headers: {
            ...request.headers,
            ...(request.body === undefined ? {} : { 'Content-Length': Buffer.byteLength(request.body) }),
          },
          timeout: timeoutMs,
          ...(url.protocol === 'https:' && request.insecureTls ? { rejectUnauthorized: false } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              // The answer's text, never the URL (it holds tokens).
              reject(
                new DeliveryError(`${provider}: HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`),
              );
            } else resolve({ status, text });
          });
          response.on('error', (error) => reject(new DeliveryError(`${provider}: ${error.message}`)));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) =>
        reject(new DeliveryError(`${provider}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
      );
      if (request.body !== undefined) req.write(request.body);
      req.end();
    });
  };
}
