// Load (issue 18): the real server (`opsdeck serve` from source, workers on, running the seeded
// canaries' checks every minute against a loopback target) under BENCH_LOAD_CONNECTIONS (200)
// concurrent keep-alive connections for BENCH_LOAD_DURATION seconds (60), each sending one request
// after another with an API token to the four reads the web app makes most: the health page's
// summary (the landing page, auto-refreshed), whoami (every page load), the catalog list and the
// incident list (their pages' first queries, as the web's own functions build them). Reports p50/p99
// latency, requests and errors per endpoint, and the server's log lines about 5xx answers.
// Target: no errors and p99 under 1 s. An error is any answer but 2xx (lists with
// `Prefer: count=exact` answer 206 while more rows follow), or no answer within 30 s.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTokenForUser } from '../apps/server/src/modules/auth/index.js';
import { syncCanaryChecks, type CanaryRow } from '../apps/server/src/modules/health/index.js';
import { runOpsdeck } from '../apps/server/test/harness/process.js';
import { createPerson } from '../apps/server/test/harness/factories.js';
import { configListSearch } from '../apps/web/src/features/catalog/lib/catalog-query.js';
import type { BenchContext } from './run.js';

const DURATION_S = Number(process.env.BENCH_LOAD_DURATION ?? 60);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const CANARIES = 100;
const CHECKS_PER_CANARY = 5;
const STATUS_HOURS = 24;
const CONFIG_ITEMS = 20_000;
const INCIDENTS = 2_000;
const TARGET_P99_MS = 1000;
/** BENCH_PROFILE=<dir>: the server writes a CPU profile of its whole run there when it stops. */
const PROFILE_DIR = process.env.BENCH_PROFILE;

const SEED_SQL = `
INSERT INTO config_scrapers (id, name, namespace, spec, source)
VALUES ('00000000-0000-4000-8000-0000000000c1', 'load', 'load', '{}', 'bench');
INSERT INTO config_items (scraper_id, type, config_class, name, namespace, status, health, labels, tags,
                          external_id, created_at, updated_at)
SELECT '00000000-0000-4000-8000-0000000000c1', 'Kubernetes::' || (ARRAY['Pod', 'Deployment', 'Service', 'Node'])[1 + i % 4],
       (ARRAY['Pod', 'Deployment', 'Service', 'Node'])[1 + i % 4], 'item-' || lpad(i::text, 6, '0'), 'ns-' || (i % 20),
       (ARRAY['Running', 'Pending', 'Stopped'])[1 + i % 3],
       (ARRAY['healthy', 'healthy', 'unhealthy', 'warning', 'unknown'])[1 + i % 5],
       jsonb_build_object('app', 'app-' || (i % 200), 'team', 'team-' || (i % 10)),
       jsonb_build_object('env', (ARRAY['prod', 'staging', 'dev'])[1 + i % 3], 'cluster', 'cluster-' || (i % 4)),
       ARRAY['load/' || i], now() - (i % 10000) * interval '1 minute', now() - (i % 500) * interval '1 minute'
  FROM generate_series(1, ${CONFIG_ITEMS}) AS i;
INSERT INTO people (name, email)
SELECT 'Responder ' || i, 'responder-' || i || '@example.com' FROM generate_series(1, 50) AS i;
INSERT INTO incidents (title, description, type, status, severity, created_by, commander_id, created_at, updated_at)
SELECT 'Incident ' || i, 'Generated incident ' || i,
       (ARRAY['availability', 'cost', 'performance', 'security', 'technicalDebt', 'compliance', 'integration'])[1 + i % 7],
       (ARRAY['open', 'closed', 'mitigated', 'resolved', 'investigating', 'new'])[1 + i % 6],
       (ARRAY['low', 'medium', 'high', 'critical', 'blocker'])[1 + i % 5],
       (SELECT id FROM people WHERE email = 'responder-' || (1 + i % 50) || '@example.com'),
       (SELECT id FROM people WHERE email = 'responder-' || (1 + (i * 7) % 50) || '@example.com'),
       now() - i * interval '37 minutes', now() - i * interval '11 minutes'
  FROM generate_series(1, ${INCIDENTS}) AS i;
`;

