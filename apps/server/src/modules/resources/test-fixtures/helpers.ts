import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from '../../../platform/db/pool.js';
import { resourceKinds } from '../registry.js';
import type { SecretBox } from '../../../resource-kinds/index.js';
import type { ResourceLogger } from '../resource-logger.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  details: object;
  message: string;
}

/** A logger that keeps every line so tests can look at what was logged. */
export function recordingLogger(): ResourceLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const method = (level: LogEntry['level']) => (details: object, message: string) => {
    entries.push({ level, details, message });
  };
  return {
    entries,
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
}

/** AES-256-GCM with a random key: a real SecretBox, as the settings area will provide one. */
export function testSecretBox(): SecretBox {
  const key = randomBytes(32);
  return {
    seal(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `test:${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealedText) {
      if (!sealedText.startsWith('test:')) throw new Error('not sealed by this box');
      const raw = Buffer.from(sealedText.slice('test:'.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** Empties every resource table (and the demo marker) so the tests of one file share a database. */
export async function resetResourceTables(pool: Pool): Promise<void> {
  // DELETE rather than TRUNCATE: on a few small tables it is much faster.
  const tables = [...resourceKinds().map((kind) => kind.table)].reverse();
  await pool.query(
    [
      ...tables.map((table) => `DELETE FROM ${table}`),
      `DELETE FROM properties WHERE name = 'demo.loaded'`,
    ].join(';\n'),
  );
}

/** A fresh temporary directory and a function removing it. */
export async function temporaryDirectory(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-resources-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Polls `probe` until it returns something other than undefined/false, or fails at the deadline. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
