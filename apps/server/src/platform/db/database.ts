import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PlatformConfig } from '../config.js';
import { InstanceLock } from '../instance-lock.js';
import type { Logger } from '../logger.js';
import { EmbeddedPostgres, pgdataOf } from './embedded-postgres.js';

export interface DatabaseHandle {
  url: string;
  /** 'external' (DATABASE_URL), 'embedded' (started here) or 'attached' (a running server's). */
  kind: 'external' | 'embedded' | 'attached';
  /** Which database this is, in words, for the user (never a password). */
  description: string;
  /** Releases what this process holds: stops an embedded server it started, frees the lock. */
  close(): Promise<void>;
}

/**
 * A command that works on an existing database found none in the data directory: starting the
 * embedded PostgreSQL there would create a new, empty one beside the user's real one.
 */
export class NoDatabaseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `There is no Opsdeck database in the data directory ${dataDir}, and this command would create ` +
        'a new, empty one. Set DATA_DIR to the data directory your server uses (it prints ' +
        '"Data directory: …" when it starts) or DATABASE_URL to its PostgreSQL; ' +
        '"opsdeck serve" and "opsdeck migrate" create a new database.',
    );
    this.name = 'NoDatabaseError';
  }
}

/** `postgres://user:secret@db:5432/ops` → `db:5432/ops`: where, without credentials. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

/** True when the data directory holds an initialised embedded PostgreSQL cluster. */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(path.join(pgdataOf(dataDir), 'PG_VERSION'));
}

/**
 * Finds the database to use: DATABASE_URL when set, else the embedded PostgreSQL in DATA_DIR.
 *
 * `mode: 'server'` owns the data directory (fails when another Opsdeck runs on it).
 * `mode: 'cli'` attaches to the embedded server of a running Opsdeck when there is one, and
 * otherwise starts it for the duration of the command, holding the same lock meanwhile. With
 * `createEmbedded: false` it refuses (NoDatabaseError) rather than initialise a new cluster in a
 * data directory that has none.
 */
export async function openDatabase(
  config: Pick<PlatformConfig, 'databaseUrl' | 'dataDir'>,
  logger: Logger,
  mode: 'server' | 'cli',
  options: { createEmbedded?: boolean } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return {
      url: config.databaseUrl,
      kind: 'external',
      description: `the external PostgreSQL in DATABASE_URL (${describeUrl(config.databaseUrl)})`,
      close: async () => undefined,
    };
  }
  const lock = new InstanceLock(config.dataDir);
  const embedded = new EmbeddedPostgres({ dataDir: config.dataDir, logger });
  if (mode === 'cli') {
    const holder = await lock.holder();
    const url = holder === undefined ? undefined : await embedded.runningUrl();
    if (url) {
      return {
        url,
        kind: 'attached',
        description: `the embedded PostgreSQL in ${config.dataDir}, of the Opsdeck server running on it (pid ${holder})`,
        close: async () => undefined,
      };
    }
  }
  if (options.createEmbedded === false && !hasEmbeddedDatabase(config.dataDir)) {
    throw new NoDatabaseError(config.dataDir);
  }
  await lock.acquire();
  try {
    const existed = hasEmbeddedDatabase(config.dataDir);
    const running = await embedded.start();
    return {
      url: running.url,
      kind: 'embedded',
      description:
        mode === 'cli'
          ? `the embedded PostgreSQL in ${config.dataDir} (${existed ? 'no server is running on it: started for this command' : 'created now'})`
          : `the embedded PostgreSQL in ${config.dataDir}`,
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
