import path from 'node:path';
import type { Pool } from '../../platform/db/pool.js';
import { findResourceKind, UnknownResourceKindError } from './registry.js';
import { collectResourceFiles, readResourceFile } from './resource-files.js';
import type { SecretBox } from '../../resource-kinds/index.js';
import { applyResources, listResources, type ApplyResult, type StoredResource } from './resource-store.js';

/** Where a command writes its lines (process.stdout, or a buffer in tests). */
export interface CommandOutput {
  write(text: string): unknown;
}

export interface ApplyCommandOptions {
  /** `--force`: take over resources that belong to another source (UI, another file). */
  force?: boolean;
  /** Encrypts connection credentials. */
  secrets?: SecretBox;
}

function describeResult(result: ApplyResult): string[] {
  const where = `${result.origin.file}#${result.origin.document}`;
  switch (result.status) {
    case 'created':
    case 'updated':
    case 'unchanged':
      return [`${result.key} ${result.status}`];
    case 'invalid':
      return (result.issues ?? []).map((issue) =>
        issue.path ? `${where}: ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`,
      );
    case 'conflict':
      return [
        `${where}: ${result.key} belongs to source "${result.ownerSource}"; not changed (use --force to take it over)`,
      ];
    case 'failed':
      return [`${where}: ${result.key}: ${result.message}`];
  }
}

/**
 * `opsdeck apply -f FILE|DIR [-f ...]`: applies every document of the files (directories
 * recursively, *.yaml and *.yml), source = the file's absolute path. Prints one line per
 * document, or per problem of an invalid one. Valid documents are applied even when others
 * fail; the exit code is 1 when anything failed, else 0.
 */
export async function applyCommand(
  pool: Pool,
  paths: readonly string[],
  out: CommandOutput,
  options: ApplyCommandOptions = {},
): Promise<number> {
  if (paths.length === 0) {
    out.write('error: no files given; use -f FILE or -f DIRECTORY\n');
    return 1;
  }
  const { files, missing, empty } = await collectResourceFiles(paths);
  let failed = missing.length > 0 || empty.length > 0;
  for (const given of missing) out.write(`${given}: no such file or directory\n`);
  for (const directory of empty) out.write(`${directory}: no .yaml or .yml files found\n`);
  for (const file of files) {
    let results: ApplyResult[];
    try {
      const documents = await readResourceFile(file);
      results = await applyResources(pool, documents, { source: path.resolve(file), ...options });
    } catch (error) {
      out.write(`${file}: ${(error as Error).message}\n`);
      failed = true;
      continue;
    }
    for (const result of results) {
      for (const line of describeResult(result)) out.write(`${line}\n`);
      if (result.status === 'invalid' || result.status === 'conflict' || result.status === 'failed')
        failed = true;
    }
  }
  return failed ? 1 : 0;
}

/** `5s`, `12m`, `3h`, `4d`: the age column of `opsdeck get`. */
export function formatAge(since: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** Left-aligned columns separated by three spaces, as kubectl prints them. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('   '),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * `opsdeck get <kind>` (canaries, canary, config_scrapers, ...): a table NAMESPACE NAME SOURCE
 * AGE of the live resources. Exit code 1 for an unknown kind.
 */
export async function getCommand(pool: Pool, kindOrAlias: string, out: CommandOutput): Promise<number> {
  let resources: StoredResource[];
  try {
    resources = await listResources(pool, kindOrAlias);
  } catch (error) {
    if (!(error instanceof UnknownResourceKindError)) throw error;
    out.write(`error: ${error.message}\n`);
    return 1;
  }
  if (resources.length === 0) {
    out.write('No resources found\n');
    return 0;
  }
  const now = new Date();
  // A kind may add a column (a Secret's key names, never its values).
  const extra = findResourceKind(kindOrAlias)?.listColumn;
  out.write(
    formatTable([
      ['NAMESPACE', 'NAME', ...(extra ? [extra.header] : []), 'SOURCE', 'AGE'],
      ...resources.map((resource) => [
        resource.namespace,
        resource.name ?? '<none>',
        ...(extra ? [resource.listed || '<none>'] : []),
        resource.source,
        formatAge(resource.created_at, now),
      ]),
    ]),
  );
  return 0;
}
