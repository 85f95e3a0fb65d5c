// Data API benchmark: 100k generated config items with labels and changes, incidents with a
// three-level embed, and check statuses. For three queries (catalog list, incident detail, check
// status page) it measures the data API over HTTP against the very same SQL statement run through
// `pg` directly, in the same run, plus the parse+plan cost per request.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import {
  createDataApiAllowlist,
  createReadPool,
  createSchemaCatalog,
  DataApiEngine,
  dataApiRoutes,
} from '../apps/server/src/data-api/index.js';
import type { EngineRequest } from '../apps/server/src/data-api/engine.js';

interface BenchContext {
  databaseUrl: string;
  log: (message: string) => void;
}

const SCHEMA = 'dapi_bench';
const CONFIG_ITEMS = Number(process.env.DATA_API_BENCH_ITEMS ?? 100_000);
const ITERATIONS = Number(process.env.DATA_API_BENCH_ITERATIONS ?? 400);
const WARMUP = 50;
const CONCURRENCY = 8;
const THROUGHPUT_MS = 3000;

export const SETUP_SQL = `
CREATE SCHEMA ${SCHEMA};
CREATE TABLE ${SCHEMA}.config_scrapers (id uuid PRIMARY KEY, name text NOT NULL);
CREATE TABLE ${SCHEMA}.config_items (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL,
  config_class text,
  status text,
  health text,
  labels jsonb NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  scraper_id uuid REFERENCES ${SCHEMA}.config_scrapers(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  deleted_at timestamptz
);
CREATE TABLE ${SCHEMA}.config_changes (
  id uuid PRIMARY KEY,
  config_id uuid NOT NULL REFERENCES ${SCHEMA}.config_items(id),
  change_type text NOT NULL,
  severity text,
  summary text,
  created_at timestamptz NOT NULL
);
CREATE TABLE ${SCHEMA}.people (id uuid PRIMARY KEY, name text NOT NULL, avatar text);
CREATE TABLE ${SCHEMA}.incidents (
  id uuid PRIMARY KEY,
  title text NOT NULL,
  severity int NOT NULL,
  status text NOT NULL,
  commander_id uuid REFERENCES ${SCHEMA}.people(id),
  created_by uuid NOT NULL REFERENCES ${SCHEMA}.people(id),
  created_at timestamptz NOT NULL
);
CREATE TABLE ${SCHEMA}.hypotheses (
  id uuid PRIMARY KEY,
  incident_id uuid NOT NULL REFERENCES ${SCHEMA}.incidents(id),
  title text NOT NULL,
  type text NOT NULL,
  created_by uuid REFERENCES ${SCHEMA}.people(id)
);
CREATE TABLE ${SCHEMA}.evidences (
  id uuid PRIMARY KEY,
  hypothesis_id uuid NOT NULL REFERENCES ${SCHEMA}.hypotheses(id),
  description text NOT NULL,
  config_id uuid REFERENCES ${SCHEMA}.config_items(id)
);
CREATE TABLE ${SCHEMA}.checks (id uuid PRIMARY KEY, name text NOT NULL, type text NOT NULL, status text, labels jsonb NOT NULL DEFAULT '{}');
CREATE TABLE ${SCHEMA}.check_statuses (
  check_id uuid NOT NULL REFERENCES ${SCHEMA}.checks(id),
  time timestamptz NOT NULL,
  status boolean NOT NULL,
  invalid boolean NOT NULL DEFAULT false,
  duration integer,
  message text,
  PRIMARY KEY (check_id, time)
);

INSERT INTO ${SCHEMA}.config_scrapers SELECT md5('scraper' || i)::uuid, 'scraper-' || i FROM generate_series(1, 20) i;
INSERT INTO ${SCHEMA}.config_items (id, name, type, config_class, status, health, labels, tags, scraper_id, created_at, deleted_at)
SELECT md5('config' || i)::uuid,
       'config-' || lpad(i::text, 6, '0'),
       (ARRAY['Kubernetes::Pod','Kubernetes::Deployment','Kubernetes::Service','AWS::EC2::Instance','Postgres::Instance'])[1 + i % 5],
       (ARRAY['Pod','Deployment','Service','VirtualMachine','Database'])[1 + i % 5],
       (ARRAY['Running','Pending','Stopped'])[1 + i % 3],
       (ARRAY['healthy','warning','unhealthy','unknown'])[1 + i % 4],
       jsonb_build_object('env', (ARRAY['prod','staging','dev'])[1 + i % 3], 'team', 'team-' || (i % 40), 'app', 'app-' || (i % 500)),
       ARRAY['cluster-' || (i % 8), 'zone-' || (i % 3)],
       md5('scraper' || (1 + i % 20))::uuid,
       '2024-01-01'::timestamptz + (i || ' minutes')::interval,
       CASE WHEN i % 50 = 0 THEN '2024-06-01'::timestamptz END
  FROM generate_series(1, ${CONFIG_ITEMS}) i;
INSERT INTO ${SCHEMA}.config_changes (id, config_id, change_type, severity, summary, created_at)
SELECT md5('change' || i || '-' || j)::uuid, md5('config' || i)::uuid,
       (ARRAY['diff','Restarted','ScaledUp','Pulled'])[1 + (i + j) % 4], (ARRAY['info','low','high'])[1 + j % 3],
       'change ' || j || ' of config ' || i, '2024-02-01'::timestamptz + ((i * 3 + j) || ' minutes')::interval
  FROM generate_series(1, ${CONFIG_ITEMS}) i, generate_series(1, 3) j;
INSERT INTO ${SCHEMA}.people SELECT md5('person' || i)::uuid, 'Person ' || i, 'avatar-' || i || '.png' FROM generate_series(1, 500) i;
INSERT INTO ${SCHEMA}.incidents
SELECT md5('incident' || i)::uuid, 'Incident ' || i, 1 + i % 4, (ARRAY['open','closed','resolved'])[1 + i % 3],
       md5('person' || (1 + i % 500))::uuid, md5('person' || (1 + (i * 7) % 500))::uuid, '2024-03-01'::timestamptz + (i || ' hours')::interval
  FROM generate_series(1, 5000) i;
INSERT INTO ${SCHEMA}.hypotheses
SELECT md5('hypothesis' || i || '-' || j)::uuid, md5('incident' || i)::uuid, 'Hypothesis ' || j || ' of ' || i,
       (ARRAY['root','factor','solution','factor'])[j], md5('person' || (1 + (i + j) % 500))::uuid
  FROM generate_series(1, 5000) i, generate_series(1, 4) j;
INSERT INTO ${SCHEMA}.evidences
SELECT md5('evidence' || i || '-' || j || '-' || k)::uuid, md5('hypothesis' || i || '-' || j)::uuid, 'Evidence ' || k,
       md5('config' || (1 + (i * 13 + j * 7 + k) % ${CONFIG_ITEMS}))::uuid
  FROM generate_series(1, 5000) i, generate_series(1, 4) j, generate_series(1, 3) k;
INSERT INTO ${SCHEMA}.checks
SELECT md5('check' || i)::uuid, 'check-' || i, (ARRAY['http','dns','postgres','tcp'])[1 + i % 4],
       (ARRAY['healthy','unhealthy'])[1 + (i % 9 = 0)::int], jsonb_build_object('env', (ARRAY['prod','staging'])[1 + i % 2])
  FROM generate_series(1, 2000) i;
INSERT INTO ${SCHEMA}.check_statuses
SELECT md5('check' || i)::uuid, '2024-05-01'::timestamptz + (j || ' minutes')::interval, (i + j) % 11 <> 0, false,
       50 + (i * j) % 900, CASE WHEN (i + j) % 11 = 0 THEN 'timeout after 30s' ELSE 'ok' END
  FROM generate_series(1, 2000) i, generate_series(1, 100) j;

CREATE INDEX ON ${SCHEMA}.config_items (type, name);
CREATE INDEX ON ${SCHEMA}.config_items (name);
CREATE INDEX ON ${SCHEMA}.config_items ((labels->>'env'));
CREATE INDEX ON ${SCHEMA}.config_changes (config_id, created_at);
CREATE INDEX ON ${SCHEMA}.hypotheses (incident_id);
CREATE INDEX ON ${SCHEMA}.evidences (hypothesis_id);
`;

