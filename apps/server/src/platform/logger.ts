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

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    base: { service: 'opsdeck' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
