import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseResourceDocuments, type ResourceDocument } from './documents.js';

const RESOURCE_FILE = /\.ya?ml$/i;

/** Files found under the given paths, and the paths that do not exist. */
export interface ResourceFileList {
  /** Files named directly, and every *.yaml / *.yml below the directories, sorted per path. */
  files: string[];
  missing: string[];
  /** Directories that hold no resource file. */
  empty: string[];
}

async function walk(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // Dot entries are editor swap files and Kubernetes' ConfigMap internals (..data): the
    // visible names are symlinks to the same content.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(directory, entry.name);
    const info = await stat(full).catch(() => undefined);
    if (info?.isDirectory()) found.push(...(await walk(full)));
    else if (info?.isFile() && RESOURCE_FILE.test(entry.name)) found.push(full);
  }
  return found;
}

/**
 * Expands `-f` arguments: a file is taken as is (whatever its extension), a directory
 * recursively for *.yaml and *.yml files.
 */
export async function collectResourceFiles(paths: readonly string[]): Promise<ResourceFileList> {
  const list: ResourceFileList = { files: [], missing: [], empty: [] };
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    if (!info) {
      list.missing.push(given);
    } else if (info.isDirectory()) {
      const files = await walk(given);
      if (files.length === 0) list.empty.push(given);
      list.files.push(...files);
    } else {
      list.files.push(given);
    }
  }
  return list;
}

/** Reads and splits one resource file; `label` is the file name shown in origins. */
export async function readResourceFile(file: string, label: string = file): Promise<ResourceDocument[]> {
  return parseResourceDocuments(await readFile(file, 'utf8'), label);
}
