import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../../src/platform/config.js';
import { EmbeddedPostgres } from '../../src/platform/db/embedded-postgres.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { createPool } from '../../src/platform/db/pool.js';
import { createLogger } from '../../src/platform/logger.js';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'apps/server/migrations');

export interface TestServer {
  /** Superuser URL of the server (database `postgres`). */
  adminUrl: string;
  /** Name of a database migrated with every file in apps/server/migrations. */
  templateName: string;
  stop(): Promise<void>;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts (or attaches to) the PostgreSQL the tests use and prepares a migrated template:
 * TEST_DATABASE_URL when set, else a throw-away embedded PostgreSQL 18 in .test-data/.
 */
export async function startTestServer(): Promise<TestServer> {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopServer = async (): Promise<void> => undefined;
  if (!adminUrl) {
    const dataDir = path.join(PROJECT_ROOT, '.test-data', uniqueName('run'));
    const embedded = new EmbeddedPostgres({ dataDir, logger });
    adminUrl = (await embedded.start()).url;
    stopServer = async () => {
      await embedded.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  }
  const templateName = uniqueName('opsdeck_template');
  await adminQuery(adminUrl, `CREATE DATABASE ${templateName}`);
  const pool = createPool(databaseUrl(adminUrl, templateName), { max: 2 });
  try {
    await runMigrations(pool, MIGRATIONS_DIR);
  } catch (error) {
    await pool.end();
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
    await stopServer();
    throw error;
  }
  await pool.end();
  const server = adminUrl;
  return {
    adminUrl: server,
    templateName,
    stop: async () => {
      await adminQuery(server, `DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`).catch(() => undefined);
      await stopServer();
    },
  };
}
