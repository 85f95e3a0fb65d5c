import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CHECK_STATUSES,
  EVIDENCE_TYPES,
  HYPOTHESIS_STATUSES,
  HYPOTHESIS_TYPES,
  INCIDENT_EVENT_TYPES,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  JOB_STATUSES,
  ROLES,
} from '@opsdeck/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import { MIGRATIONS_DIR } from './harness/postgres.js';

const NIL_AGENT = '00000000-0000-0000-0000-000000000000';

/**
 * Field names from spec/ section 3 (and API.md §1) that must be real columns: they are the
 * public API. Embedded relations (changes, analysis, comments, ...) and computed figures
 * (uptime, latency) are not columns and are not listed.
 */
const TABLE_COLUMNS: Record<string, string[]> = {
  people: ['id', 'name', 'avatar', 'email', 'team_id', 'created_at', 'updated_at', 'deleted_at'],
  identities: ['id', 'traits', 'state'],
  person_roles: ['person_id', 'role'],
  teams: ['id', 'name', 'icon', 'spec', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
  team_members: ['team_id', 'person_id', 'source'],
  access_tokens: ['id', 'name', 'value', 'person_id', 'created_by', 'created_at', 'expires_at', 'scope'],
  permissions: [
    'id',
    'subject',
    'subject_type',
    'team_id',
    'person_id',
    'notification_id',
    'action',
    'deny',
    'object',
    'config_id',
    'component_id',
    'canary_id',
    'check_id',
    'playbook_id',
    'connection_id',
    'object_selector',
    'tags',
    'agents',
    'description',
    'source',
    'until',
    'created_at',
    'created_by',
    'updated_at',
    'updated_by',
  ],
  properties: ['name', 'value', 'type', 'description'],
  agents: ['id', 'name', 'description', 'properties', 'created_by', 'deleted_at'],
  connections: [
    'id',
    'name',
    'namespace',
    'type',
    'url',
    'username',
    'password',
    'certificate',
    'insecure_tls',
    'properties',
    'deleted_at',
  ],
  canaries: ['id', 'source', 'spec', 'name', 'namespace', 'labels', 'schedule', 'icon', 'deleted_at'],
  checks: [
    'id',
    'name',
    'icon',
    'type',
    'status',
    'labels',
    'namespace',
    'endpoint',
    'agent_id',
    'canary_id',
    'severity',
    'description',
    'last_runtime',
    'last_transition_time',
    'next_runtime',
    'deleted_at',
  ],
  // check_statuses is a view over these two tiers (migration 0070); VIEW_COLUMNS lists it.
  check_statuses_recent: ['check_id', 'time', 'duration', 'message', 'error', 'status', 'details'],
  check_status_blocks: ['check_id', 'day', 'total', 'passed', 'times', 'durations', 'statuses'],
  check_statuses_1h: ['check_id', 'created_at', 'total', 'passed', 'failed', 'duration'],
  check_statuses_1d: ['check_id', 'created_at', 'total', 'passed', 'failed', 'duration'],
  check_component_relationships: ['component_id', 'check_id', 'canary_id'],
  check_config_relationships: ['config_id', 'check_id', 'canary_id'],
  topologies: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'agent_id', 'icon', 'schedule'],
  components: ['id', 'name', 'icon', 'type', 'labels', 'topology_id', 'parent_id', 'deleted_at'],
  config_items: [
    'id',
    'type',
    'config_class',
    'status',
    'health',
    'labels',
    'name',
    'tags',
    'created_at',
    'updated_at',
    'deleted_at',
    'cost_per_minute',
    'cost_total_1d',
    'cost_total_7d',
    'cost_total_30d',
    'agent_id',
    'namespace',
    'description',
    'external_id',
  ],
  config_changes: [
    'id',
    'config_id',
    'change_type',
    'created_at',
    'external_created_by',
    'source',
    'diff',
    'details',
    'patches',
    'created_by',
    'severity',
  ],
  config_analysis: [
    'id',
    'config_id',
    'analyzer',
    'analysis_type',
    'message',
    'severity',
    'status',
    'analysis',
    'first_observed',
    'last_observed',
    'source',
  ],
  config_relationships: ['config_id', 'related_id', 'relation'],
  config_component_relationships: ['component_id', 'config_id', 'selector_id'],
  config_scrapers: ['id', 'name', 'source', 'spec'],
  incidents: [
    'id',
    'incident_id',
    'title',
    'type',
    'status',
    'severity',
    'description',
    'created_by',
    'commander_id',
    'communicator_id',
    'created_at',
  ],
  hypotheses: ['id', 'title', 'type', 'status', 'incident_id', 'created_by'],
  evidences: [
    'config_id',
    'config_analysis_id',
    'config_change_id',
    'component_id',
    'check_id',
    'created_by',
    'hypothesis_id',
    'evidence',
    'type',
    'description',
    'properties',
    'definition_of_done',
    'done',
    'script',
  ],
  comments: ['comment', 'created_by', 'responder_id', 'external_created_by', 'incident_id', 'hypothesis_id'],
  responders: ['id', 'incident_id', 'person_id', 'team_id'],
  incident_histories: ['id', 'incident_id', 'type', 'created_by', 'created_at'],
  incident_rules: ['id', 'name', 'spec'],
  playbooks: ['id', 'name', 'title', 'spec', 'deleted_at'],
  playbook_runs: ['id', 'playbook_id', 'status', 'config_id', 'component_id', 'check_id', 'parameters'],
  playbook_run_actions: ['id', 'playbook_run_id', 'name', 'status', 'result', 'error'],
  playbook_approvals: ['id', 'run_id', 'person_id', 'team_id'],
  artifacts: ['id', 'playbook_run_id', 'path', 'filename', 'content_type', 'size'],
  notifications: ['id', 'person_id', 'team_id', 'custom_services', 'created_by'],
  notification_silences: ['id', 'until', 'deleted_at', 'config_id', 'check_id', 'canary_id', 'component_id'],
  notification_send_history: ['id', 'notification_id', 'resource_id', 'resource_type', 'status'],
  logging_backends: ['id', 'name', 'labels', 'spec', 'created_by', 'created_at', 'updated_at', 'source'],
  applications: ['id', 'name', 'namespace', 'spec'],
  views: ['id', 'name', 'namespace', 'title', 'icon', 'ordinal', 'sidebar'],
};

