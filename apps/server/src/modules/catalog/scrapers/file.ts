import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { formatOf, parseDocuments } from './parse.js';
import { ScrapeError, type RawResult, type ScrapeContext, type Scraper, type ScraperEntry } from './types.js';

function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index];
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const close = segment.indexOf('}', index);
      if (close < 0) source += '\\{';
      else {
        const options = segment.slice(index + 1, close).split(',');
        source += `(?:${options.map((option) => option.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})`;
        index = close;
      }
    } else source += char.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const hasMagic = (segment: string) => /[*?{]/.test(segment);

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await fs.stat(target)).isDirectory();
  } catch {
    return false;
  }
}

/** Files matching a glob (`*`, `?`, `{a,b}` within a segment, `**` across directories). */
export async function expandGlob(pattern: string, baseDir: string): Promise<string[]> {
  const absolute = path.resolve(baseDir, pattern);
  const root = path.parse(absolute).root;
  const segments = absolute.slice(root.length).split(path.sep).filter(Boolean);
  const results = new Set<string>();

  const walk = async (dir: string, rest: string[]): Promise<void> => {
    if (rest.length === 0) {
      try {
        if ((await fs.stat(dir)).isFile()) results.add(dir);
      } catch {
        // A literal path that does not exist matches nothing.
      }
      return;
    }
    const [head, ...tail] = rest;
    if (head === '**') {
      await walk(dir, tail);
      let entries: Dirent[] = [];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), rest);
      }
      return;
    }
    if (!hasMagic(head)) {
      await walk(path.join(dir, head), tail);
      return;
    }
    const matcher = segmentPattern(head);
    let entries: Dirent[] = [];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!matcher.test(entry.name)) continue;
      const next = path.join(dir, entry.name);
      if (tail.length === 0 && !entry.isFile()) continue;
      if (tail.length > 0 && !(await isDirectory(next))) continue;
      await walk(next, tail);
    }
  };
  await walk(root, segments);
  return [...results].sort();
}

/**
 * `file`: local files by path or glob. JSON and YAML (every document of a stream) become
 * documents, anything else its text; `items` then splits a document into many items.
 */
export const fileScraper: Scraper = {
  type: 'file',
  async scrape(entry: ScraperEntry, context: ScrapeContext): Promise<RawResult[]> {
    const paths = Array.isArray(entry.paths) ? entry.paths : [];
    if (paths.length === 0 || !paths.every((value) => typeof value === 'string')) {
      throw new ScrapeError('file: paths must be a list of paths or globs');
    }
    const results: RawResult[] = [];
    for (const pattern of paths as string[]) {
      for (const file of await expandGlob(pattern, context.baseDir)) {
        context.signal.throwIfAborted();
        const text = await fs.readFile(file, 'utf8');
        const relative = path.relative(context.baseDir, file) || file;
        const format = formatOf(entry.format, file);
        for (const document of parseDocuments(text, format, file)) {
          results.push({
            config: document,
            source: file,
            defaults: { id: relative, name: path.basename(file) },
          });
        }
      }
    }
    return results;
  },
};
