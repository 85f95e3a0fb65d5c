import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from '../../platform/db/pool.js';
import { parseResourceDocuments } from './documents.js';
import { collectResourceFiles } from './resource-files.js';
import type { SecretBox } from '../../resource-kinds/index.js';
import type { ResourceLogger } from './resource-logger.js';
import {
  applyResources,
  deleteResourcesMissingFromSource,
  deleteResourcesOfVanishedSources,
  type ApplyResult,
  type DeletedResource,
} from './resource-store.js';
import { resourceKey } from './validation.js';

/** Quiet time after the last file event before the directory is read again. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 300;

export interface ResourceDirectoryWatcherOptions {
  pool: Pool;
  /** The directory (RESOURCES_DIR); resolved to an absolute path, which prefixes every source. */
  dir: string;
  logger: ResourceLogger;
  /** Default DEFAULT_WATCH_DEBOUNCE_MS. */
  debounceMs?: number;
  /** Encrypts connection credentials (see ApplyOptions.secrets). */
  secrets?: SecretBox;
}

export interface DirectorySyncReport {
  applied: ApplyResult[];
  deleted: DeletedResource[];
}

export interface ResourceDirectoryWatcher {
  /** The absolute directory being watched. */
  readonly dir: string;
  /** Reads the directory now (after any sync in progress) and reconciles the database with it. */
  sync(): Promise<DirectorySyncReport>;
  /** Stops watching; waits for a sync in progress. */
  stop(): Promise<void>;
}

export function logApplyResults(logger: ResourceLogger, results: readonly ApplyResult[]): void {
  for (const result of results) {
    const where = `${result.origin.file}#${result.origin.document}`;
    switch (result.status) {
      case 'created':
      case 'updated':
        logger.info({ resource: result.key, file: where }, `resource ${result.status}`);
        break;
      case 'unchanged':
        logger.debug({ resource: result.key, file: where }, 'resource unchanged');
        break;
      case 'invalid':
        logger.warn(
          {
            resource: result.key,
            file: where,
            issues: result.issues?.map((issue) =>
              issue.path ? `${issue.path}: ${issue.message}` : issue.message,
            ),
          },
          'invalid resource not applied',
        );
        break;
      case 'conflict':
      case 'failed':
        logger.warn(
          { resource: result.key, file: where, error: result.message },
          `resource ${result.status}`,
        );
        break;
    }
  }
}

/**
 * Loads every *.yaml / *.yml file under `dir` (source: the file's absolute path), then keeps
 * the database in step with the directory: an edited file is applied again, a document removed
 * from a file or a removed file soft-deletes its resources. Each sync reads the whole directory,
 * so renames and events the platform drops settle on the next one; files whose content did not
 * change since they were last applied are skipped. Resolves once the first sync is done.
 */
export async function startResourceDirectoryWatcher(
  options: ResourceDirectoryWatcherOptions,
): Promise<ResourceDirectoryWatcher> {
  const { pool, logger, secrets } = options;
  const dir = path.resolve(options.dir);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`RESOURCES_DIR ${dir} is not a directory`);
  const debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  /** Content hash of each file as last applied in full (or found invalid). */
  const appliedContent = new Map<string, string>();

  /** Applies a file unless its content was applied already; false when it must be retried. */
  async function syncFile(file: string, report: DirectorySyncReport): Promise<boolean> {
    const text = await readFile(file, 'utf8');
    const hash = createHash('sha256').update(text).digest('hex');
    if (appliedContent.get(file) === hash) return true;
    const results = await applyResources(pool, parseResourceDocuments(text, file), { source: file, secrets });
    logApplyResults(logger, results);
    report.applied.push(...results);
    // A conflict may be a resource moving between files (its old file is pruned later in this
    // sync); a failure may be transient. Both are tried again.
    const settled = !results.some((result) => result.status === 'failed' || result.status === 'conflict');
    if (settled) appliedContent.set(file, hash);
    // A half-written or broken file must not delete what it held before: prune only when every
    // document was read.
    if (results.some((result) => result.status === 'invalid' || result.status === 'failed')) {
      logger.warn(
        { file },
        'resource file not fully applied: resources removed from it are kept until it is',
      );
      return settled;
    }
    const kept = results.flatMap((result) => (result.identity ? [result.identity] : []));
    report.deleted.push(...(await deleteResourcesMissingFromSource(pool, file, kept)));
    return settled;
  }

  async function syncFiles(files: readonly string[], report: DirectorySyncReport): Promise<string[]> {
    const unsettled: string[] = [];
    for (const file of files) {
      try {
        if (!(await syncFile(file, report))) unsettled.push(file);
      } catch (error) {
        logger.error({ file, err: error }, 'could not load resource file');
      }
    }
    return unsettled;
  }

  async function syncNow(): Promise<DirectorySyncReport> {
    const report: DirectorySyncReport = { applied: [], deleted: [] };
    try {
      const { files } = await collectResourceFiles([dir]);
      const unsettled = await syncFiles(files, report);
      const present = new Set(files);
      for (const file of appliedContent.keys()) if (!present.has(file)) appliedContent.delete(file);
      report.deleted.push(...(await deleteResourcesOfVanishedSources(pool, dir + path.sep, files)));
      // What was deleted above may be what blocked a file (a resource moved to another file).
      if (report.deleted.length > 0 && unsettled.length > 0) await syncFiles(unsettled, report);
    } catch (error) {
      logger.error({ dir, err: error }, 'could not sync the resources directory');
    }
    for (const deleted of report.deleted) {
      logger.info({ resource: resourceKey(deleted), file: deleted.source }, 'resource deleted');
    }
    return report;
  }

  let queue: Promise<unknown> = Promise.resolve();
  const sync = (): Promise<DirectorySyncReport> => {
    const next = queue.then(syncNow);
    queue = next;
    return next;
  };

  await sync();

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true }, () => {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void sync(), debounceMs);
    });
    watcher.on('error', (error) =>
      logger.error({ dir, err: error }, 'watching the resources directory failed'),
    );
  } catch (error) {
    logger.error({ dir, err: error }, 'cannot watch the resources directory; it was loaded once');
  }
  logger.info({ dir }, 'watching the resources directory');

  return {
    dir,
    sync,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      watcher?.close();
      await queue;
    },
  };
}
