import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LogLine } from '@opsdeck/contracts';
import { parseJsonLine, parseRegexLine, parseTextLine, selectLines } from '../line-filter.js';
import { LogBackendError, type LogBackend } from './types.js';

/** Most bytes read from the end of one file, and most files one glob reads. */
export const FILE_TAIL_BYTES = 16 * 1024 * 1024;
export const MAX_FILES = 50;

/**
 * The folders file backends may read below: `LOG_FILE_ROOTS` (colon-separated absolute paths),
 * by default `/var/log` only. Every reader of logs sees what a backend reads, so a backend must
 * not reach the data directory, keys or other secrets (a checkout or data directory may well sit
 * below the temporary folder, so it is never a default).
 */
export function allowedLogRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = env.LOG_FILE_ROOTS?.split(':').filter((root) => root.trim() !== '');
  return (configured && configured.length > 0 ? configured : ['/var/log']).map((root) => path.resolve(root));
}

async function underRoots(file: string, roots: string[]): Promise<boolean> {
  const real = await realpath(file).catch(() => undefined);
  if (!real) return false;
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => root);
    if (real === realRoot || real.startsWith(`${realRoot}${path.sep}`)) return true;
  }
  return false;
}

/** A glob (`*`, `?` within a segment, `**` across segments) as a regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*' && glob[index + 1] === '*') {
      source += '.*';
      index++;
      if (glob[index + 1] === '/') index++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The files a path or glob names, newest first (at most MAX_FILES). */
export async function expandGlob(pattern: string): Promise<string[]> {
  const absolute = path.resolve(pattern);
  if (!/[*?]/.test(absolute)) {
    const info = await stat(absolute).catch(() => undefined);
    return info?.isFile() ? [absolute] : [];
  }
  const segments = absolute.split(path.sep);
  const firstWild = segments.findIndex((segment) => /[*?]/.test(segment));
  const root = segments.slice(0, firstWild).join(path.sep) || path.sep;
  const matcher = globToRegExp(absolute);
  const found: { file: string; mtime: number }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8 || found.length >= 1000) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile() && matcher.test(full)) {
        const info = await stat(full).catch(() => undefined);
        if (info) found.push({ file: full, mtime: info.mtimeMs });
      }
    }
  };
  await walk(root, 0);
  return found
    .sort((a, b) => b.mtime - a.mtime)
    .slice(0, MAX_FILES)
    .map((entry) => entry.file);
}

async function readTail(file: string): Promise<{ text: string; mtime: Date }> {
  const handle = await open(file, 'r');
  try {
    const info = await handle.stat();
    const length = Math.min(info.size, FILE_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, info.size - length);
    let text = buffer.toString('utf8');
    // A cut first line is dropped rather than shown half.
    if (length < info.size) text = text.slice(text.indexOf('\n') + 1);
    return { text, mtime: info.mtime };
  } finally {
    await handle.close();
  }
}

/** Parses one file's text into lines; lines that do not parse join the previous one (stack traces). */
export function parseLogText(
  text: string,
  format: 'json' | 'regex' | 'text',
  pattern: RegExp | undefined,
  fallbackTime: Date,
  fileLabels: Record<string, string>,
): LogLine[] {
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    const textLine = raw.replace(/\r$/, '');
    if (textLine.trim() === '') continue;
    const parsed =
      format === 'json'
        ? parseJsonLine(textLine, fallbackTime)
        : format === 'regex' && pattern
          ? parseRegexLine(textLine, pattern, fallbackTime)
          : parseTextLine(textLine, fallbackTime);
    if (parsed) lines.push({ ...parsed, labels: { ...fileLabels, ...parsed.labels } });
    else if (lines.length > 0) lines[lines.length - 1].message += `\n${textLine}`;
    else lines.push({ ...parseTextLine(textLine, fallbackTime), labels: { ...fileLabels } });
  }
  return lines;
}

/** Files on the server's machine: a path or glob, JSON lines, a regex with named groups, or text. */
export const fileBackend: LogBackend = {
  type: 'file',
  async search(spec, search) {
    const filePath = typeof spec.path === 'string' ? spec.path : '';
    const format = spec.format === 'json' || spec.format === 'regex' ? spec.format : 'text';
    let pattern: RegExp | undefined;
    if (format === 'regex') {
      try {
        pattern = new RegExp(String(spec.pattern ?? ''));
      } catch (error) {
        throw new LogBackendError(
          `file.pattern is not a valid regular expression: ${(error as Error).message}`,
          422,
        );
      }
    }
    const roots = allowedLogRoots();
    const matched = await expandGlob(filePath);
    const files: string[] = [];
    for (const file of matched) if (await underRoots(file, roots)) files.push(file);
    if (matched.length > 0 && files.length === 0)
      throw new LogBackendError(
        `file.path must be below one of the folders logs may be read from (LOG_FILE_ROOTS): ${roots.join(', ')}`,
        422,
      );
    if (files.length === 0) throw new LogBackendError(`No readable file matches ${filePath}`, 404);
    const extraLabels = (spec.labels as Record<string, string> | undefined) ?? {};
    const lines: LogLine[] = [];
    for (const file of files) {
      const { text, mtime } = await readTail(file).catch((error: NodeJS.ErrnoException) => {
        throw new LogBackendError(`Cannot read ${file}: ${error.code ?? error.message}`, 422);
      });
      lines.push(
        ...parseLogText(text, format, pattern, mtime, { ...extraLabels, file: path.basename(file) }),
      );
    }
    return selectLines(lines, search);
  },
};
