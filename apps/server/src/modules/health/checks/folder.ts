import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  booleanField,
  formatAge,
  formatBytes,
  integerField,
  parseDuration,
  parseSize,
  parseSpec,
  textField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const sizeField = z.union([textField, z.number()]);

const folderSpecSchema = z.looseObject({
  ...baseSpecShape,
  path: textField.pipe(z.string().min(1, 'a path is required')),
  recursive: booleanField.optional(),
  filter: z
    .looseObject({
      minAge: textField.optional(),
      maxAge: textField.optional(),
      since: textField.optional(),
      minSize: sizeField.optional(),
      maxSize: sizeField.optional(),
      regex: textField.optional(),
    })
    .optional(),
  minAge: textField.optional(),
  maxAge: textField.optional(),
  minCount: integerField.optional(),
  maxCount: integerField.optional(),
  minSize: sizeField.optional(),
  maxSize: sizeField.optional(),
  availableSize: sizeField.optional(),
  totalSize: sizeField.optional(),
});

export type FolderCheckSpec = z.infer<typeof folderSpecSchema>;

/** Stops a recursive scan of a huge tree from holding the check (and memory) hostage. */
const MAX_ENTRIES = 100_000;
const MAX_FILES_IN_DETAIL = 1_000;
const REMOTE_PREFIXES = ['s3://', 'gcs://', 'smb://', 'sftp://', '\\\\'];
/** The ecosystem's remote folder connections; the path is then on that remote, never local. */
const REMOTE_CONNECTIONS: Record<string, string> = {
  sftpConnection: 'SFTP',
  smbConnection: 'SMB',
  awsConnection: 'S3',
  gcpConnection: 'GCS',
};

interface FolderFile {
  name: string;
  path: string;
  size: number;
  mode: string;
  modified: string;
  modifiedMs: number;
  is_dir: boolean;
}

interface CompiledFilter {
  minAge?: number;
  maxAge?: number;
  since?: number;
  minSize?: number;
  maxSize?: number;
  regex?: RegExp;
}

function compileFilter(filter: FolderCheckSpec['filter']): CompiledFilter {
  if (!filter) return {};
  const compiled: CompiledFilter = {};
  if (filter.minAge) compiled.minAge = parseDuration(filter.minAge);
  if (filter.maxAge) compiled.maxAge = parseDuration(filter.maxAge);
  if (filter.minSize !== undefined) compiled.minSize = parseSize(filter.minSize);
  if (filter.maxSize !== undefined) compiled.maxSize = parseSize(filter.maxSize);
  if (filter.since) {
    const since = Date.parse(filter.since);
    if (Number.isNaN(since)) throw new CheckSpecError(`could not parse since: ${filter.since}`);
    // One second later, so the newest file of the last run can be passed back as `since`.
    compiled.since = since + 1_000;
  }
  if (filter.regex) {
    try {
      compiled.regex = new RegExp(filter.regex);
    } catch (error) {
      throw new CheckSpecError(`invalid filter regex: ${errorText(error)}`);
    }
  }
  return compiled;
}

function matches(file: FolderFile, filter: CompiledFilter, now: number): boolean {
  const age = now - file.modifiedMs;
  if (filter.maxAge !== undefined && age > filter.maxAge) return false;
  if (filter.minAge !== undefined && age < filter.minAge) return false;
  if (filter.minSize !== undefined && file.size < filter.minSize) return false;
  if (filter.maxSize !== undefined && file.size > filter.maxSize) return false;
  if (filter.regex && !filter.regex.test(file.name)) return false;
  if (filter.since !== undefined && file.modifiedMs < filter.since) return false;
  return true;
}

function toFile(directory: string, entry: Dirent, stats: Stats): FolderFile {
  return {
    name: entry.name,
    path: path.join(directory, entry.name),
    size: stats.size,
    mode: `0${(stats.mode & 0o777).toString(8)}`,
    modified: stats.mtime.toISOString(),
    modifiedMs: stats.mtimeMs,
    is_dir: stats.isDirectory(),
  };
}

/** Files in the folder (and below it when recursive) that pass the filter; symlinks are listed, not followed. */
async function listFiles(
  root: string,
  recursive: boolean,
  filter: CompiledFilter,
  signal: AbortSignal,
): Promise<FolderFile[]> {
  const now = Date.now();
  const files: FolderFile[] = [];
  const pending = [root];
  let visited = 0;
  while (pending.length > 0) {
    if (signal.aborted) throw new Error('the folder scan was stopped');
    const directory = pending.shift() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (directory === root) throw error;
      continue;
    }
    for (const entry of entries) {
      visited += 1;
      if (visited > MAX_ENTRIES) throw new Error(`the folder holds more than ${MAX_ENTRIES} entries`);
      let stats: Stats;
      try {
        stats = await lstat(path.join(directory, entry.name));
      } catch {
        continue;
      }
      if (stats.isDirectory()) {
        if (recursive) pending.push(path.join(directory, entry.name));
        continue;
      }
      const file = toFile(directory, entry, stats);
      if (matches(file, filter, now)) files.push(file);
    }
  }
  return files;
}

