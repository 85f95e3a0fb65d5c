// `npm run bench [name…]`: runs bench/<name>.bench.ts files, each on a fresh migrated database,
// and writes bench/results/<name>.json. Not part of `npm test`: timings on shared machines are
// reported, never asserted.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  adminQuery,
  databaseUrl,
  startTestServer,
  uniqueName,
} from '../apps/server/test/harness/postgres.js';

export interface BenchContext {
  /** A fresh database with every migration applied. */
  databaseUrl: string;
  log: (message: string) => void;
}

type BenchFunction = (ctx: BenchContext) => Promise<Record<string, unknown>>;

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await fs.readdir(benchDir))
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.bench\.ts$/, '')))
  .sort();
if (files.length === 0) {
  process.stderr.write(`bench: no benchmark matches ${wanted.join(', ') || '(any)'} in ${benchDir}\n`);
  process.exit(1);
}

const server = await startTestServer();
let failed = false;
try {
  await fs.mkdir(path.join(benchDir, 'results'), { recursive: true });
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    const database = uniqueName(`bench_${name.replace(/\W/g, '_')}`);
    await adminQuery(server.adminUrl, `CREATE DATABASE ${database} TEMPLATE ${server.templateName}`);
    const started = Date.now();
    process.stdout.write(`== ${name}\n`);
    try {
      const module = (await import(pathToFileURL(path.join(benchDir, file)).href)) as {
        default: BenchFunction;
      };
      const results = await module.default({
        databaseUrl: databaseUrl(server.adminUrl, database),
        log: (message) => process.stdout.write(`   ${message}\n`),
      });
      const summary = {
        name,
        date: new Date().toISOString(),
        durationSeconds: Math.round((Date.now() - started) / 100) / 10,
        machine: {
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model,
          memoryGiB: Math.round(os.totalmem() / 2 ** 30),
          node: process.version,
        },
        results,
      };
      const output = path.join(benchDir, 'results', `${name}.json`);
      await fs.writeFile(output, `${JSON.stringify(summary, null, 2)}\n`);
      process.stdout.write(`   wrote ${path.relative(process.cwd(), output)}\n`);
    } catch (error) {
      failed = true;
      process.stderr.write(`   ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
    } finally {
      // BENCH_KEEP=1 (with TEST_DATABASE_URL, so the server outlives the run) keeps the database
      // for looking at plans afterwards.
      if (process.env.BENCH_KEEP === '1')
        process.stdout.write(`   kept ${databaseUrl(server.adminUrl, database)}\n`);
      else await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  }
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
