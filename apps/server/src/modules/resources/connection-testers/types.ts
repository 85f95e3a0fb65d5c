import type { ConnectionTestStatus } from '@opsdeck/contracts';
import type { OpenedConnection } from '../connection-resolver.js';

/** What one test found: never a credential in the message. */
export interface TesterOutcome {
  status: ConnectionTestStatus;
  message: string;
}

/** Connects to the connection's system and says whether that worked, and if not, what failed. */
export type ConnectionTester = (connection: OpenedConnection, timeoutMs: number) => Promise<TesterOutcome>;

export const healthy = (message: string): TesterOutcome => ({ status: 'healthy', message });
export const unhealthy = (message: string): TesterOutcome => ({ status: 'unhealthy', message });

/** An error's message with any of the given secrets blotted out (drivers sometimes echo a URL). */
export function failureText(error: unknown, connection: OpenedConnection): string {
  let text =
    error instanceof AggregateError && error.errors.length > 0
      ? error.errors
          .map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner)))
          .join('; ')
      : error instanceof Error
        ? error.message || error.name
        : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (text === '' && typeof code === 'string') text = code;
  for (const secret of [
    connection.password,
    connection.certificate,
    ...Object.values(connection.properties ?? {}),
  ])
    if (secret && secret.length >= 4) text = text.split(secret).join('********');
  return text;
}

/** Rejects after timeoutMs with a message naming what took too long. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