function summary(file: FolderFile | undefined) {
  return file ? { name: file.name, size: file.size, modified: file.modified } : null;
}

async function runFolderCheck(spec: FolderCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const lowered = spec.path.toLowerCase();
  const remote = REMOTE_PREFIXES.find((prefix) => lowered.startsWith(prefix));
  if (remote) return invalidResult(`folder checks on ${remote} paths are not supported yet`);
  const connection = Object.keys(REMOTE_CONNECTIONS).find(
    (key) =>
      (spec as Record<string, unknown>)[key] !== undefined && (spec as Record<string, unknown>)[key] !== null,
  );
  if (connection)
    return invalidResult(`folder checks over ${REMOTE_CONNECTIONS[connection]} are not supported yet`);
  const root = path.resolve(spec.path);
  const filter = compileFilter(spec.filter);
  const started = performance.now();

  let files: FolderFile[] = [];
  let missing = false;
  try {
    const info = await stat(root);
    if (!info.isDirectory()) return invalidResult(`${spec.path} is not a folder`);
    files = await listFiles(root, spec.recursive ?? false, filter, ctx.signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') missing = true;
    else return failing(passing({ duration: elapsedSince(started) }), errorText(error));
  }

  let availableSize: number | null = null;
  let totalSize: number | null = null;
  if (!missing && (spec.availableSize !== undefined || spec.totalSize !== undefined)) {
    const fsStats = await statfs(root);
    availableSize = fsStats.bavail * fsStats.bsize;
    totalSize = fsStats.blocks * fsStats.bsize;
  }

  const byAge = [...files].sort((a, b) => a.modifiedMs - b.modifiedMs);
  const bySize = [...files].sort((a, b) => a.size - b.size);
  const oldest = byAge[0];
  const newest = byAge[byAge.length - 1];
  const smallest = bySize[0];
  const largest = bySize[bySize.length - 1];
  const results = {
    count: files.length,
    files: files.slice(0, MAX_FILES_IN_DETAIL).map(({ modifiedMs: _modifiedMs, ...file }) => file),
    oldest: summary(oldest),
    newest: summary(newest),
    minSize: summary(smallest),
    maxSize: summary(largest),
    totalFileSize: files.reduce((sum, file) => sum + file.size, 0),
    availableSize,
    totalSize,
    exists: !missing,
  };
  const result = passing({
    duration: elapsedSince(started),
    data: { results },
    detail: results,
    empty: files.length === 0,
  });
  const now = Date.now();

  if (spec.minCount !== undefined && files.length < spec.minCount)
    return failing(result, `too few files ${files.length} < ${spec.minCount}`);
  if (spec.maxCount !== undefined && files.length > spec.maxCount)
    return failing(result, `too many files ${files.length} > ${spec.maxCount}`);
  if (files.length > 0 && oldest && newest && smallest && largest) {
    if (spec.minAge) {
      const minAge = parseDuration(spec.minAge);
      if (now - newest.modifiedMs < minAge) {
        return failing(
          result,
          `${newest.name} is too new: ${formatAge(now - newest.modifiedMs)} < ${spec.minAge}`,
        );
      }
    }
    if (spec.maxAge) {
      const maxAge = parseDuration(spec.maxAge);
      if (now - oldest.modifiedMs > maxAge) {
        return failing(
          result,
          `${oldest.name} is too old: ${formatAge(now - oldest.modifiedMs)} > ${spec.maxAge}`,
        );
      }
    }
    if (spec.minSize !== undefined && smallest.size < parseSize(spec.minSize)) {
      return failing(
        result,
        `${smallest.name} is too small: ${formatBytes(smallest.size)} < ${String(spec.minSize)}`,
      );
    }
    if (spec.maxSize !== undefined && largest.size > parseSize(spec.maxSize)) {
      return failing(
        result,
        `${largest.name} is too large: ${formatBytes(largest.size)} > ${String(spec.maxSize)}`,
      );
    }
  }
  if (
    spec.availableSize !== undefined &&
    availableSize !== null &&
    availableSize < parseSize(spec.availableSize)
  ) {
    return failing(
      result,
      `available size too small: ${formatBytes(availableSize)} < ${String(spec.availableSize)}`,
    );
  }
  if (spec.totalSize !== undefined && totalSize !== null && totalSize < parseSize(spec.totalSize)) {
    return failing(result, `total size too small: ${formatBytes(totalSize)} < ${String(spec.totalSize)}`);
  }
  return result;
}

export const folderCheck: CheckType<FolderCheckSpec> = {
  type: 'folder',
  specKey: 'folder',
  schema: folderSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(folderSpecSchema, raw, 'folder');
    // Validate durations, sizes and the regex up front so a typo is an invalid spec, not a failing check.
    compileFilter(spec.filter);
    for (const value of [spec.minAge, spec.maxAge]) if (value) parseDuration(value);
    for (const value of [spec.minSize, spec.maxSize, spec.availableSize, spec.totalSize])
      if (value !== undefined) parseSize(value);
    return spec;
  },
  endpoint: (spec) => spec.path,
  run: runFolderCheck,
};