// Every 5 minutes over the last STATUS_HOURS: the recent tier and (after compaction) the blocks.
const SEED_STATUSES = `
INSERT INTO check_statuses (check_id, time, duration, status, message)
SELECT c.id, now() - s * interval '5 minutes', 20 + (hashtext(c.name || s) & 255), (hashtext(c.name) + s) % 13 <> 0, 'ok'
  FROM checks c, generate_series(1, ${STATUS_HOURS * 12}) AS s
 WHERE c.deleted_at IS NULL
`;

interface Endpoint {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

interface Tally {
  latencies: number[];
  statuses: Map<string, number>;
  errors: number;
  firstErrors: string[];
}

const round = (value: number) => Math.round(value * 10) / 10;
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The loopback target the seeded checks call (every minute, 500 checks). */
async function startTarget(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_, response) => response.writeHead(200).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function seed(ctx: BenchContext, targetUrl: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: ctx.databaseUrl, max: 4 });
  try {
    const started = performance.now();
    await pool.query(SEED_SQL);
    for (let c = 0; c < CANARIES; c += 1) {
      const spec = {
        schedule: '@every 1m',
        http: Array.from({ length: CHECKS_PER_CANARY }, (_, i) => ({
          name: `load-${c}-${i}`,
          url: `${targetUrl}/${c}/${i}`,
          responseCodes: [200],
        })),
      };
      const { rows } = await pool.query<CanaryRow>(
        `INSERT INTO canaries (name, namespace, labels, spec, source)
         VALUES ($1, $2, $3, $4, 'bench') RETURNING *`,
        [`load-canary-${c}`, `ns-${c % 5}`, { team: `team-${c % 10}` }, spec],
      );
      await syncCanaryChecks(pool, rows[0]);
    }
    await pool.query(SEED_STATUSES);
    await pool.query('VACUUM ANALYZE');
    const admin = await createPerson(pool, { name: 'Load admin', roles: ['admin'] });
    const token = await createTokenForUser(pool, { email: admin.email as string, name: 'load bench' });
    ctx.log(
      `seeded ${CANARIES * CHECKS_PER_CANARY} checks with ${CANARIES * CHECKS_PER_CANARY * STATUS_HOURS * 12} statuses, ` +
        `${CONFIG_ITEMS} config items, ${INCIDENTS} incidents in ${Math.round(performance.now() - started)} ms`,
    );
    return token;
  } finally {
    await pool.end();
  }
}

function request(
  agent: http.Agent,
  port: number,
  endpoint: Endpoint,
  token: string,
): Promise<{ status: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: endpoint.path,
        agent,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...endpoint.headers },
      },
      (response) => {
        // Bodies are counted, not decoded (a summary is ~225 kB): the client's CPU is the server's
        // too on this machine. Only the start of an error's body is kept, to report it.
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status <= 299;
        let bytes = 0;
        let head = '';
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (!ok && head.length < 300) head += chunk.toString('utf8', 0, 300);
        });
        response.on('end', () => resolve({ status, bytes, body: head }));
        response.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end();
  });
}

