/**
 * Fixture for the data API's integration, client-library and fuzz tests: a small schema shaped
 * like the product's (people, teams, incidents with two foreign keys to people, hypotheses,
 * evidences, config items with labels and tags, relationships with two keys to config items,
 * views, functions, a sentinel table no request may reach), kept in its own schema so it never
 * collides with the product's migrated tables.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type pg from 'pg';
import { createDataApiAllowlist, type DataApiAction } from './allowlist.js';
import { createSchemaCatalog, type SchemaCatalog } from './catalog.js';
import type { DataApiAuthorization } from './engine.js';
import { dataApiRoutes } from './index.js';
import type { RowFilter } from './row-filters.js';

export const FIXTURE_SCHEMA = 'dapi_fixture';

export const ID = {
  alice: 'a0000000-0000-4000-8000-000000000001',
  bob: 'a0000000-0000-4000-8000-000000000002',
  carol: 'a0000000-0000-4000-8000-000000000003',
  dan: 'a0000000-0000-4000-8000-000000000004',
  sre: 'b0000000-0000-4000-8000-000000000001',
  platform: 'b0000000-0000-4000-8000-000000000002',
  dbDown: 'c0000000-0000-4000-8000-000000000001',
  slowApi: 'c0000000-0000-4000-8000-000000000002',
  diskFull: 'c0000000-0000-4000-8000-000000000003',
  certExpiry: 'c0000000-0000-4000-8000-000000000004',
  hPrimary: 'd0000000-0000-4000-8000-000000000001',
  hNetwork: 'd0000000-0000-4000-8000-000000000002',
  hGc: 'd0000000-0000-4000-8000-000000000003',
  ePrimaryLog: 'e0000000-0000-4000-8000-000000000001',
  eReplicaLag: 'e0000000-0000-4000-8000-000000000002',
  eHeap: 'e0000000-0000-4000-8000-000000000003',
  componentDb: '90000000-0000-4000-8000-000000000001',
  componentApi: '90000000-0000-4000-8000-000000000002',
  dbPrimary: 'f0000000-0000-4000-8000-000000000001',
  dbReplica: 'f0000000-0000-4000-8000-000000000002',
  apiDeployment: 'f0000000-0000-4000-8000-000000000003',
  stagingApi: 'f0000000-0000-4000-8000-000000000004',
  oldVm: 'f0000000-0000-4000-8000-000000000005',
  scraper: '80000000-0000-4000-8000-000000000001',
} as const;

const S = FIXTURE_SCHEMA;

export const FIXTURE_SQL = `
CREATE SCHEMA ${S};
CREATE TABLE ${S}.people (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text UNIQUE,
  avatar text,
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TABLE ${S}.teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  spec jsonb NOT NULL DEFAULT '{}',
  hours int4range
);
CREATE TABLE ${S}.team_members (
  team_id uuid NOT NULL REFERENCES ${S}.teams(id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES ${S}.people(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, person_id)
);
CREATE TABLE ${S}.config_scrapers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL
);
CREATE TABLE ${S}.config_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  type text NOT NULL,
  config_class text,
  status text,
  health text,
  labels jsonb NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  parent_id uuid REFERENCES ${S}.config_items(id),
  scraper_id uuid REFERENCES ${S}.config_scrapers(id),
  cost numeric,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english', name)) STORED
);
CREATE TABLE ${S}.config_relationships (
  config_id uuid NOT NULL REFERENCES ${S}.config_items(id),
  related_id uuid NOT NULL REFERENCES ${S}.config_items(id),
  relation text NOT NULL DEFAULT 'parent',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (config_id, related_id, relation)
);
CREATE TABLE ${S}.config_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES ${S}.config_items(id),
  change_type text NOT NULL,
  severity text,
  summary text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${S}.incidents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL,
  severity integer NOT NULL DEFAULT 3,
  status text NOT NULL DEFAULT 'open',
  created_by uuid NOT NULL REFERENCES ${S}.people(id),
  commander_id uuid REFERENCES ${S}.people(id),
  labels jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE TABLE ${S}.hypotheses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES ${S}.incidents(id) ON DELETE CASCADE,
  title text NOT NULL,
  type text NOT NULL DEFAULT 'factor',
  created_by uuid REFERENCES ${S}.people(id)
);
CREATE TABLE ${S}.evidences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hypothesis_id uuid NOT NULL REFERENCES ${S}.hypotheses(id) ON DELETE CASCADE,
  description text NOT NULL,
  component_id uuid,
  config_id uuid REFERENCES ${S}.config_items(id),
  done boolean
);
CREATE TABLE ${S}.access_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  value text NOT NULL,
  person_id uuid REFERENCES ${S}.people(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${S}.sentinel (
  id integer PRIMARY KEY,
  secret text NOT NULL
);
CREATE VIEW ${S}.configs AS
  SELECT id, name, type, config_class, status, health, labels, tags, parent_id, scraper_id, created_at, deleted_at
    FROM ${S}.config_items;
CREATE VIEW ${S}.config_names AS SELECT id, name, type FROM ${S}.config_items;
CREATE VIEW ${S}.token_owners AS SELECT t.id, t.name, t.value, t.person_id FROM ${S}.access_tokens t;
CREATE VIEW ${S}.incident_summary AS
  SELECT i.id, i.title, i.severity, i.status, i.commander_id,
         (SELECT count(*) FROM ${S}.hypotheses h WHERE h.incident_id = i.id) AS hypotheses_count
    FROM ${S}.incidents i;
CREATE FUNCTION ${S}.related_configs(config_id uuid, include_deleted boolean DEFAULT false)
  RETURNS SETOF ${S}.config_items LANGUAGE sql STABLE AS $fn$
    SELECT c.* FROM ${S}.config_items c
     WHERE (c.id IN (SELECT r.related_id FROM ${S}.config_relationships r WHERE r.config_id = related_configs.config_id)
        OR c.id IN (SELECT r.config_id FROM ${S}.config_relationships r WHERE r.related_id = related_configs.config_id)
        OR c.parent_id = related_configs.config_id)
       AND (include_deleted OR c.deleted_at IS NULL)
  $fn$;
CREATE FUNCTION ${S}.incident_count(p_status text) RETURNS integer LANGUAGE sql STABLE AS $fn$
  SELECT count(*)::int FROM ${S}.incidents WHERE status = p_status
$fn$;
CREATE FUNCTION ${S}.config_type_summary() RETURNS TABLE (type text, total bigint) LANGUAGE sql STABLE AS $fn$
  SELECT type, count(*) FROM ${S}.config_items WHERE deleted_at IS NULL GROUP BY type
$fn$;
CREATE FUNCTION ${S}.severity_levels() RETURNS SETOF integer LANGUAGE sql IMMUTABLE AS $fn$
  SELECT generate_series(1, 4)
$fn$;
CREATE FUNCTION ${S}.close_incident(p_id uuid) RETURNS void LANGUAGE sql VOLATILE AS $fn$
  UPDATE ${S}.incidents SET status = 'closed', closed_at = now() WHERE id = p_id
$fn$;
CREATE FUNCTION ${S}.echo_payload(json) RETURNS json LANGUAGE sql IMMUTABLE AS $fn$ SELECT $1 $fn$;
CREATE FUNCTION ${S}.people_named(p_name text) RETURNS SETOF ${S}.people LANGUAGE sql STABLE AS $fn$
  SELECT * FROM ${S}.people WHERE name = p_name
$fn$;
CREATE FUNCTION ${S}.slow_echo(seconds float8) RETURNS float8 LANGUAGE sql VOLATILE AS $fn$
  SELECT pg_sleep(seconds); SELECT seconds
$fn$;
CREATE FUNCTION ${S}.wipe_sentinel() RETURNS void LANGUAGE sql VOLATILE AS $fn$ DELETE FROM ${S}.sentinel $fn$;

INSERT INTO ${S}.sentinel VALUES (1, 'do not touch'), (2, 'still here');
INSERT INTO ${S}.people (id, name, email, avatar, password_hash, created_at, deleted_at) VALUES
  ('${ID.alice}', 'Alice', 'alice@example.com', 'a.png', 'hash-a', '2024-01-01T00:00:00Z', NULL),
  ('${ID.bob}', 'Bob', 'bob@example.com', NULL, 'hash-b', '2024-01-02T00:00:00Z', NULL),
  ('${ID.carol}', 'Carol', 'carol@example.com', 'c.png', 'hash-c', '2024-01-03T00:00:00Z', NULL),
  ('${ID.dan}', 'Dan', NULL, NULL, 'hash-d', '2024-01-04T00:00:00Z', '2024-02-01T00:00:00Z');
INSERT INTO ${S}.teams (id, name, spec, hours) VALUES
  ('${ID.sre}', 'SRE', '{"icon":"fire"}', '[0,24)'),
  ('${ID.platform}', 'Platform', '{"icon":"cloud"}', '[9,17)');
INSERT INTO ${S}.team_members VALUES
  ('${ID.sre}', '${ID.alice}'), ('${ID.sre}', '${ID.bob}'), ('${ID.platform}', '${ID.bob}'), ('${ID.platform}', '${ID.carol}');
INSERT INTO ${S}.config_scrapers (id, name) VALUES ('${ID.scraper}', 'kubernetes');
INSERT INTO ${S}.config_items (id, name, type, config_class, status, health, labels, tags, parent_id, scraper_id, cost, created_at, deleted_at) VALUES
  ('${ID.dbPrimary}', 'db-primary', 'Postgres::Instance', 'Database', 'Running', 'healthy', '{"app":"db","env":"prod"}', '{prod,db}', NULL, '${ID.scraper}', 120.5, '2024-03-01T00:00:00Z', NULL),
  ('${ID.dbReplica}', 'db-replica', 'Postgres::Instance', 'Database', 'Running', 'warning', '{"app":"db","env":"prod","role":"replica"}', '{prod,db}', '${ID.dbPrimary}', '${ID.scraper}', 80, '2024-03-02T00:00:00Z', NULL),
  ('${ID.apiDeployment}', 'api-deployment', 'Kubernetes::Deployment', 'Deployment', 'Running', 'healthy', '{"app":"api","env":"prod","app.kubernetes.io/name":"api"}', '{prod}', NULL, '${ID.scraper}', NULL, '2024-03-03T00:00:00Z', NULL),
  ('${ID.stagingApi}', 'staging-api', 'Kubernetes::Deployment', 'Deployment', 'Pending', 'unhealthy', '{"app":"api","env":"staging"}', '{staging}', NULL, NULL, 10, '2024-03-04T00:00:00Z', NULL),
  ('${ID.oldVm}', 'old-vm', 'AWS::EC2::Instance', 'VirtualMachine', 'Stopped', NULL, '{"env":"prod"}', '{}', NULL, NULL, NULL, '2024-03-05T00:00:00Z', '2024-04-01T00:00:00Z');
INSERT INTO ${S}.config_relationships (config_id, related_id, relation) VALUES
  ('${ID.dbPrimary}', '${ID.dbReplica}', 'replica'),
  ('${ID.apiDeployment}', '${ID.dbPrimary}', 'uses');
INSERT INTO ${S}.config_changes (config_id, change_type, severity, summary, created_at) VALUES
  ('${ID.dbPrimary}', 'diff', 'info', 'minutes ago', now() - interval '30 minutes'),
  ('${ID.dbPrimary}', 'Restarted', 'high', 'hours ago', now() - interval '3 hours'),
  ('${ID.apiDeployment}', 'ScaledUp', 'info', 'days ago', now() - interval '2 days'),
  ('${ID.stagingApi}', 'diff', 'low', 'long ago', now() - interval '10 days');
INSERT INTO ${S}.incidents (id, title, severity, status, created_by, commander_id, labels, created_at, closed_at) VALUES
  ('${ID.dbDown}', 'Database down', 1, 'open', '${ID.alice}', '${ID.bob}', '{"env":"prod","app":"db"}', '2024-05-01T10:00:00Z', NULL),
  ('${ID.slowApi}', 'Slow API', 2, 'open', '${ID.bob}', '${ID.bob}', '{"env":"staging"}', '2024-05-02T10:00:00Z', NULL),
  ('${ID.diskFull}', 'Disk full', 3, 'closed', '${ID.carol}', NULL, '{}', '2024-05-03T10:00:00Z', '2024-05-04T10:00:00Z'),
  ('${ID.certExpiry}', 'Cert expiry, again', 1, 'closed', '${ID.alice}', '${ID.carol}', '{"env":"prod"}', '2024-05-04T10:00:00Z', '2024-05-05T10:00:00Z');
INSERT INTO ${S}.hypotheses (id, incident_id, title, type, created_by) VALUES
  ('${ID.hPrimary}', '${ID.dbDown}', 'Primary crashed', 'root', '${ID.alice}'),
  ('${ID.hNetwork}', '${ID.dbDown}', 'Network partition', 'factor', '${ID.bob}'),
  ('${ID.hGc}', '${ID.slowApi}', 'GC pauses', 'root', '${ID.bob}');
INSERT INTO ${S}.evidences (id, hypothesis_id, description, component_id, config_id, done) VALUES
  ('${ID.ePrimaryLog}', '${ID.hPrimary}', 'Crash in the primary log', '${ID.componentDb}', '${ID.dbPrimary}', true),
  ('${ID.eReplicaLag}', '${ID.hPrimary}', 'Replica lag', '${ID.componentDb}', '${ID.dbReplica}', false),
  ('${ID.eHeap}', '${ID.hGc}', 'Heap graph', '${ID.componentApi}', '${ID.apiDeployment}', NULL);
INSERT INTO ${S}.access_tokens (name, value, person_id) VALUES ('ci', 'secret-hash-value', '${ID.alice}');
`;

export const fixtureAllowlist = createDataApiAllowlist({
  hiddenEverywhere: ['password_hash'],
  tables: {
    people: {},
    teams: {},
    team_members: {},
    config_scrapers: { actions: ['read'] },
    config_items: {
      actions: ['read', 'insert', 'update', 'delete'],
      writableColumns: [
        'name',
        'type',
        'config_class',
        'status',
        'health',
        'labels',
        'tags',
        'parent_id',
        'deleted_at',
        'cost',
      ],
    },
    config_relationships: { actions: ['read'] },
    config_changes: { actions: ['read'] },
    incidents: {},
    hypotheses: {},
    evidences: {},
    access_tokens: { actions: ['read', 'delete'], hiddenColumns: ['value'] },
  },
  views: {
    configs: {},
    config_names: {},
    incident_summary: {},
    token_owners: {},
  },
  functions: [
    'related_configs',
    'incident_count',
    'config_type_summary',
    'severity_levels',
    'close_incident',
    'echo_payload',
    'people_named',
    'slow_echo',
  ],
});

/**
 * Tokens the fixture's authorize hook understands (`Authorization: Bearer <token>`):
 * admin → everything; viewer → reads only; alice → incidents she created, and only writes there;
 * none → 401.
 */