/** Resources written as YAML (kind + metadata + spec). */
const YAML_RESOURCES = [
  'canaries',
  'config_scrapers',
  'topologies',
  'playbooks',
  'notifications',
  'notification_silences',
  'connections',
  'incident_rules',
  'teams',
  'views',
  'permissions',
  'logging_backends',
  'secrets',
  'config_maps',
];

const VIEW_COLUMNS: Record<string, string[]> = {
  configs: [
    'id',
    'type',
    'config_class',
    'name',
    'namespace',
    'status',
    'health',
    'labels',
    'tags',
    'deleted_at',
  ],
  config_names: ['id', 'name', 'type'],
  config_types: ['type'],
  config_statuses: ['status'],
  change_types: ['change_type'],
  analysis_types: ['analysis_type'],
  config_analysis_analyzers: ['analyzer'],
  check_names: ['id', 'canary_id', 'name'],
  check_statuses: ['check_id', 'time', 'duration', 'message', 'error', 'status', 'details'],
  canary_names: ['id', 'name', 'namespace'],
  component_names: ['id', 'name'],
  playbook_names: ['id', 'name', 'title', 'icon'],
  people_roles: ['id', 'name', 'email', 'roles'],
};

/** [table, column, referenced table, ON DELETE ('c' cascade, 'n' set null, 'a' no action)]. */
const FOREIGN_KEYS: [string, string, string, string?][] = [
  ['evidences', 'hypothesis_id', 'hypotheses', 'c'],
  ['comments', 'hypothesis_id', 'hypotheses', 'c'],
  ['hypotheses', 'incident_id', 'incidents', 'c'],
  ['hypotheses', 'parent_id', 'hypotheses', 'c'],
  ['comments', 'incident_id', 'incidents'],
  ['responders', 'incident_id', 'incidents'],
  ['responders', 'person_id', 'people'],
  ['responders', 'team_id', 'teams'],
  ['incident_histories', 'incident_id', 'incidents'],
  ['incident_histories', 'hypothesis_id', 'hypotheses', 'n'],
  ['incidents', 'commander_id', 'people'],
  ['incidents', 'communicator_id', 'people'],
  ['incidents', 'incident_rule_id', 'incident_rules'],
  ['evidences', 'config_id', 'config_items'],
  ['evidences', 'config_analysis_id', 'config_analysis'],
  ['evidences', 'config_change_id', 'config_changes'],
  ['evidences', 'component_id', 'components'],
  ['evidences', 'check_id', 'checks'],
  ['config_changes', 'config_id', 'config_items'],
  ['config_analysis', 'config_id', 'config_items'],
  ['config_items', 'scraper_id', 'config_scrapers'],
  ['config_items', 'parent_id', 'config_items'],
  ['config_component_relationships', 'config_id', 'config_items'],
  ['config_component_relationships', 'component_id', 'components'],
  ['checks', 'canary_id', 'canaries', 'c'],
  ['check_statuses_recent', 'check_id', 'checks', 'c'],
  ['check_status_blocks', 'check_id', 'checks', 'c'],
  ['check_statuses_1h', 'check_id', 'checks', 'c'],
  ['check_statuses_1d', 'check_id', 'checks', 'c'],
  ['check_component_relationships', 'check_id', 'checks'],
  ['check_component_relationships', 'component_id', 'components'],
  ['check_config_relationships', 'check_id', 'checks'],
  ['check_config_relationships', 'config_id', 'config_items'],
  ['components', 'topology_id', 'topologies'],
  ['components', 'parent_id', 'components'],
  ['components', 'config_id', 'config_items'],
  ['team_members', 'team_id', 'teams', 'c'],
  ['team_members', 'person_id', 'people', 'c'],
  ['people', 'team_id', 'teams', 'n'],
  ['person_roles', 'person_id', 'people', 'c'],
  ['identities', 'id', 'people', 'c'],
  ['access_tokens', 'person_id', 'people', 'c'],
  ['permissions', 'team_id', 'teams'],
  ['permissions', 'person_id', 'people'],
  ['permissions', 'notification_id', 'notifications'],
  ['permissions', 'playbook_id', 'playbooks'],
  ['permissions', 'config_id', 'config_items'],
  ['permissions', 'component_id', 'components'],
  ['permissions', 'canary_id', 'canaries'],
  ['permissions', 'connection_id', 'connections'],
  ['permissions', 'updated_by', 'people'],
  ['playbook_runs', 'playbook_id', 'playbooks'],
  ['playbook_run_actions', 'playbook_run_id', 'playbook_runs', 'c'],
  ['playbook_approvals', 'run_id', 'playbook_runs', 'c'],
  ['artifacts', 'playbook_run_id', 'playbook_runs'],
  ['notifications', 'person_id', 'people'],
  ['notifications', 'team_id', 'teams'],
  ['notification_send_history', 'notification_id', 'notifications'],
  ['notification_silences', 'check_id', 'checks'],
  ['notification_silences', 'config_id', 'config_items'],
  ['notification_silences', 'component_id', 'components'],
];