const allowlist = createDataApiAllowlist({
  tables: {
    config_scrapers: {},
    config_items: {},
    config_changes: {},
    people: {},
    incidents: {},
    hypotheses: {},
    evidences: {},
    checks: {},
    check_statuses: {},
  },
});

interface QueryCase {
  name: string;
  description: string;
  /** Paths (with query strings) under /api/db; cycled so every request hits different rows. */
  paths: string[];
  prefer?: string;
}

function uuidOf(text: string): string {
  // Same as PostgreSQL's md5(text)::uuid.
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function cases(): QueryCase[] {
  const types = [
    'Kubernetes::Pod',
    'Kubernetes::Deployment',
    'Kubernetes::Service',
    'AWS::EC2::Instance',
    'Postgres::Instance',
  ];
  const envs = ['prod', 'staging', 'dev'];
  const catalogPaths = [];
  for (let i = 0; i < 15; i++) {
    const type = types[i % types.length];
    const env = envs[i % envs.length];
    catalogPaths.push(
      `/config_items?select=id,name,type,status,health,labels,tags,created_at,config_scrapers(name),config_changes(change_type,severity,created_at)` +
        `&type=eq.${encodeURIComponent(type)}&deleted_at=is.null&labels->>env=eq.${env}` +
        `&config_changes.order=created_at.desc&config_changes.limit=3&order=name.asc&limit=50&offset=${(i % 5) * 50}`,
    );
  }
  const incidentPaths = Array.from(
    { length: 50 },
    (_, i) =>
      `/incidents?id=eq.${uuidOf(`incident${1 + i * 97}`)}` +
      `&select=id,title,severity,status,created_at,commander:commander_id(id,name,avatar),` +
      `hypotheses(id,title,type,created_by(name),evidences(id,description,config:config_items(id,name,type,health)))`,
  );
  const checkPaths = Array.from(
    { length: 50 },
    (_, i) =>
      `/check_statuses?check_id=eq.${uuidOf(`check${1 + i * 37}`)}&select=time,status,invalid,duration,message&order=time.desc&limit=50`,
  );
  return [
    {
      name: 'catalogList',
      description:
        'config_items: 3 filters (one on a JSON path), to-one and to-many embeds, order, limit 50, count=exact',
      paths: catalogPaths,
      prefer: 'count=exact',
    },
    {
      name: 'incidentDetail',
      description: 'one incident with commander, hypotheses → evidences → config items (three-level embed)',
      paths: incidentPaths,
    },
    {
      name: 'checkStatusPage',
      description: 'check_statuses of one check, newest first, limit 50, count=exact',
      paths: checkPaths,
      prefer: 'count=exact',
    },
  ];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

function summarize(samples: number[]): { p50: number; p95: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 1000) / 1000;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

function summarizeMicros(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
}

function httpGet(
  agent: http.Agent,
  port: number,
  path: string,
  prefer: string | undefined,
  base = '/api/db',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `${base}${path}`,
        agent,
        headers: { accept: 'application/json', ...(prefer ? { prefer } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function throughput(run: (i: number) => Promise<unknown>): Promise<number> {
  let done = 0;
  const deadline = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      let i = worker;
      while (performance.now() < deadline) {
        await run(i);
        i += CONCURRENCY;
        done++;
      }
    }),
  );
  return Math.round((done / (performance.now() - started)) * 1000);
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const setupPool = new pg.Pool({ connectionString: ctx.databaseUrl, max: 1 });
  const t0 = performance.now();
  await setupPool.query(SETUP_SQL);
  await setupPool.query(`ANALYZE`);
  await setupPool.end();
  ctx.log(
    `generated ${CONFIG_ITEMS} config items, ${CONFIG_ITEMS * 3} changes, 5000 incidents, 200000 check statuses in ${Math.round(performance.now() - t0)} ms`,
  );

  const apiPool = new pg.Pool({ connectionString: ctx.databaseUrl, max: CONCURRENCY });
  const directPool = new pg.Pool({ connectionString: ctx.databaseUrl, max: CONCURRENCY });
  const catalog = createSchemaCatalog(apiPool, { schema: SCHEMA });
  const app = Fastify({ logger: false });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool: apiPool,
    allowlist,
    catalog,
    // The hook the RBAC module fills in later; here every request is a signed-in admin.
    authorize: async () => ({ allow: true }),
  });
  // The transport floor: the same HTTP server and client answering with the same statement run
  // through pg directly (named, as the API does) and no engine. api − floor is what the engine
  // adds; floor − directPrepared is what HTTP adds.
  const floorStatements = new Map<string, Array<{ text: string; values: unknown[] }>>();
  app.get('/floor/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const index = Number((request.query as { i?: string }).i ?? 0);
    const list = floorStatements.get(name) ?? [];
    const statement = list[index % list.length];
    const { rows } = await directPool.query<{ body: string; total: string | null; page: string }>({
      name: `floor_${name}`,
      text: statement.text,
      values: statement.values,
    });
    const page = Number(rows[0].page);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-range', `${page === 0 ? '*' : `0-${page - 1}`}/${rows[0].total ?? '*'}`)
      .send(rows[0].body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  // A second engine on the same catalog compiles each request to the statement the API runs, and
  // answers requests in-process (the engine without the HTTP transport).
  const engineReadPool = createReadPool(apiPool, 15_000);
  const engine = new DataApiEngine({
    pool: apiPool,
    readPool: engineReadPool,
    catalog,
    allowlist,
    maxRows: 10_000,
    statementTimeoutMs: 15_000,
  });
  const allowAll = async (): Promise<{ allow: true }> => ({ allow: true });
  const loadedCatalog = await catalog.get();
  const engineRequest = (path: string, prefer: string | undefined): EngineRequest => {
    const [pathname, query = ''] = path.split('?');
    return {
      method: 'GET',
      target: { kind: 'relation', name: pathname.slice(1) },
      rawQuery: query,
      headers: { accept: 'application/json', prefer },
      body: undefined,
      basePath: '/api/db',
    };
  };

  const results: Record<string, unknown> = {
    configItems: CONFIG_ITEMS,
    iterations: ITERATIONS,
    concurrency: CONCURRENCY,
    note:
      'api = HTTP request to the data API (keep-alive, client in the same process); engine = the same request answered in-process ' +
      '(parse, plan, authorize, execute, response; no HTTP); direct = the same SQL statement and parameters through pg.Pool.query; ' +
      'directPrepared = the same, as a named prepared statement (the data API prepares a shape from its second use on); ' +
      'httpFloor = the same statement (named) behind the same HTTP server and client without the engine (transport floor)',
  };
  try {
    for (const testCase of cases()) {
      const statements = await Promise.all(
        testCase.paths.map((path) => engine.compile(engineRequest(path, testCase.prefer), allowAll)),
      );
      // Both sides must answer the same thing.
      const check = await httpGet(agent, port, testCase.paths[0], testCase.prefer);
      const direct = await directPool.query<{ body: string; page: number }>(
        statements[0].text,
        statements[0].values,
      );
      if (check.status >= 300 || check.body !== direct.rows[0].body) {
        throw new Error(
          `${testCase.name}: the API and the direct SQL disagree (${check.status}): ${check.body.slice(0, 300)}`,
        );
      }
      const rows = Number(direct.rows[0].page);
      floorStatements.set(testCase.name, statements);

      const callApi = async (i: number): Promise<void> => {
        const response = await httpGet(
          agent,
          port,
          testCase.paths[i % testCase.paths.length],
          testCase.prefer,
        );
        if (response.status >= 300) throw new Error(`${testCase.name}: ${response.status} ${response.body}`);
      };
      const requests = testCase.paths.map((path) => engineRequest(path, testCase.prefer));
      const callEngine = async (i: number): Promise<void> => {
        const response = await engine.handle(requests[i % requests.length], allowAll);
        if (response.status >= 300) throw new Error(`${testCase.name}: ${response.status} ${response.body}`);
      };
      const callDirect = async (i: number): Promise<void> => {
        const statement = statements[i % statements.length];
        await directPool.query(statement.text, statement.values);
      };
      // The same statement as a named prepared statement (what the data API does for a shape it
      // has seen before, like PostgREST's db-prepared-statements): the fairest floor for the API.
      const preparedName = `bench_${testCase.name}`;
      const callDirectPrepared = async (i: number): Promise<void> => {
        const statement = statements[i % statements.length];
        await directPool.query({ name: preparedName, text: statement.text, values: statement.values });
      };

      const callFloor = async (i: number): Promise<void> => {
        const response = await httpGet(
          agent,
          port,
          `/${testCase.name}?i=${i % statements.length}`,
          testCase.prefer,
          '/floor',
        );
        if (response.status >= 300) throw new Error(`${testCase.name} floor: ${response.status}`);
      };

      const sides = {
        api: callApi,
        engine: callEngine,
        direct: callDirect,
        directPrepared: callDirectPrepared,
        httpFloor: callFloor,
      } as const;
      type Side = keyof typeof sides;
      const samples: Record<Side, number[]> = {
        api: [],
        engine: [],
        direct: [],
        directPrepared: [],
        httpFloor: [],
      };
      for (let i = 0; i < WARMUP; i++) for (const side of Object.keys(sides) as Side[]) await sides[side](i);
      const order: Side[] = ['api', 'engine', 'direct', 'directPrepared', 'httpFloor'];
      const rotations: Side[][] = order.map((_, r) => [...order.slice(r), ...order.slice(0, r)]);
      for (let i = 0; i < ITERATIONS; i++) {
        // Rotate which side goes first so none profits from warmer caches.
        for (const side of rotations[i % rotations.length]) {
          const started = performance.now();
          await sides[side](i);
          samples[side].push(performance.now() - started);
        }
      }
      const apiRps = await throughput(callApi);
      const engineRps = await throughput(callEngine);
      const directRps = await throughput(callDirect);
      const directPreparedRps = await throughput(callDirectPrepared);
      const floorRps = await throughput(callFloor);

      // Parse + plan only (no I/O). Cold: an engine with an empty plan cache plans the request
      // (parse, resolve against the catalog, emit SQL). Cached: the same shape was planned before,
      // so it costs a parse and a cache lookup. Each sample is one prepare() call.
      const timePrepare = (target: DataApiEngine, request: EngineRequest): number => {
        const began = process.hrtime.bigint();
        target.prepare(request, loadedCatalog);
        return Number(process.hrtime.bigint() - began) / 1000;
      };
      const coldSamples: number[] = [];
      for (let i = 0; i < 300; i++) {
        const coldEngine = new DataApiEngine({
          pool: apiPool,
          catalog,
          allowlist,
          maxRows: 10_000,
          statementTimeoutMs: 15_000,
        });
        coldSamples.push(timePrepare(coldEngine, requests[i % requests.length]));
      }
      const firstColdMicros = coldSamples[0];
      const loops = 20_000;
      for (let i = 0; i < 2000; i++) engine.prepare(requests[i % requests.length], loadedCatalog);
      const cachedSamples: number[] = [];
      for (let i = 0; i < loops; i++) cachedSamples.push(timePrepare(engine, requests[i % requests.length]));
      const cold = summarizeMicros(coldSamples.slice(1));
      const cached = summarizeMicros(cachedSamples);
      const parsePlanMicros = cachedSamples.reduce((a, b) => a + b, 0) / loops;

      const api = summarize(samples.api);
      const inProcess = summarize(samples.engine);
      const directSummary = summarize(samples.direct);
      const preparedSummary = summarize(samples.directPrepared);
      const floorSummary = summarize(samples.httpFloor);
      results[testCase.name] = {
        description: testCase.description,
        rowsPerResponse: rows,
        api: { ...api, requestsPerSecond: apiRps },
        engine: { ...inProcess, requestsPerSecond: engineRps },
        direct: { ...directSummary, requestsPerSecond: directRps },
        directPrepared: { ...preparedSummary, requestsPerSecond: directPreparedRps },
        httpFloor: { ...floorSummary, requestsPerSecond: floorRps },
        // The same statement behind the same HTTP server without the engine, against direct SQL:
        // the part of ratioP50 that is transport.
        floorRatioP50: Math.round((floorSummary.p50 / directSummary.p50) * 100) / 100,
        apiVsFloorP50: Math.round((api.p50 / floorSummary.p50) * 100) / 100,
        ratioP50: Math.round((api.p50 / directSummary.p50) * 100) / 100,
        ratioP50VsPrepared: Math.round((api.p50 / preparedSummary.p50) * 100) / 100,
        engineRatioP50: Math.round((inProcess.p50 / directSummary.p50) * 100) / 100,
        overheadP50Ms: Math.round((api.p50 - directSummary.p50) * 1000) / 1000,
        parsePlanMicrosPerRequest: Math.round(parsePlanMicros * 100) / 100,
        parsePlanMicros: { cold, cached },
        firstPlanMicros: Math.round(firstColdMicros),
      };
      ctx.log(
        `${testCase.name}: api p50 ${api.p50} ms p95 ${api.p95} ms ${apiRps} req/s | engine p50 ${inProcess.p50} ms ${engineRps} req/s | ` +
          `direct p50 ${directSummary.p50} ms p95 ${directSummary.p95} ms ${directRps} req/s | prepared p50 ${preparedSummary.p50} ms | ` +
          `http floor p50 ${floorSummary.p50} ms (${(floorSummary.p50 / directSummary.p50).toFixed(2)}× direct) | ` +
          `ratio ${(api.p50 / directSummary.p50).toFixed(2)} (vs prepared ${(api.p50 / preparedSummary.p50).toFixed(2)}) ` +
          `(engine ${(inProcess.p50 / directSummary.p50).toFixed(2)}) | parse+plan µs cold p50 ${cold.p50} p95 ${cold.p95}, cached p50 ${cached.p50} p95 ${cached.p95} (mean ${parsePlanMicros.toFixed(1)})`,
      );
    }
  } finally {
    agent.destroy();
    await app.close();
    await engineReadPool.end();
    await apiPool.end();
    await directPool.end();
  }
  return results;
}
