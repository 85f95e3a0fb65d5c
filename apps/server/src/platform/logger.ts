import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths redacted from every log line. Secrets never reach a log: request credentials, and any
 * field whose name says it holds one, at the depths our objects use.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...['password', 'token', 'secret', 'access_token', 'accessToken', 'apiKey', 'api_key'].flatMap((key) => [
    key,
    `*.${key}`,
    `*.*.${key}`,
  ]),
];

/** Query parameters whose values are credentials (webhook pushes send `?token=`). */
const SECRET_QUERY_PARAMETERS = /([?&](?:token|password|secret|access_token|api_key|apikey)=)[^&#]*/gi;

/** A URL as logged: the values of credential query parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETERS, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    base: { service: 'opsdeck' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Fastify's request line, with credentials in the query string redacted.
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
