import { lstat, readdir, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  joinRemote,
  openSftpFolder,
  resolveSftpTarget,
  sftpConnectionSchema,
  sftpEndpoint,
  type SftpConnectionSpec,
  type SftpFolderSession,
} from './sftp-client.js';
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

/** The folder check's own fields (what is read and the rules), shared with the `sftp` check. */
export const folderFields = {
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
};

const folderSpecSchema = z
  .looseObject({
    ...folderFields,
    /** The folder is on this SFTP server (`path` is the remote path). */
    sftpConnection: sftpConnectionSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    const sftp = spec.sftpConnection;
    // The host may also come from a named connection or an sftp://host/... path.
    if (sftp && !sftp.host?.trim() && !sftp.connection?.trim() && !/^sftp:\/\/[^/]/i.test(spec.path)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sftpConnection', 'host'],
        message: 'a host or connection is required',
      });
    }
  });

export type FolderCheckSpec = z.infer<typeof folderSpecSchema>;

/** Stops a recursive scan of a huge tree from holding the check (and memory) hostage. */
const MAX_ENTRIES = 100_000;
const MAX_FILES_IN_DETAIL = 1_000;
const REMOTE_PREFIXES = ['s3://', 'gcs://', 'smb://', 'sftp://', '\\\\'];
/** The ecosystem's remote folder connections not served yet; the path is then on that remote, never local. */
const REMOTE_CONNECTIONS: Record<string, string> = {
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

/** One entry of a folder as its file system reports it (links are listed, not followed). */
interface FolderEntry {
  name: string;
  size: number;
  /** Permission bits. */
  mode: number;
  modifiedMs: number;
  isDirectory: boolean;
}

/**
 * Where a folder check reads: the local file system or a remote one (SFTP). The rules (filters,
 * counts, ages, sizes) are applied to what a source lists, the same way for every source.
 */
interface FolderSource {
  join(directory: string, name: string): string;
  /** 'missing' when nothing is at the path; a source may throw instead when that is an error. */
  kind(target: string): Promise<'folder' | 'other' | 'missing'>;
  /** The folder's entries; throws TooManyEntries when it holds more than `limit`. */
  list(directory: string, limit: number): Promise<FolderEntry[]>;
  /** Free and total bytes of the file system holding the folder. */
  space(target: string): Promise<{ available: number; total: number }>;
}

class TooManyEntries extends Error {
  constructor() {
    super(`the folder holds more than ${MAX_ENTRIES} entries`);
  }
}

const localSource: FolderSource = {
  join: (directory, name) => path.join(directory, name),
  async kind(target) {
    try {
      return (await stat(target)).isDirectory() ? 'folder' : 'other';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
  },
  async list(directory, limit) {
    const names = await readdir(directory);
    if (names.length > limit) throw new TooManyEntries();
    const entries: FolderEntry[] = [];
    for (const name of names) {
      try {
        const stats = await lstat(path.join(directory, name));
        entries.push({
          name,
          size: stats.size,
          mode: stats.mode & 0o777,
          modifiedMs: stats.mtimeMs,
          isDirectory: stats.isDirectory(),
        });
      } catch {
        // removed while we looked
      }
    }
    return entries;
  },
  async space(target) {
    const fsStats = await statfs(target);
    return { available: fsStats.bavail * fsStats.bsize, total: fsStats.blocks * fsStats.bsize };
  },
};

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

function toFile(filePath: string, entry: FolderEntry): FolderFile {
  return {
    name: entry.name,
    path: filePath,
    size: entry.size,
    mode: `0${entry.mode.toString(8)}`,
    modified: new Date(entry.modifiedMs).toISOString(),
    modifiedMs: entry.modifiedMs,
    is_dir: entry.isDirectory,
  };
}

const GLOB_CHARACTERS = /[*?[]/;

/**
 * A glob path (`/etc/*`, or `/var/log/` + `**` + `/*.log`) as the folder to list from (its part before the
 * first segment with a wildcard), whether that listing must go down, and the full-path test.
 * `*` and `?` stay within a path segment, `**` crosses segments, `[...]` is a character class.
 */
export function compileGlobPath(globPath: string): { root: string; recursive: boolean; pattern: RegExp } {
  const segments = globPath.split('/');
  const first = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const root = segments.slice(0, first).join('/') || '/';
  const rest = segments.slice(first);
  let source = '';
  for (let index = 0; index < globPath.length; index += 1) {
    const char = globPath[index];
    if (char === '*' && globPath[index + 1] === '*') {
      const slash = globPath[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = globPath.indexOf(']', index + 1);
      if (end < 0) throw new CheckSpecError(`path: unclosed [ in glob ${globPath}`);
      source += `[${globPath
        .slice(index + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`;
      index = end;
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return {
    root,
    recursive: rest.length > 1 || rest.some((segment) => segment.includes('**')),
    pattern: new RegExp(`^${source}$`),
  };
}

/** Files in the folder (and below it when recursive) that pass the filter (and the glob). */
async function listFiles(
  source: FolderSource,
  root: string,
  recursive: boolean,
  filter: CompiledFilter,
  signal: AbortSignal,
  pathPattern?: RegExp,
): Promise<FolderFile[]> {
  const now = Date.now();
  const files: FolderFile[] = [];
  const pending = [root];
  let visited = 0;
  while (pending.length > 0) {
    if (signal.aborted) throw new Error('the folder scan was stopped');
    const directory = pending.shift() as string;
    let entries: FolderEntry[];
    try {
      entries = await source.list(directory, MAX_ENTRIES - visited);
    } catch (error) {
      if (directory === root || error instanceof TooManyEntries) throw error;
      continue;
    }
    visited += entries.length;
    for (const entry of entries) {
      const entryPath = source.join(directory, entry.name);
      if (entry.isDirectory) {
        if (recursive) pending.push(entryPath);
        continue;
      }
      const file = toFile(entryPath, entry);
      if (pathPattern && !pathPattern.test(entryPath)) continue;
      if (matches(file, filter, now)) files.push(file);
    }
  }
  return files;
}

function summary(file: FolderFile | undefined) {
  return file ? { name: file.name, size: file.size, modified: file.modified } : null;
}

/** Lists the folder from its source and applies the spec's rules: one code path for every source. */
async function checkFolder(
  spec: FolderCheckSpec,
  source: FolderSource,
  root: string,
  ctx: CheckContext,
  started: number,
  glob?: { recursive: boolean; pattern: RegExp },
): Promise<CheckResult> {
  const filter = compileFilter(spec.filter);
  let files: FolderFile[] = [];
  let missing = false;
  let availableSize: number | null = null;
  let totalSize: number | null = null;
  try {
    const kind = await source.kind(root);
    if (kind === 'other') return invalidResult(`${spec.path} is not a folder`);
    missing = kind === 'missing';
    if (!missing)
      files = await listFiles(
        source,
        root,
        glob ? glob.recursive || (spec.recursive ?? false) : (spec.recursive ?? false),
        filter,
        ctx.signal,
        glob?.pattern,
      );
    if (!missing && (spec.availableSize !== undefined || spec.totalSize !== undefined)) {
      const space = await source.space(root);
      availableSize = space.available;
      totalSize = space.total;
    }
  } catch (error) {
    return failing(passing({ duration: elapsedSince(started) }), errorText(error));
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

/** The remote path of an SFTP folder: `path` as written, or the path part of an `sftp://` URL. */
function sftpPath(spec: FolderCheckSpec): { path: string; host?: string; port?: number } {
  if (!spec.path.toLowerCase().startsWith('sftp://')) return { path: spec.path };
  let url: URL;
  try {
    url = new URL(spec.path);
  } catch {
    throw new CheckSpecError(`invalid sftp:// path ${spec.path}`);
  }
  return {
    path: decodeURIComponent(url.pathname) || '/',
    host: url.hostname.replace(/^\[|\]$/g, '') || undefined,
    port: url.port === '' ? undefined : Number(url.port),
  };
}

/** Runs the folder rules on a remote folder, through an SFTP session (the `sftp` check uses it too). */
export async function runSftpFolderCheck(
  spec: FolderCheckSpec,
  connection: SftpConnectionSpec,
  ctx: CheckContext,
): Promise<CheckResult> {
  const remote = sftpPath(spec);
  const target = await resolveSftpTarget(
    {
      ...connection,
      host: connection.host?.trim() ? connection.host : remote.host,
      port: connection.port ?? remote.port,
    },
    ctx,
  );
  const started = performance.now();
  let session: SftpFolderSession;
  try {
    session = await openSftpFolder(target, ctx);
  } catch (error) {
    return failing(passing({ duration: elapsedSince(started) }), errorText(error));
  }
  try {
    const source: FolderSource = {
      join: joinRemote,
      kind: (folder) => session.kind(folder),
      list: async (folder, limit) => {
        const entries = await session.list(folder, limit);
        if (entries.length > limit) throw new TooManyEntries();
        return entries;
      },
      space: (folder) => session.space(folder),
    };
    return await checkFolder(spec, source, remote.path, ctx, started);
  } finally {
    session.close();
  }
}

async function runFolderCheck(spec: FolderCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  if (spec.sftpConnection) return runSftpFolderCheck(spec, spec.sftpConnection, ctx);
  const lowered = spec.path.toLowerCase();
  const remote = REMOTE_PREFIXES.find((prefix) => lowered.startsWith(prefix));
  if (remote === 'sftp://')
    return invalidResult('an sftp:// path needs an sftpConnection with the credentials');
  if (remote) return invalidResult(`folder checks on ${remote} paths are not supported yet`);
  const connection = Object.keys(REMOTE_CONNECTIONS).find(
    (key) =>
      (spec as Record<string, unknown>)[key] !== undefined && (spec as Record<string, unknown>)[key] !== null,
  );
  if (connection)
    return invalidResult(`folder checks over ${REMOTE_CONNECTIONS[connection]} are not supported yet`);
  const resolved = path.resolve(spec.path);
  if (GLOB_CHARACTERS.test(resolved)) {
    const glob = compileGlobPath(resolved);
    return checkFolder(spec, localSource, glob.root, ctx, performance.now(), glob);
  }
  return checkFolder(spec, localSource, resolved, ctx, performance.now());
}

/**
 * Checks durations, sizes and the regex up front, so a typo is an invalid spec rather than a
 * failing check. Returns the spec.
 */
export function validateFolderRules<Spec extends FolderCheckSpec>(spec: Spec): Spec {
  compileFilter(spec.filter);
  for (const value of [spec.minAge, spec.maxAge]) if (value) parseDuration(value);
  for (const value of [spec.minSize, spec.maxSize, spec.availableSize, spec.totalSize])
    if (value !== undefined) parseSize(value);
  return spec;
}

export const folderCheck: CheckType<FolderCheckSpec> = {
  type: 'folder',
  specKey: 'folder',
  schema: folderSpecSchema,
  parse: (raw) => validateFolderRules(parseSpec(folderSpecSchema, raw, 'folder')),
  endpoint: (spec) => {
    const host = spec.sftpConnection?.host?.trim();
    if (!spec.sftpConnection || spec.path.toLowerCase().startsWith('sftp://')) return spec.path;
    if (!host)
      return `${spec.sftpConnection.connection ?? 'sftp:/'}${spec.path.startsWith('/') ? '' : '/'}${spec.path}`;
    const port = spec.sftpConnection.port;
    return `sftp://${port === undefined ? host : sftpEndpoint(host, port)}${spec.path.startsWith('/') ? '' : '/'}${spec.path}`;
  },
  run: runFolderCheck,
};
