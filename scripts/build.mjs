#!/usr/bin/env node
// Builds the server (tsc, incremental) and the web app (vite). With --if-needed the web build is
// skipped when apps/web/dist is newer than every web and contracts source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifNeeded = process.argv.includes('--if-needed');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${command} ${args.join(' ')} failed\n`);
    process.exit(result.status ?? 1);
  }
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

run(bin('tsc'), ['-b', 'packages/contracts', 'apps/server']);

const webIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'packages/contracts/src',
];
const webIsFresh =
  existsSync(webIndex) &&
  statSync(webIndex).mtimeMs >= Math.max(...webSources.map((source) => newestMtime(path.join(root, source))));
if (ifNeeded && webIsFresh) process.exit(0);
run(bin('vite'), ['build', '--logLevel', 'warn', 'apps/web']);
