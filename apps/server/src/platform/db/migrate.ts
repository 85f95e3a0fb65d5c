import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { withTransaction, type Pool } from './pool.js';

/** Any fixed 64-bit number shared by every Opsdeck process: the migration advisory lock. */
const MIGRATION_LOCK_KEY = 7_305_041_901;
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(
    readonly file: string,
    override readonly cause: unknown,
    detail: string,
  ) {
    super(`Migration ${file} failed: ${detail}. The database was left unchanged.`);
    this.name = 'MigrationError';
  }
}

export async function readMigrations(directory: string): Promise<MigrationFile[]> {
  const names = (await fs.readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  const versions = new Set<string>();
  for (const name of names) {
    const match = MIGRATION_FILE.exec(name);
    if (!match) {
      throw new Error(`Migration file name ${name} must look like 0001_lower_snake_name.sql`);
    }
    const version = match[1] as string;
    if (versions.has(version)) throw new Error(`Two migration files share the number ${version}`);
    versions.add(version);
    const sql = await fs.readFile(path.join(directory, name), 'utf8');
    files.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

function describePostgresError(error: unknown, sql: string): string {
  const failure = error as { message?: string; position?: string; detail?: string; code?: string };
  let text = failure.message ?? String(error);
  if (failure.code) text += ` (SQLSTATE ${failure.code})`;
  if (failure.position) {
    const line = sql.slice(0, Number(failure.position)).split('\n').length;
    text += ` at line ${line}`;
  }
  if (failure.detail) text += `; ${failure.detail}`;
  return text;
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so that several
 * processes starting at once apply each file once, and a failing file leaves nothing behind.
 */
export async function runMigrations(
  pool: Pool,
  directory: string,
  logger?: Pick<Logger, 'info' | 'warn'>,
): Promise<{ applied: string[] }> {
  const files = await readMigrations(directory);
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: string; checksum: string; name: string }>(
      'SELECT version, name, checksum FROM schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.version, row]));
    const newlyApplied: string[] = [];
    for (const file of files) {
      const previous = applied.get(file.version);
      if (previous) {
        if (previous.checksum !== file.checksum) {
          logger?.warn(
            { migration: file.name },
            'a migration file changed after it was applied; the change is not re-applied',
          );
        }
        continue;
      }
      try {
        await client.query(file.sql);
      } catch (error) {
        throw new MigrationError(file.name, error, describePostgresError(error, file.sql));
      }
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        file.version,
        file.name,
        file.checksum,
      ]);
      newlyApplied.push(file.name);
    }
    if (newlyApplied.length > 0) logger?.info({ migrations: newlyApplied }, 'applied migrations');
    return { applied: newlyApplied };
  });
}
