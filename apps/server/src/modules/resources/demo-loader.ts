import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from '../../platform/db/pool.js';
import { logApplyResults } from './directory-watcher.js';
import { parseResourceDocuments } from './documents.js';
import { collectResourceFiles } from './resource-files.js';
import type { SecretBox } from '../../resource-kinds/index.js';
import type { ResourceLogger } from './resource-logger.js';
import { applyResources, countAllResources, type ApplyResult } from './resource-store.js';
import { addPropertyIfAbsent, propertyExists } from '../settings/index.js';

/** Property recording that the demo was decided: 'true' loaded, 'false' skipped. */
export const DEMO_LOADED_PROPERTY = 'demo.loaded';

export interface DemoLoadReport {
  /**
   * - `loaded`: this call applied the demo files.
   * - `already-decided`: an earlier start loaded (or skipped) them; nothing was done.
   * - `skipped-not-empty`: the database already held resources; recorded, never retried.
   * - `no-demo-files`: the demo directory is missing or empty; nothing was recorded.
   */
  status: 'loaded' | 'already-decided' | 'skipped-not-empty' | 'no-demo-files';
  results: ApplyResult[];
}

async function recordDecision(pool: Pool, value: 'true' | 'false', description: string): Promise<void> {
  await addPropertyIfAbsent(pool, { name: DEMO_LOADED_PROPERTY, value, type: 'boolean', description });
}

/**
 * `${NAME}` in a demo file where `variables` has NAME becomes its value (other text is kept):
 * demo/health.yaml checks the server at `http://localhost:${OPSDECK_PORT}/healthz`.
 */
export function substituteDemoVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] as string) : whole,
  );
}

/**
 * Applies every YAML file under `demoDir` (source `demo/<file>`) on the first start of an empty
 * database, and records in the properties table that it did, so that demo resources the user
 * deleted never come back. Replicas starting together load it once (advisory lock).
 * `variables` fill the files' `${NAME}` placeholders (the server passes OPSDECK_PORT, the port it
 * listens on).
 */
export async function loadDemoResources(
  pool: Pool,
  demoDir: string,
  logger: ResourceLogger,
  options: { secrets?: SecretBox; variables?: Readonly<Record<string, string>> } = {},
): Promise<DemoLoadReport> {
  const { variables = {}, ...applyOptions } = options;
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', ['opsdeck.demo']);
    if (await propertyExists(lock, DEMO_LOADED_PROPERTY)) return { status: 'already-decided', results: [] };
    if ((await countAllResources(lock)) > 0) {
      await recordDecision(pool, 'false', 'Demo resources not loaded: the database already held resources');
      logger.info({}, 'demo resources not loaded: the database already holds resources');
      return { status: 'skipped-not-empty', results: [] };
    }
    const { files } = await collectResourceFiles([demoDir]);
    if (files.length === 0) {
      logger.warn({ demoDir }, 'no demo resources found');
      return { status: 'no-demo-files', results: [] };
    }
    const results: ApplyResult[] = [];
    for (const file of files) {
      const label = `demo/${path.relative(demoDir, file).split(path.sep).join('/')}`;
      const text = substituteDemoVariables(await readFile(file, 'utf8'), variables);
      results.push(
        ...(await applyResources(pool, parseResourceDocuments(text, label), {
          source: label,
          ...applyOptions,
        })),
      );
    }
    logApplyResults(logger, results);
    // Recorded even when a document failed: the demo is offered once, not retried at every start.
    await recordDecision(pool, 'true', 'Demo resources from demo/ were loaded on the first start');
    const stored = results.filter(
      (result) => result.status === 'created' || result.status === 'updated',
    ).length;
    logger.info({ resources: stored, files: files.length }, 'demo resources loaded');
    return { status: 'loaded', results };
  } finally {
    // A connection that could not give the lock back is closed rather than pooled with it.
    const unlocked = await lock
      .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', ['opsdeck.demo'])
      .then(
        () => true,
        () => false,
      );
    lock.release(!unlocked);
  }
}
