// What the browser downloads for the first page: the entry script, its preloaded chunks and the
// stylesheet named by index.html, gzip-compressed (target: under 250 KB). Lazy route chunks are
// listed separately: they load on first visit of their page.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../apps/server/src/platform/config.js';
import type { BenchContext } from './run.js';

const TARGET_KB = 250;

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-needed'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
  const dist = path.join(PROJECT_ROOT, 'apps/web/dist');
  const html = await fs.readFile(path.join(dist, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (match) => match[1] as string,
  );
  const sizeOf = async (file: string) => {
    const content = await fs.readFile(path.join(dist, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  };
  const initialFiles = await Promise.all(initial.map(sizeOf));
  const allAssets = (await fs.readdir(path.join(dist, 'assets'))).filter((file) => /\.(js|css)$/.test(file));
  const lazyFiles = await Promise.all(
    allAssets.filter((file) => !initial.includes(`assets/${file}`)).map((file) => sizeOf(`assets/${file}`)),
  );
  const initialGzipKb = Math.round(initialFiles.reduce((sum, file) => sum + file.gzipBytes, 0) / 102.4) / 10;
  ctx.log(
    `initial JS+CSS: ${initialGzipKb} KB gzip (target < ${TARGET_KB} KB), ${lazyFiles.length} lazy chunks`,
  );
  return {
    initialGzipKb,
    targetKb: TARGET_KB,
    withinTarget: initialGzipKb < TARGET_KB,
    initialFiles,
    lazyFiles,
  };
}
