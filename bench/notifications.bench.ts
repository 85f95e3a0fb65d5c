// Notification delivery (issue 25): 1,000 check.failed events through the event queue's fan-out,
// the delivery engine and a local webhook peer, with two real servers (`opsdeck serve`, two OS
// processes) consuming the same database. Reports event-to-delivery latency p50/p99 (target p99
// under 2 s) for events raised at a steady pace, deliveries per second for a burst, and counts
// lost and duplicated messages (both must be zero).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createPool, type Pool } from '../apps/server/src/platform/db/pool.js';
import { enqueueEvent, enqueueEvents } from '../apps/server/src/platform/jobs/index.js';
import type { BenchContext } from './run.js';

const EVENTS = 1000;
/** The steady phase raises this many events per second. */
const PACE_PER_SECOND = 50;
const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/src/cli/entry.ts');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(
  probe: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startServer(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ENTRY, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'error',
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'bench-admin-password',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error('a server exited');
      const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      return response?.ok ?? false;
    },
    180_000,
    'a server to be ready',
  );
  return child;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function phase(
  pool: Pool,
  received: Map<string, number[]>,
  checkId: string,
  prefix: string,
  paced: boolean,
): Promise<{ latencies: number[]; seconds: number; lost: number; duplicates: number }> {
  const sentAt = new Map<string, number>();
  const started = performance.now();
  if (paced) {
    for (let index = 0; index < EVENTS; index += 1) {
      const seq = `${prefix}-${index}`;
      const due = started + (index * 1000) / PACE_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sentAt.set(seq, performance.now());
      await enqueueEvent(pool, 'check.failed', { id: checkId, seq });
    }
  } else {
    const events = Array.from({ length: EVENTS }, (_, index) => ({
      name: 'check.failed',
      properties: { id: checkId, seq: `${prefix}-${index}` },
    }));
    const now = performance.now();
    for (const event of events) sentAt.set(event.properties.seq, now);
    await enqueueEvents(pool, events);
  }
  const keys = [...sentAt.keys()];
  await until(() => keys.every((key) => received.has(key)), 180_000, `${prefix}: every message`);
  const seconds = (performance.now() - started) / 1000;
  // Late duplicates have a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const latencies = keys.map((key) => received.get(key)![0] - sentAt.get(key)!).sort((a, b) => a - b);
  return {
    latencies,
    seconds,
    lost: keys.filter((key) => !received.has(key)).length,
    duplicates: keys.reduce((sum, key) => sum + Math.max(0, (received.get(key)?.length ?? 0) - 1), 0),
  };
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 5 });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-notify-bench-'));
  const received = new Map<string, number[]>();
  const peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const { title } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string };
      received.set(title, [...(received.get(title) ?? []), at]);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const { port } = peer.address() as AddressInfo;
  const servers: ChildProcess[] = [];
  try {
    const { rows: canaries } = await pool.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('bench', '{}') RETURNING id`,
    );
    const { rows: checks } = await pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, name, type, status) VALUES ($1, 'bench-check', 'http', 'unhealthy') RETURNING id`,
      [canaries[0].id],
    );
    await pool.query(
      `INSERT INTO notifications (name, events, title, spec) VALUES ('bench', '{check.failed}', $1, $2)`,
      [
        '{{.event.properties.seq}}',
        JSON.stringify({
          events: ['check.failed'],
          title: '{{.event.properties.seq}}',
          to: { url: `http://127.0.0.1:${port}/hook` },
        }),
      ],
    );
    ctx.log('starting two servers');
    servers.push(...(await Promise.all([0, 1].map(() => startServer(ctx.databaseUrl, dataDir)))));

    const steady = await phase(pool, received, checks[0].id, 'steady', true);
    const p50 = Math.round(percentile(steady.latencies, 50));
    const p99 = Math.round(percentile(steady.latencies, 99));
    ctx.log(
      `steady ${PACE_PER_SECOND}/s: p50 ${p50} ms, p99 ${p99} ms, lost ${steady.lost}, duplicates ${steady.duplicates}`,
    );
    const burst = await phase(pool, received, checks[0].id, 'burst', false);
    const perSecond = Math.round(EVENTS / burst.seconds);
    ctx.log(
      `burst of ${EVENTS}: ${perSecond} deliveries/s, p50 ${Math.round(percentile(burst.latencies, 50))} ms, ` +
        `p99 ${Math.round(percentile(burst.latencies, 99))} ms, lost ${burst.lost}, duplicates ${burst.duplicates}`,
    );
    return {
      events: EVENTS,
      processes: 2,
      steady: {
        eventsPerSecond: PACE_PER_SECOND,
        p50Ms: p50,
        p99Ms: p99,
        maxMs: Math.round(steady.latencies.at(-1) ?? NaN),
        targetP99Ms: 2000,
        meetsTarget: p99 < 2000,
        lost: steady.lost,
        duplicates: steady.duplicates,
      },
      burst: {
        deliveriesPerSecond: perSecond,
        p50Ms: Math.round(percentile(burst.latencies, 50)),
        p99Ms: Math.round(percentile(burst.latencies, 99)),
        lost: burst.lost,
        duplicates: burst.duplicates,
      },
    };
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(
      servers.map((server) =>
        server.exitCode === null ? new Promise((resolve) => server.once('exit', resolve)) : undefined,
      ),
    );
    await new Promise<void>((resolve) => peer.close(() => resolve()));
    await pool.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
