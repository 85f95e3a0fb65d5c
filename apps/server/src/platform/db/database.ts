import type { OpsdeckConfig } from '../config.js';
import { InstanceLock } from '../instance-lock.js';
import type { Logger } from '../logger.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseHandle {
  url: string;
  /** 'external' (DATABASE_URL), 'embedded' (started here) or 'attached' (a running server's). */
  kind: 'external' | 'embedded' | 'attached';
  /** Releases what this process holds: stops an embedded server it started, frees the lock. */
  close(): Promise<void>;
}

/**
 * Finds the database to use: DATABASE_URL when set, else the embedded PostgreSQL in DATA_DIR.
 *
 * `mode: 'server'` owns the data directory (fails when another Opsdeck runs on it).
 * `mode: 'cli'` attaches to the embedded server of a running Opsdeck when there is one, and
 * otherwise starts it for the duration of the command, holding the same lock meanwhile.
 */
export async function openDatabase(
  config: Pick<OpsdeckConfig, 'databaseUrl' | 'dataDir'>,
  logger: Logger,
  mode: 'server' | 'cli',
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, kind: 'external', close: async () => undefined };
  }
  const lock = new InstanceLock(config.dataDir);
  const embedded = new EmbeddedPostgres({ dataDir: config.dataDir, logger });
  if (mode === 'cli' && (await lock.holder()) !== undefined) {
    const url = await embedded.runningUrl();
    if (url) return { url, kind: 'attached', close: async () => undefined };
  }
  await lock.acquire();
  try {
    const running = await embedded.start();
    return {
      url: running.url,
      kind: 'embedded',
      close: async () => {
        try {
          await embedded.stop();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