/** Enum-like columns and every value the spec lists for them (the contracts' lists). */
const ENUM_VALUES: [string, string, readonly string[]][] = [
  ['incidents', 'status', INCIDENT_STATUSES],
  ['comments', 'status', INCIDENT_STATUSES],
  ['incidents', 'severity', INCIDENT_SEVERITIES],
  ['incidents', 'type', INCIDENT_TYPES],
  ['hypotheses', 'status', HYPOTHESIS_STATUSES],
  ['hypotheses', 'type', HYPOTHESIS_TYPES],
  ['evidences', 'type', EVIDENCE_TYPES],
  ['incident_histories', 'type', INCIDENT_EVENT_TYPES],
  ['checks', 'status', CHECK_STATUSES],
  ['job_history', 'status', JOB_STATUSES],
  ['person_roles', 'role', ROLES],
  ['permissions', 'subject_type', ['team', 'person', 'notification', 'group', 'playbook']],
];

/** [table, leading key columns] of the btree each list filters and sorts on. */
const LIST_INDEXES: [string, string[]][] = [
  ['checks', ['canary_id']],
  ['check_statuses_recent', ['check_id', 'time']],
  ['check_status_blocks', ['check_id', 'day']],
  ['config_items', ['type', 'name']],
  ['config_changes', ['config_id', 'created_at']],
  ['incidents', ['status', 'created_at']],
  ['hypotheses', ['incident_id']],
  ['evidences', ['hypothesis_id']],
  ['comments', ['incident_id']],
  ['incident_histories', ['incident_id']],
  ['playbook_runs', ['playbook_id', 'created_at']],
  ['playbook_run_actions', ['playbook_run_id']],
  ['notification_send_history', ['notification_id', 'created_at']],
  ['config_relationships', ['related_id']],
  ['check_component_relationships', ['check_id']],
  ['config_component_relationships', ['config_id']],
];

const JSONB_GIN_INDEXES: [string, string][] = [
  ['config_items', 'labels'],
  ['config_items', 'tags'],
  ['checks', 'labels'],
  ['components', 'labels'],
  ['canaries', 'labels'],
  ['topologies', 'labels'],
];

const TRIGRAM_INDEXES: [string, string][] = [
  ['config_items', 'name'],
  ['checks', 'name'],
  ['components', 'name'],
  ['people', 'name'],
  ['incidents', 'title'],
];

