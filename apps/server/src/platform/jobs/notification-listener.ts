import pg from 'pg';
import { errorMessage, type JobsLogger } from './support.js';

export interface NotificationListenerOptions {
  pool: pg.Pool;
  channel: string;
  logger: JobsLogger;
  /** Called for every notification, and after each (re)connect since notifications sent while
   * disconnected are lost. */
  onWake: (payload: string | undefined) => void;
  /** Called when the connection is lost (notifications are missed until the next onWake). */
  onLost?: () => void;
  /** First reconnect delay; doubles up to maxReconnectDelayMs. Default 500 ms. */
  reconnectDelayMs?: number;
  /** Default 30 s. */
  maxReconnectDelayMs?: number;
}

export interface NotificationListener {
  close(): Promise<void>;
}

/**
 * LISTENs on one channel over a dedicated connection (not a pool slot: a pooled client held
 * forever would shrink the pool and be recycled under us). Notifications only wake consumers
 * early; polling stays the guarantee, so a lost connection is logged and retried, never fatal.
 */
export function listenForNotifications(options: NotificationListenerOptions): NotificationListener {
  const { pool, channel, logger, onWake } = options;
  const baseDelay = options.reconnectDelayMs ?? 500;
  const maxDelay = options.maxReconnectDelayMs ?? 30_000;
  let client: pg.Client | undefined;
  let closed = false;
  let delay = baseDelay;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const candidate = new pg.Client({ ...pool.options, application_name: 'opsdeck-jobs-listener' });
    candidate.on('error', (error) => {
      logger.warn({ channel, err: errorMessage(error) }, 'notification listener connection lost');
      dropAndRetry(candidate);
    });
    candidate.on('end', () => dropAndRetry(candidate));
    candidate.on('notification', (message) => {
      if (message.channel === channel) onWake(message.payload);
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      logger.warn({ channel, err: errorMessage(error) }, 'notification listener could not connect');
      dropAndRetry(candidate);
      return;
    }
    if (closed) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    delay = baseDelay;
    onWake(undefined);
  };

  const dropAndRetry = (failed: pg.Client): void => {
    failed.removeAllListeners('end');
    failed.removeAllListeners('notification');
    failed.end().catch(() => undefined);
    if (client === failed) client = undefined;
    options.onLost?.();
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, maxDelay);
  };

  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        await current.end().catch(() => undefined);
      }
    },
  };
}