export async function fixtureAuthorize(
  request: FastifyRequest,
  target: { relation: string; kind: 'table' | 'view' | 'function' },
  action: DataApiAction,
): Promise<DataApiAuthorization> {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (token === 'admin') return { allow: true };
  if (token === 'viewer') {
    if (action === 'read' || (action === 'execute' && target.relation !== 'close_incident'))
      return { allow: true };
    return { allow: false, status: 403, message: `viewer may not ${action} ${target.relation}` };
  }
  if (token === 'alice') {
    const rowFilters: RowFilter[] = [];
    if (target.relation === 'incidents')
      rowFilters.push({ kind: 'compare', column: 'created_by', op: 'eq', value: ID.alice });
    if (target.relation === 'hypotheses') {
      rowFilters.push({
        kind: 'exists',
        relation: 'incidents',
        on: [['id', 'incident_id']],
        where: [{ kind: 'compare', column: 'created_by', op: 'eq', value: ID.alice }],
      });
    }
    return { allow: true, rowFilters };
  }
  return { allow: false, status: 401, message: 'Not signed in' };
}

export interface FixtureApp {
  app: FastifyInstance;
  catalog: SchemaCatalog;
}

export async function installFixture(pool: pg.Pool): Promise<void> {
  await pool.query(FIXTURE_SQL);
}

export async function buildFixtureApp(
  pool: pg.Pool,
  options: { maxRows?: number; statementTimeoutMs?: number } = {},
): Promise<FixtureApp> {
  const app = Fastify({ logger: false });
  const catalog = createSchemaCatalog(pool, { schema: FIXTURE_SCHEMA });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool,
    allowlist: fixtureAllowlist,
    authorize: fixtureAuthorize,
    catalog,
    maxRows: options.maxRows,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  await app.ready();
  return { app, catalog };
}