/** The SQLSTATE a statement fails with, or undefined when it succeeds. */
async function sqlState(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
    return undefined;
  } catch (error) {
    if (error instanceof pg.DatabaseError) return error.code;
    throw error;
  }
}

describe('database schema (migrations 0001-0009)', () => {
  let db: TestDatabase;

  async function columnsOf(
    relation: string,
  ): Promise<Map<string, { nullable: boolean; default: string | null }>> {
    const { rows } = await db.pool.query<{
      column_name: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT column_name, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = $1`,
      [relation],
    );
    return new Map(
      rows.map((row) => [
        row.column_name,
        { nullable: row.is_nullable === 'YES', default: row.column_default },
      ]),
    );
  }

  async function relationKinds(): Promise<Map<string, string>> {
    const { rows } = await db.pool.query<{ table_name: string; table_type: string }>(
      `SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return new Map(rows.map((row) => [row.table_name, row.table_type]));
  }

  async function indexDefinitions(table: string): Promise<string[]> {
    const { rows } = await db.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
      [table],
    );
    return rows.map((row) => row.indexdef);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  describe('tables and views', () => {
    it('has every spec entity as a table with the spec field names as columns', async () => {
      const kinds = await relationKinds();
      for (const [table, expected] of Object.entries(TABLE_COLUMNS)) {
        expect(kinds.get(table), table).toBe('BASE TABLE');
        const columns = await columnsOf(table);
        expect([...columns.keys()], table).toEqual(expect.arrayContaining(expected));
      }
    });

    it('has the read views with their columns, and configs leaves out the raw config document', async () => {
      const kinds = await relationKinds();
      for (const [view, expected] of Object.entries(VIEW_COLUMNS)) {
        expect(kinds.get(view), view).toBe('VIEW');
        expect([...(await columnsOf(view)).keys()], view).toEqual(expect.arrayContaining(expected));
      }
      expect((await columnsOf('configs')).has('config')).toBe(false);
      expect((await columnsOf('config_items')).has('config')).toBe(true);
    });

    it('leaves event_queue, job_history and schedule tables to migration 0010 and does not reference them', async () => {
      const files = (await fs.readdir(MIGRATIONS_DIR)).filter((name) => /^000[1-9]_.*\.sql$/.test(name));
      expect(files).toHaveLength(9);
      for (const file of files) {
        const sql = await fs.readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
        expect(sql, file).not.toMatch(
          /\b(CREATE\s+TABLE|REFERENCES|FROM|JOIN)\s+(IF\s+NOT\s+EXISTS\s+)?(event_queue|job_\w+|\w*schedules?)\b/i,
        );
      }
    });

    it('gives every table a uuid id defaulting to gen_random_uuid() and a non-null created_at', async () => {
      const { rows } = await db.pool.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        column_default: string | null;
        is_nullable: string;
      }>(
        `SELECT c.table_name, c.column_name, c.data_type, c.column_default, c.is_nullable
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
           AND c.table_name = ANY($1) AND c.column_name IN ('id', 'created_at')`,
        [Object.keys(TABLE_COLUMNS)],
      );
      const ids = rows.filter((row) => row.column_name === 'id' && row.table_name !== 'identities');
      expect(ids.length).toBeGreaterThan(30);
      for (const id of ids) {
        expect(id.data_type, id.table_name).toBe('uuid');
        expect(id.column_default, id.table_name).toBe('gen_random_uuid()');
      }
      for (const createdAt of rows.filter((row) => row.column_name === 'created_at')) {
        expect(createdAt.data_type, createdAt.table_name).toBe('timestamp with time zone');
        expect(createdAt.is_nullable, createdAt.table_name).toBe('NO');
      }
    });

    it('gives YAML resources name, namespace default, labels, spec, source default UI and agent_id', async () => {
      for (const table of YAML_RESOURCES) {
        const columns = await columnsOf(table);
        for (const column of [
          'name',
          'namespace',
          'labels',
          'spec',
          'source',
          'agent_id',
          'created_at',
          'updated_at',
          'deleted_at',
        ]) {
          expect(columns.has(column), `${table}.${column}`).toBe(true);
        }
        expect(columns.get('namespace')?.default, table).toBe(`'default'::text`);
        expect(columns.get('source')?.default, table).toBe(`'UI'::text`);
        const definitions = await indexDefinitions(table);
        expect(
          definitions.some((definition) =>
            /CREATE UNIQUE INDEX \S+ ON public\.\S+ USING btree \(namespace, name\) WHERE \(deleted_at IS NULL\)/.test(
              definition,
            ),
          ),
          `${table} unique (namespace, name) among live rows`,
        ).toBe(true);
      }
      expect((await columnsOf('teams')).get('icon')?.default).toBe(`'group'::text`);
      expect((await columnsOf('permissions')).get('deny')?.default).toBe('false');
    });

    it('makes every agent_id NOT NULL, defaulting to the nil agent, with a foreign key to agents', async () => {
      const { rows } = await db.pool.query<{
        table_name: string;
        is_nullable: string;
        column_default: string | null;
        target: string | null;
      }>(
        `SELECT c.table_name, c.is_nullable, c.column_default,
                (SELECT f.confrelid::regclass::text FROM pg_constraint f
                 WHERE f.contype = 'f' AND f.conrelid = format('public.%I', c.table_name)::regclass
                   AND f.conkey = ARRAY[c.ordinal_position::smallint]) AS target
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.column_name = 'agent_id'
           AND c.table_name = ANY($1)`,
        [Object.keys(TABLE_COLUMNS)],
      );
      expect(rows.length).toBeGreaterThanOrEqual(YAML_RESOURCES.length);
      for (const row of rows) {
        expect(row.is_nullable, row.table_name).toBe('NO');
        expect(row.column_default, row.table_name).toBe(`'${NIL_AGENT}'::uuid`);
        expect(row.target, row.table_name).toBe('agents');
      }
      const local = await db.pool.query('SELECT name FROM agents WHERE id = $1', [NIL_AGENT]);
      expect(local.rows).toEqual([{ name: 'local' }]);
    });
  });

  describe('constraints and indexes', () => {
    async function foreignKey(table: string, column: string) {
      const { rows } = await db.pool.query<{ name: string; target: string; on_delete: string }>(
        `SELECT f.conname AS name, f.confrelid::regclass::text AS target, f.confdeltype AS on_delete
         FROM pg_constraint f
         JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = f.conkey[1]
         WHERE f.contype = 'f' AND f.conrelid = format('public.%I', $1::text)::regclass
           AND cardinality(f.conkey) = 1 AND a.attname = $2`,
        [table, column],
      );
      return rows;
    }

    it('has a foreign key wherever a field refers to another entity, with deliberate ON DELETE', async () => {
      for (const [table, column, target, onDelete] of FOREIGN_KEYS) {
        const keys = await foreignKey(table, column);
        expect(
          keys.map((key) => key.target),
          `${table}.${column}`,
        ).toEqual([target]);
        if (onDelete) expect(keys[0]?.on_delete, `${table}.${column} ON DELETE`).toBe(onDelete);
      }
    });

    it('names the two config_relationships keys the way clients hint embeds', async () => {
      expect(await foreignKey('config_relationships', 'config_id')).toEqual([
        { name: 'config_relationships_config_id_fkey', target: 'config_items', on_delete: 'c' },
      ]);
      expect(await foreignKey('config_relationships', 'related_id')).toEqual([
        { name: 'config_relationships_related_id_fkey', target: 'config_items', on_delete: 'c' },
      ]);
    });

    it('points every created_by at people', async () => {
      const { rows } = await db.pool.query<{ table_name: string }>(
        `SELECT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.column_name = 'created_by'
           AND c.table_name = ANY($1)`,
        [Object.keys(TABLE_COLUMNS)],
      );
      expect(rows.length).toBeGreaterThan(25);
      for (const { table_name } of rows) {
        expect(
          (await foreignKey(table_name, 'created_by')).map((key) => key.target),
          table_name,
        ).toEqual(['people']);
      }
    });

    it('lists every spec value in the CHECK of each enum-like column', async () => {
      for (const [table, column, values] of ENUM_VALUES) {
        const { rows } = await db.pool.query<{ definition: string }>(
          `SELECT pg_get_constraintdef(c.oid) AS definition
           FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
           WHERE c.contype = 'c' AND c.conrelid = format('public.%I', $1::text)::regclass AND a.attname = $2`,
          [table, column],
        );
        expect(rows, `${table}.${column}`).toHaveLength(1);
        const listed = [...(rows[0]?.definition ?? '').matchAll(/'([^']*)'::text/g)].map((match) => match[1]);
        expect(listed.sort(), `${table}.${column}`).toEqual([...values].sort());
      }
    });

    it('has a btree index for each list filter and sort path', async () => {
      const { rows } = await db.pool.query<{ table_name: string; keys: string[] }>(
        `SELECT i.indrelid::regclass::text AS table_name,
                array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                      ORDER BY k.n) AS keys
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
         WHERE am.amname = 'btree'`,
      );
      for (const [table, leading] of LIST_INDEXES) {
        const found = rows.some(
          (row) =>
            row.table_name === table && leading.every((column, position) => row.keys[position] === column),
        );
        expect(found, `${table} (${leading.join(', ')})`).toBe(true);
      }
    });

    it('serves the statuses of one check from the primary keys of both tiers', async () => {
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        // The tables are empty: take the alternatives away so the plan shows what the indexes can do.
        await client.query('SET LOCAL enable_seqscan = off');
        await client.query('SET LOCAL enable_bitmapscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT * FROM check_statuses WHERE check_id = '${NIL_AGENT}' ORDER BY time DESC LIMIT 50`,
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan).toContain('using check_statuses_recent_pkey');
        expect(plan).toContain('using check_status_blocks_pkey');
        expect(plan).not.toContain('Seq Scan');
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });

    it('has GIN indexes on labels and tags', async () => {
      for (const [table, column] of JSONB_GIN_INDEXES) {
        const definitions = await indexDefinitions(table);
        expect(
          definitions.some((definition) => definition.includes(`USING gin (${column})`)),
          `${table}.${column}`,
        ).toBe(true);
      }
    });

    it('has trigram indexes on the names lists search', async () => {
      const extension = await db.pool.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
      expect(extension.rowCount).toBe(1);
      for (const [table, column] of TRIGRAM_INDEXES) {
        const definitions = await indexDefinitions(table);
        // The column's trigrams, alone or after btree_gin columns (config_items: type, health, 0084).
        const trigram = new RegExp(`USING gin \\((?:[a-z_]+, )*${column} gin_trgm_ops\\)`);
        expect(
          definitions.some((definition) => trigram.test(definition)),
          `${table}.${column}`,
        ).toBe(true);
      }
    });
  });

  describe('writes', () => {
    async function insertPerson(name: string, email: string | null = null): Promise<string> {
      const { rows } = await db.pool.query<{ id: string }>(
        'INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id',
        [name, email],
      );
      return rows[0]?.id as string;
    }

    async function insertIncident(createdBy: string): Promise<string> {
      const { rows } = await db.pool.query<{ id: string; status: string }>(
        `INSERT INTO incidents (title, type, severity, created_by, commander_id, communicator_id)
         VALUES ('Checkout latency', 'availability', 'low', $1, $1, $1) RETURNING id, status`,
        [createdBy],
      );
      expect(rows[0]?.status).toBe('open');
      return rows[0]?.id as string;
    }

    it('defaults a canary to the local agent, namespace default and source UI', async () => {
      const { rows } = await db.pool.query(
        `INSERT INTO canaries (name, spec) VALUES ('defaults', '{"http": []}')
         RETURNING agent_id, namespace, source, deleted_at`,
      );
      expect(rows).toEqual([{ agent_id: NIL_AGENT, namespace: 'default', source: 'UI', deleted_at: null }]);
    });

    it('frees a name for reuse once the resource is soft-deleted', async () => {
      const insert = () =>
        db.pool.query(`INSERT INTO canaries (name, namespace, spec) VALUES ('web', 'prod', '{}')`);
      await insert();
      expect(await sqlState(insert())).toBe('23505');
      await db.pool.query(`UPDATE canaries SET deleted_at = now() WHERE name = 'web' AND namespace = 'prod'`);
      expect(await sqlState(insert())).toBeUndefined();
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS total, count(deleted_at)::int AS deleted FROM canaries WHERE name = 'web'`,
      );
      expect(rows).toEqual([{ total: 2, deleted: 1 }]);
    });

    it('lists only live rows in the name views', async () => {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO config_items (type, name) VALUES ('Kubernetes::Pod', 'api-1'), ('Kubernetes::Pod', 'api-2')
         RETURNING id`,
      );
      await db.pool.query('UPDATE config_items SET deleted_at = now() WHERE id = $1', [rows[1]?.id]);
      const names = await db.pool.query(`SELECT name FROM config_names WHERE name LIKE 'api-%'`);
      expect(names.rows).toEqual([{ name: 'api-1' }]);
      const types = await db.pool.query(`SELECT type FROM config_types WHERE type = 'Kubernetes::Pod'`);
      expect(types.rows).toEqual([{ type: 'Kubernetes::Pod' }]);
    });

    it('lists each change type once', async () => {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO config_items (type, name) VALUES ('AWS::EC2::Instance', 'i-1') RETURNING id`,
      );
      const configId = rows[0]?.id;
      await db.pool.query(
        `INSERT INTO config_changes (config_id, change_type)
         VALUES ($1, 'diff'), ($1, 'diff'), ($1, 'CREATE'), ($1, NULL), ($1, 'Pulled')`,
        [configId],
      );
      const types = await db.pool.query(`SELECT change_type FROM change_types`);
      expect(types.rows.map((row: { change_type: string }) => row.change_type).sort()).toEqual(
        ['CREATE', 'Pulled', 'diff'].sort(),
      );
    });

    it('rejects a reference to a missing row with 23503', async () => {
      const missing = '7b1c1d2e-0000-4000-8000-000000000001';
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', 'x')`, [missing]),
        ),
      ).toBe('23503');
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO config_changes (config_id, change_type) VALUES ($1, 'diff')`, [missing]),
        ),
      ).toBe('23503');
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO evidences (hypothesis_id, type, description) VALUES ($1, 'log', 'x')`, [
            missing,
          ]),
        ),
      ).toBe('23503');
    });

    it('rejects values outside an enum-like column with 23514', async () => {
      const person = await insertPerson('Enum Tester');
      const incident = await insertIncident(person);
      expect(
        await sqlState(db.pool.query(`UPDATE incidents SET status = 'paused' WHERE id = $1`, [incident])),
      ).toBe('23514');
      expect(
        await sqlState(db.pool.query(`UPDATE incidents SET severity = 'Severe' WHERE id = $1`, [incident])),
      ).toBe('23514');
      // The ecosystem's clients' case is accepted and stored in the canonical form (0230).
      expect(
        await sqlState(db.pool.query(`UPDATE incidents SET severity = 'Medium' WHERE id = $1`, [incident])),
      ).toBeUndefined();
      expect(
        (
          await db.pool.query<{ severity: string }>(`SELECT severity FROM incidents WHERE id = $1`, [
            incident,
          ])
        ).rows[0].severity,
      ).toBe('medium');
      expect(
        await sqlState(db.pool.query(`UPDATE incidents SET status = 'mitigated' WHERE id = $1`, [incident])),
      ).toBeUndefined();
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO hypotheses (incident_id, title, type) VALUES ($1, 'DNS', 'guess')`, [
            incident,
          ]),
        ),
      ).toBe('23514');
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'root')`, [person]),
        ),
      ).toBe('23514');
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO responders (incident_id, type) VALUES ($1, 'person')`, [incident]),
        ),
      ).toBe('23514');
    });

    it('deletes a hypothesis with its comments and evidence, keeping the timeline entry', async () => {
      const person = await insertPerson('Responder One');
      const incident = await insertIncident(person);
      const { rows } = await db.pool.query<{ id: string; status: string; type: string }>(
        `INSERT INTO hypotheses (incident_id, title, created_by) VALUES ($1, 'Bad deploy', $2) RETURNING id, status, type`,
        [incident, person],
      );
      const hypothesis = rows[0]?.id;
      expect(rows[0]).toMatchObject({ status: 'possible', type: 'root' });
      await db.pool.query(
        `INSERT INTO hypotheses (incident_id, parent_id, title, type) VALUES ($1, $2, 'Config drift', 'factor')`,
        [incident, hypothesis],
      );
      await db.pool.query(
        `INSERT INTO evidences (hypothesis_id, type, description, created_by) VALUES ($1, 'log', 'stack trace', $2)`,
        [hypothesis, person],
      );
      await db.pool.query(
        `INSERT INTO comments (incident_id, hypothesis_id, comment, created_by) VALUES ($1, $2, 'looking', $3)`,
        [incident, hypothesis, person],
      );
      await db.pool.query(
        `INSERT INTO incident_histories (incident_id, type, hypothesis_id, created_by) VALUES ($1, 'hypothesis.created', $2, $3)`,
        [incident, hypothesis, person],
      );

      await db.pool.query('DELETE FROM hypotheses WHERE id = $1', [hypothesis]);

      const counts = await db.pool.query(
        `SELECT (SELECT count(*)::int FROM hypotheses WHERE incident_id = $1) AS hypotheses,
                (SELECT count(*)::int FROM evidences e WHERE e.hypothesis_id = $2) AS evidences,
                (SELECT count(*)::int FROM comments WHERE incident_id = $1) AS comments`,
        [incident, hypothesis],
      );
      expect(counts.rows).toEqual([{ hypotheses: 0, evidences: 0, comments: 0 }]);
      // Triggers (0031) add their own timeline rows; every hypothesis row outlives its hypothesis.
      const history = await db.pool.query(
        "SELECT DISTINCT type, hypothesis_id FROM incident_histories WHERE incident_id = $1 AND type = 'hypothesis.created'",
        [incident],
      );
      expect(history.rows).toEqual([{ type: 'hypothesis.created', hypothesis_id: null }]);
    });

    it('exposes roles as an array through people_roles', async () => {
      const admin = await insertPerson('Role Holder', 'Role.Holder@example.com');
      const nobody = await insertPerson('No Roles');
      await db.pool.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'viewer'), ($1, 'admin')`, [
        admin,
      ]);
      const { rows } = await db.pool.query(
        'SELECT id, name, email, roles FROM people_roles WHERE id = ANY($1) ORDER BY name',
        [[admin, nobody]],
      );
      expect(rows).toEqual([
        { id: nobody, name: 'No Roles', email: null, roles: [] },
        { id: admin, name: 'Role Holder', email: 'Role.Holder@example.com', roles: ['admin', 'viewer'] },
      ]);
      // Email uniqueness ignores case and deleted people.
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO people (name, email) VALUES ('Dup', 'role.holder@example.com')`),
        ),
      ).toBe('23505');
      await db.pool.query('UPDATE people SET deleted_at = now() WHERE id = $1', [admin]);
      expect(
        await sqlState(
          db.pool.query(`INSERT INTO people (name, email) VALUES ('Dup', 'role.holder@example.com')`),
        ),
      ).toBeUndefined();
    });

    it('fills updated_at on insert and moves it on update unless the writer sets it', async () => {
      const { rows } = await db.pool.query<{ id: string; same: boolean }>(
        `INSERT INTO topologies (name, spec, updated_at) VALUES ('cluster', '{}', NULL)
         RETURNING id, updated_at = created_at AS same`,
      );
      const id = rows[0]?.id;
      expect(rows[0]?.same).toBe(true);
      // A later transaction has a later now(); compare in SQL to keep microseconds.
      const bumped = await db.pool.query(
        `UPDATE topologies SET labels = '{"env": "prod"}' WHERE id = $1 RETURNING updated_at > created_at AS later`,
        [id],
      );
      expect(bumped.rows).toEqual([{ later: true }]);
      const explicit = await db.pool.query<{ updated_at: Date }>(
        `UPDATE topologies SET updated_at = '2001-02-03T04:05:06Z' WHERE id = $1 RETURNING updated_at`,
        [id],
      );
      expect(explicit.rows[0]?.updated_at.toISOString()).toBe('2001-02-03T04:05:06.000Z');
    });

    it('refuses to delete or soft-delete the local agent', async () => {
      expect(await sqlState(db.pool.query('DELETE FROM agents WHERE id = $1', [NIL_AGENT]))).toBe('23514');
      expect(
        await sqlState(db.pool.query('UPDATE agents SET deleted_at = now() WHERE id = $1', [NIL_AGENT])),
      ).toBe('23514');
      expect(
        await sqlState(db.pool.query('UPDATE agents SET last_seen = now() WHERE id = $1', [NIL_AGENT])),
      ).toBeUndefined();
    });

    it('keeps rollup counts consistent', async () => {
      const canary = await db.pool.query<{ id: string }>(
        `INSERT INTO canaries (name, spec) VALUES ('rollup', '{}') RETURNING id`,
      );
      const check = await db.pool.query<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', 'home') RETURNING id`,
        [canary.rows[0]?.id],
      );
      const checkId = check.rows[0]?.id;
      const insert = (hoursAgo: number, total: number, passed: number, failed: number) =>
        db.pool.query(
          `INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration)
           VALUES ($1, date_trunc('hour', now()) - make_interval(hours => $2), $3, $4, $5, 120)`,
          [checkId, hoursAgo, total, passed, failed],
        );
      expect(await sqlState(insert(1, 10, 9, 1))).toBeUndefined();
      expect(await sqlState(insert(2, 10, 2, 1))).toBe('23514');
      await db.pool.query(
        `INSERT INTO check_statuses (check_id, time, duration, status) VALUES ($1, now(), 87, true)`,
        [checkId],
      );
      // Deleting the check removes its results and rollups with it.
      await db.pool.query('DELETE FROM checks WHERE id = $1', [checkId]);
      const left = await db.pool.query(
        `SELECT (SELECT count(*)::int FROM check_statuses WHERE check_id = $1) AS statuses,
                (SELECT count(*)::int FROM check_statuses_1h WHERE check_id = $1) AS hourly`,
        [checkId],
      );
      expect(left.rows).toEqual([{ statuses: 0, hourly: 0 }]);
    });
  });
});