async function waitReady(base: string, exited: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (gone) throw new Error('the server exited before it was ready');
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${base} was not ready in 180 s`);
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const target = await startTarget();
  const token = await seed(ctx, target.url);
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-load-'));
  const server = runOpsdeck(
    ['serve'],
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: ctx.databaseUrl,
      WORKERS: 'true',
      DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '/nonexistent',
    },
    PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {},
  );
  const base = `http://127.0.0.1:${port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS });
  try {
    await waitReady(base, server.exited);
    ctx.log(`server ready on ${base}`);
    const endpoints: Endpoint[] = [
      { name: 'health summary', path: '/api/canary/api/summary?start=1h' },
      { name: 'whoami', path: '/api/auth/whoami' },
      {
        name: 'catalog list',
        path: `/api/db/configs?${configListSearch(
          { health: {}, status: {}, tags: {}, labels: {}, showDeleted: false },
          { pageIndex: 0, pageSize: 50, sortOrder: 'asc' },
        ).toString()}`,
        headers: { prefer: 'count=exact' },
      },
      {
        // What incidentListSearch (apps/web features/incidents/lib/incident-list-query.ts) builds
        // for the page's defaults (its module cannot be imported here: extensionless imports).
        name: 'incident list',
        path: `/api/db/incident_summary?${new URLSearchParams({
          select:
            'id,title,severity,type,status,created_at,updated_at,commander,creator,responders_count,hypotheses_count,comments_count,time_to_resolve',
          order: 'created_at.desc',
          limit: '50',
          offset: '0',
        }).toString()}`,
        headers: { prefer: 'count=exact' },
      },
    ];
    // One call of each, to fail early on a wrong request and fill the server's caches.
    for (const endpoint of endpoints) {
      const answer = await request(agent, port, endpoint, token);
      if (answer.status < 200 || answer.status > 299)
        throw new Error(`${endpoint.name}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
      ctx.log(`${endpoint.name}: ${answer.bytes} bytes`);
    }
    const outputBefore = server.output().length;

    const tallies = new Map<string, Tally>(
      endpoints.map((endpoint) => [
        endpoint.name,
        { latencies: [], statuses: new Map(), errors: 0, firstErrors: [] },
      ]),
    );
    const loadAverageBefore = os.loadavg()[0];
    const started = performance.now();
    const deadline = started + DURATION_S * 1000;
    // Each connection sends one request after another, cycling the endpoints from its own offset.
    const connection = async (index: number) => {
      for (let turn = index; performance.now() < deadline; turn += 1) {
        const endpoint = endpoints[turn % endpoints.length];
        const tally = tallies.get(endpoint.name)!;
        const sent = performance.now();
        try {
          const answer = await request(agent, port, endpoint, token);
          tally.latencies.push(performance.now() - sent);
          const key = String(answer.status);
          tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
          if (answer.status < 200 || answer.status > 299) {
            tally.errors += 1;
            if (tally.firstErrors.length < 5)
              tally.firstErrors.push(`${answer.status} ${answer.body.slice(0, 200)}`);
          }
        } catch (error) {
          tally.latencies.push(performance.now() - sent);
          tally.errors += 1;
          tally.statuses.set('network', (tally.statuses.get('network') ?? 0) + 1);
          if (tally.firstErrors.length < 5) tally.firstErrors.push((error as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, index) => connection(index)));
    const elapsedS = (performance.now() - started) / 1000;

    const results: Record<string, unknown> = {};
    let totalRequests = 0;
    let totalErrors = 0;
    let worstP99 = 0;
    for (const [name, tally] of tallies) {
      const sorted = [...tally.latencies].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      worstP99 = Math.max(worstP99, p99);
      totalRequests += sorted.length;
      totalErrors += tally.errors;
      results[name] = {
        requests: sorted.length,
        perSecond: round(sorted.length / elapsedS),
        p50Ms: round(percentile(sorted, 50)),
        p90Ms: round(percentile(sorted, 90)),
        p99Ms: round(p99),
        maxMs: round(sorted[sorted.length - 1]),
        errors: tally.errors,
        statuses: Object.fromEntries(tally.statuses),
        ...(tally.firstErrors.length > 0 ? { firstErrors: tally.firstErrors } : {}),
      };
      ctx.log(
        `${name}: ${sorted.length} requests, p50 ${round(percentile(sorted, 50))} ms, p99 ${round(p99)} ms, ` +
          `${tally.errors} errors`,
      );
    }
    // What the server logged at warn and above during the load (5xx answers leave a line).
    const serverLines = server
      .output()
      .slice(outputBefore)
      .split('\n')
      .filter((line) => line.trim() !== '');
    ctx.log(
      `${totalRequests} requests in ${round(elapsedS)} s, ${totalErrors} errors, worst p99 ${round(worstP99)} ms`,
    );
    return {
      connections: CONNECTIONS,
      durationSeconds: round(elapsedS),
      seeded: {
        checks: CANARIES * CHECKS_PER_CANARY,
        statuses: CANARIES * CHECKS_PER_CANARY * STATUS_HOURS * 12,
        configItems: CONFIG_ITEMS,
        incidents: INCIDENTS,
      },
      requests: totalRequests,
      perSecond: round(totalRequests / elapsedS),
      errors: totalErrors,
      endpoints: results,
      loadAverage1m: { before: round(loadAverageBefore), after: round(os.loadavg()[0]) },
      serverWarnings: serverLines.length,
      firstServerWarnings: serverLines.slice(0, 10),
      target: { errors: 0, p99Ms: TARGET_P99_MS },
      withinTarget: totalErrors === 0 && worstP99 < TARGET_P99_MS,
    };
  } finally {
    agent.destroy();
    server.child.kill('SIGTERM');
    await server.exited;
    await target.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
