// Command-line startup (issue 22): wall time and CPU (user + system of the whole `opsdeck`
// process, read as it exits) of `opsdeck --help` and of `opsdeck apply -f` of one small Canary
// file against the bench database (already migrated, the canary unchanged after the first apply),
// from the built server (apps/server/dist: run `npm run build` first).
// Target: under 0.5 s of startup on a quiet machine.
// BENCH_CLI_BASELINE=<another checkout, built> runs its `opsdeck` too, alternating run by run with
// this one, so a before/after comparison shares the machine's load. BENCH_CLI_RUNS (default 7)
// runs per command and checkout; the medians are reported.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './run.js';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 7);
const TARGET_MS = 500;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CANARY_YAML = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: cli-startup
  namespace: bench
spec:
  schedule: "@every 5m"
  http:
    - name: home
      url: http://127.0.0.1:9/
      responseCodes: [200]
`;

/** Prints the process's own CPU time on stderr as it exits (preloaded with --import). */
const CPU_REPORTER = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\nCPU_MICROS ' + (u.user + u.system) + '\\n'); });",
)}`;

interface Sample {
  wallMs: number;
  cpuMs: number;
}

async function runOnce(checkout: string, args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', CPU_REPORTER, path.join(checkout, 'bin/opsdeck.mjs'), ...args],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  if (code !== 0)
    throw new Error(`opsdeck ${args.join(' ')} (${checkout}) exited ${code}: ${stderr}${stdout}`);
  const match = /CPU_MICROS (\d+)/.exec(stderr);
  return { wallMs, cpuMs: match ? Number(match[1]) / 1000 : Number.NaN };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
};

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const checkouts: Record<string, string> = { current: root };
  const baseline = process.env.BENCH_CLI_BASELINE;
  if (baseline) checkouts.baseline = path.resolve(baseline);
  for (const [name, checkout] of Object.entries(checkouts)) {
    if (!existsSync(path.join(checkout, 'apps/server/dist/cli/entry.js')))
      throw new Error(`${name} (${checkout}) is not built: run npm run build there`);
  }
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-cli-bench-'));
  const file = path.join(directory, 'canary.yaml');
  await fs.writeFile(file, CANARY_YAML);
  const env = { ...process.env, DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'warn' };
  const commands: Record<string, string[]> = { help: ['--help'], apply: ['apply', '-f', file] };
  try {
    // The first apply creates the canary; the measured ones find it unchanged.
    await runOnce(root, commands.apply, env);
    const samples: Record<string, Record<string, Sample[]>> = {};
    for (let i = 0; i < RUNS; i += 1) {
      for (const [command, args] of Object.entries(commands)) {
        for (const [name, checkout] of Object.entries(checkouts)) {
          samples[name] ??= {};
          (samples[name][command] ??= []).push(await runOnce(checkout, args, env));
        }
      }
    }
    const results: Record<string, Record<string, { wallMs: number; cpuMs: number }>> = {};
    for (const [name, byCommand] of Object.entries(samples)) {
      results[name] = {};
      for (const [command, list] of Object.entries(byCommand)) {
        results[name][command] = {
          wallMs: median(list.map((sample) => sample.wallMs)),
          cpuMs: median(list.map((sample) => sample.cpuMs)),
        };
        ctx.log(`${name} ${command}: ${JSON.stringify(results[name][command])}`);
      }
    }
    return {
      runs: RUNS,
      medians: results,
      baseline: baseline ?? null,
      targetMs: TARGET_MS,
      machineLoadAverage1m: Math.round(os.loadavg()[0] * 10) / 10,
      cpus: os.cpus().length,
    };
  } finally {
    await fs.rm(directory, { recursive: true, force: true });
  }
}
