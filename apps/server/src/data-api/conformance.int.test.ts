/**
 * Conformance: every API.md §1 feature as a request and its expected rows, checked against the
 * fixture data inserted through SQL. The same scenario list runs twice: through `app.inject`
 * (raw HTTP as clients send it) and through the official PostgREST client
 * (@supabase/postgrest-js) against the listening server. Each pass starts from a fresh database.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { buildFixtureApp, ID, installFixture } from './conformance-fixture.js';

// The client is schema-agnostic here: tables are addressed by name at run time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = PostgrestClient<any, any, any>;

interface ClientResult {
  data: unknown;
  error: { code?: string; message?: string } | null;
  count: number | null;
  status: number;
}

interface Scenario {
  name: string;
  http: {
    method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    headers?: Record<string, string>;
    body?: unknown;
    rawBody?: string;
  };
  /** The same request through postgrest-js, when the client can express it. */
  client?: (db: Client) => PromiseLike<ClientResult>;
  expect: {
    status: number;
    body?: unknown;
    code?: string;
    contentRange?: string | RegExp;
    count?: number;
    headers?: Record<string, string | RegExp>;
    check?: (body: unknown) => void;
  };
  /** Runs after the request (both passes): e.g. nothing stored after an error. */
  after?: (ctx: { get: (url: string) => Promise<unknown> }) => Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const REPRESENTATION = { ...JSON_HEADERS, prefer: 'return=representation' };

const names = (...list: string[]): Array<{ name: string }> => list.map((name) => ({ name }));
const titles = (...list: string[]): Array<{ title: string }> => list.map((title) => ({ title }));

// ---------------------------------------------------------------------------------------------
// read scenarios: select, embeds, filters, logic, order, paging, counts, media types, rpc

const readScenarios: Scenario[] = [
  {
    name: 'select=* returns every column except hidden ones',
    http: { url: `/people?id=eq.${ID.alice}` },
    client: (db) => db.from('people').select('*').eq('id', ID.alice),
    expect: {
      status: 200,
      check: (body) => {
        const [row] = body as Array<Record<string, unknown>>;
        expect(Object.keys(row).sort()).toEqual([
          'avatar',
          'created_at',
          'deleted_at',
          'email',
          'id',
          'name',
        ]);
        expect(row).toMatchObject({
          id: ID.alice,
          name: 'Alice',
          email: 'alice@example.com',
          avatar: 'a.png',
          deleted_at: null,
        });
      },
    },
  },
  {
    name: 'column list with a rename',
    http: { url: `/people?select=id,full_name:name&id=eq.${ID.alice}` },
    client: (db) => db.from('people').select('id,full_name:name').eq('id', ID.alice),
    expect: { status: 200, body: [{ id: ID.alice, full_name: 'Alice' }] },
  },
  {
    name: 'casts in select',
    http: { url: `/incidents?select=title,sev:severity::text,severity::float8&id=eq.${ID.dbDown}` },
    client: (db) =>
      db.from('incidents').select('title,sev:severity::text,severity::float8').eq('id', ID.dbDown),
    expect: { status: 200, body: [{ title: 'Database down', sev: '1', severity: 1 }] },
  },
  {
    name: 'JSON paths in select (->> text, -> json, default key name)',
    http: {
      url: '/config_items?select=name,app:labels->>app,env:labels->env,labels->>role&order=name&limit=3',
    },
    client: (db) =>
      db
        .from('config_items')
        .select('name,app:labels->>app,env:labels->env,labels->>role')
        .order('name')
        .limit(3),
    expect: {
      status: 200,
      body: [
        { name: 'api-deployment', app: 'api', env: 'prod', role: null },
        { name: 'db-primary', app: 'db', env: 'prod', role: null },
        { name: 'db-replica', app: 'db', env: 'prod', role: 'replica' },
      ],
    },
  },
  {
    name: 'JSON path with a dotted key',
    http: {
      url: '/config_items?select=name,labels->>app.kubernetes.io/name&labels->>app.kubernetes.io/name=eq.api',
    },
    client: (db) =>
      db
        .from('config_items')
        .select('name,labels->>app.kubernetes.io/name')
        .eq('labels->>app.kubernetes.io/name', 'api'),
    expect: { status: 200, body: [{ name: 'api-deployment', 'app.kubernetes.io/name': 'api' }] },
  },
  {
    name: 'many-to-one embeds by foreign-key column, with an alias',
    http: { url: '/incidents?select=title,created_by(name),commander:commander_id(name)&order=created_at' },
    client: (db) =>
      db.from('incidents').select('title,created_by(name),commander:commander_id(name)').order('created_at'),
    expect: {
      status: 200,
      body: [
        { title: 'Database down', created_by: { name: 'Alice' }, commander: { name: 'Bob' } },
        { title: 'Slow API', created_by: { name: 'Bob' }, commander: { name: 'Bob' } },
        { title: 'Disk full', created_by: { name: 'Carol' }, commander: null },
        { title: 'Cert expiry, again', created_by: { name: 'Alice' }, commander: { name: 'Carol' } },
      ],
    },
  },
  {
    name: 'embed by foreign-key column with * (hidden columns left out)',
    http: { url: '/access_tokens?select=name,person_id(*)' },
    client: (db) => db.from('access_tokens').select('name,person_id(*)'),
    expect: {
      status: 200,
      check: (body) => {
        const rows = body as Array<{ name: string; person_id: Record<string, unknown> }>;
        expect(rows.map((row) => row.name)).toEqual(['ci']);
        expect(Object.keys(rows[0].person_id).sort()).toEqual([
          'avatar',
          'created_at',
          'deleted_at',
          'email',
          'id',
          'name',
        ]);
        expect(rows[0].person_id.name).toBe('Alice');
      },
    },
  },
  {
    name: 'a many-to-many is hinted by its junction table only (a junction key name matches nothing)',
    http: { url: '/people?select=name,teams!team_members(name)&name=eq.Alice' },
    client: (db) => db.from('people').select('name,teams!team_members(name)').eq('name', 'Alice'),
    expect: { status: 200, body: [{ name: 'Alice', teams: names('SRE') }] },
  },
  {
    name: 'a junction foreign-key name as a many-to-many hint: 400 PGRST200',
    http: { url: '/people?select=name,teams!team_members_team_id_fkey(name)' },
    client: (db) => db.from('people').select('name,teams!team_members_team_id_fkey(name)'),
    expect: { status: 400, code: 'PGRST200' },
  },
  {
    name: 'GET ignores Prefer: return=representation and Content-Type (clients send them on every call)',
    http: { url: '/people?select=name&order=name&limit=2', headers: REPRESENTATION },
    client: (db) => db.from('people').select('name').order('name').limit(2),
    expect: { status: 200, body: names('Alice', 'Bob') },
  },
  {
    name: 'embed by table name with a constraint-name hint and a column hint',
    http: {
      url: `/incidents?select=title,creator:people!incidents_created_by_fkey(name),lead:people!commander_id(name)&id=eq.${ID.certExpiry}`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,creator:people!incidents_created_by_fkey(name),lead:people!commander_id(name)')
        .eq('id', ID.certExpiry),
    expect: {
      status: 200,
      body: [{ title: 'Cert expiry, again', creator: { name: 'Alice' }, lead: { name: 'Carol' } }],
    },
  },
  {
    name: 'one-to-many with ordering and limit inside the embed',
    http: {
      url: `/incidents?select=title,hypotheses(title)&hypotheses.order=title.desc&hypotheses.limit=1&id=eq.${ID.dbDown}`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title)')
        .order('title', { referencedTable: 'hypotheses', ascending: false })
        .limit(1, { referencedTable: 'hypotheses' })
        .eq('id', ID.dbDown),
    expect: { status: 200, body: [{ title: 'Database down', hypotheses: titles('Primary crashed') }] },
  },
  {
    name: 'many-to-many through a join table',
    http: { url: '/people?select=name,teams(name)&teams.order=name&order=name' },
    client: (db) =>
      db.from('people').select('name,teams(name)').order('name', { referencedTable: 'teams' }).order('name'),
    expect: {
      status: 200,
      body: [
        { name: 'Alice', teams: names('SRE') },
        { name: 'Bob', teams: names('Platform', 'SRE') },
        { name: 'Carol', teams: names('Platform') },
        { name: 'Dan', teams: [] },
      ],
    },
  },
  {
    name: 'nested embeds, three levels and more',
    http: {
      url: `/incidents?select=title,hypotheses(title,evidences(description,config_items(name)))&id=eq.${ID.dbDown}&hypotheses.order=title&hypotheses.evidences.order=description`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title,evidences(description,config_items(name)))')
        .eq('id', ID.dbDown)
        .order('title', { referencedTable: 'hypotheses' })
        .order('description', { referencedTable: 'hypotheses.evidences' }),
    expect: {
      status: 200,
      body: [
        {
          title: 'Database down',
          hypotheses: [
            { title: 'Network partition', evidences: [] },
            {
              title: 'Primary crashed',
              evidences: [
                { description: 'Crash in the primary log', config_items: { name: 'db-primary' } },
                { description: 'Replica lag', config_items: { name: 'db-replica' } },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    name: '!inner embed filters the parent rows and the count',
    http: {
      url: '/incidents?select=title,hypotheses!inner(title)&hypotheses.type=eq.root&order=title',
      headers: { prefer: 'count=exact' },
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses!inner(title)', { count: 'exact' })
        .eq('hypotheses.type', 'root')
        .order('title'),
    expect: {
      status: 200,
      contentRange: '0-1/2',
      count: 2,
      body: [
        { title: 'Database down', hypotheses: titles('Primary crashed') },
        { title: 'Slow API', hypotheses: titles('GC pauses') },
      ],
    },
  },
  {
    name: 'embedding a view through the foreign keys of its base table, with hints',
    http: {
      url: '/config_relationships?select=relation,configs!config_relationships_config_id_fkey(name),related:configs!config_relationships_related_id_fkey(name)&order=relation',
    },
    client: (db) =>
      db
        .from('config_relationships')
        .select(
          'relation,configs!config_relationships_config_id_fkey(name),related:configs!config_relationships_related_id_fkey(name)',
        )
        .order('relation'),
    expect: {
      status: 200,
      body: [
        { relation: 'replica', configs: { name: 'db-primary' }, related: { name: 'db-replica' } },
        { relation: 'uses', configs: { name: 'api-deployment' }, related: { name: 'db-primary' } },
      ],
    },
  },
  {
    name: 'a view embedding a table (view column → base foreign key)',
    http: { url: `/configs?select=name,config_scrapers(name)&id=eq.${ID.dbPrimary}` },
    client: (db) => db.from('configs').select('name,config_scrapers(name)').eq('id', ID.dbPrimary),
    expect: { status: 200, body: [{ name: 'db-primary', config_scrapers: { name: 'kubernetes' } }] },
  },
  {
    name: 'several select= parameters are merged',
    http: { url: `/people?select=id&select=name&id=eq.${ID.alice}` },
    expect: { status: 200, body: [{ id: ID.alice, name: 'Alice' }] },
  },
  {
    name: 'spread of a to-one embed',
    http: { url: `/incidents?select=title,...created_by(creator_name:name)&id=eq.${ID.dbDown}` },
    client: (db) => db.from('incidents').select('title,...created_by(creator_name:name)').eq('id', ID.dbDown),
    expect: { status: 200, body: [{ title: 'Database down', creator_name: 'Alice' }] },
  },
  {
    name: 'embedded resource is.null (anti-join)',
    http: { url: '/incidents?select=title,commander:commander_id(name)&commander=is.null' },
    client: (db) => db.from('incidents').select('title,commander:commander_id(name)').is('commander', null),
    expect: { status: 200, body: [{ title: 'Disk full', commander: null }] },
  },
  // filters
  {
    name: 'gte with order on two columns',
    http: { url: '/incidents?select=title&severity=gte.2&order=severity,title' },
    client: (db) => db.from('incidents').select('title').gte('severity', 2).order('severity').order('title'),
    expect: { status: 200, body: titles('Slow API', 'Disk full') },
  },
  {
    name: 'lt',
    http: { url: '/incidents?select=title&severity=lt.2&order=title' },
    client: (db) => db.from('incidents').select('title').lt('severity', 2).order('title'),
    expect: { status: 200, body: titles('Cert expiry, again', 'Database down') },
  },
  {
    name: 'gt and lte on one column',
    http: { url: '/incidents?select=title&severity=gt.1&severity=lte.2' },
    client: (db) => db.from('incidents').select('title').gt('severity', 1).lte('severity', 2),
    expect: { status: 200, body: titles('Slow API') },
  },
  {
    name: 'neq',
    http: { url: '/incidents?select=title&status=neq.open&order=title' },
    client: (db) => db.from('incidents').select('title').neq('status', 'open').order('title'),
    expect: { status: 200, body: titles('Cert expiry, again', 'Disk full') },
  },
  {
    name: 'like with * wildcards',
    http: { url: '/people?select=name&name=like.*o*&order=name' },
    client: (db) => db.from('people').select('name').like('name', '*o*').order('name'),
    expect: { status: 200, body: names('Bob', 'Carol') },
  },
  {
    name: 'ilike',
    http: { url: '/people?select=name&name=ilike.a*' },
    client: (db) => db.from('people').select('name').ilike('name', 'a*'),
    expect: { status: 200, body: names('Alice') },
  },
  {
    name: 'in with quoted values containing commas',
    http: {
      url: '/incidents?select=title&title=in.(%22Cert%20expiry,%20again%22,%22Slow%20API%22)&order=title',
    },
    client: (db) =>
      db.from('incidents').select('title').in('title', ['Cert expiry, again', 'Slow API']).order('title'),
    expect: { status: 200, body: titles('Cert expiry, again', 'Slow API') },
  },
  {
    name: 'is.null',
    http: { url: '/people?select=name&deleted_at=is.null&order=name' },
    client: (db) => db.from('people').select('name').is('deleted_at', null).order('name'),
    expect: { status: 200, body: names('Alice', 'Bob', 'Carol') },
  },
  {
    name: 'not.is.null',
    http: { url: '/people?select=name&deleted_at=not.is.null' },
    client: (db) => db.from('people').select('name').not('deleted_at', 'is', null),
    expect: { status: 200, body: names('Dan') },
  },
  {
    name: 'is.true',
    http: { url: '/evidences?select=description&done=is.true' },
    client: (db) => db.from('evidences').select('description').is('done', true),
    expect: { status: 200, body: [{ description: 'Crash in the primary log' }] },
  },
  {
    name: 'is.false',
    http: { url: '/evidences?select=description&done=is.false' },
    client: (db) => db.from('evidences').select('description').is('done', false),
    expect: { status: 200, body: [{ description: 'Replica lag' }] },
  },
  {
    name: 'not.is.true keeps NULLs (IS NOT TRUE)',
    http: { url: '/evidences?select=description&done=not.is.true&order=description' },
    client: (db) => db.from('evidences').select('description').not('done', 'is', true).order('description'),
    expect: { status: 200, body: [{ description: 'Heap graph' }, { description: 'Replica lag' }] },
  },
  {
    name: 'is with a value other than null, true, false, unknown: 400 PGRST100',
    http: { url: '/evidences?select=description&done=is.maybe' },
    expect: { status: 400, code: 'PGRST100' },
  },
  {
    name: 'empty value: not.eq. (NULLs are not "not empty")',
    http: { url: '/people?select=name&avatar=not.eq.&order=name' },
    client: (db) => db.from('people').select('name').not('avatar', 'eq', '').order('name'),
    expect: { status: 200, body: names('Alice', 'Carol') },
  },
  {
    name: 'cs on an array column',
    http: { url: '/config_items?select=name&tags=cs.{prod,db}&order=name' },
    client: (db) => db.from('config_items').select('name').contains('tags', ['prod', 'db']).order('name'),
    expect: { status: 200, body: names('db-primary', 'db-replica') },
  },
  {
    name: 'cd on an array column',
    http: { url: '/config_items?select=name&tags=cd.{prod,db}&order=name' },
    client: (db) => db.from('config_items').select('name').containedBy('tags', ['prod', 'db']).order('name'),
    expect: { status: 200, body: names('api-deployment', 'db-primary', 'db-replica', 'old-vm') },
  },
  {
    name: 'ov on an array column',
    http: { url: '/config_items?select=name&tags=ov.{staging,db}&order=name' },
    client: (db) => db.from('config_items').select('name').overlaps('tags', ['staging', 'db']).order('name'),
    expect: { status: 200, body: names('db-primary', 'db-replica', 'staging-api') },
  },
  {
    name: 'cs on a jsonb column',
    http: { url: '/config_items?select=name&labels=cs.{"env":"staging"}' },
    client: (db) => db.from('config_items').select('name').contains('labels', { env: 'staging' }),
    expect: { status: 200, body: names('staging-api') },
  },
  {
    name: 'fts on a tsvector column with a language',
    http: { url: '/config_items?select=name&search=fts(english).replica' },
    client: (db) =>
      db.from('config_items').select('name').textSearch('search', 'replica', { config: 'english' }),
    expect: { status: 200, body: names('db-replica') },
  },
  {
    name: 'websearch fts on a text column',
    http: { url: '/config_items?select=name&name=wfts(simple).primary' },
    client: (db) =>
      db
        .from('config_items')
        .select('name')
        .textSearch('name', 'primary', { config: 'simple', type: 'websearch' }),
    expect: { status: 200, body: names('db-primary') },
  },
  {
    name: 'eq(any) quantifier',
    http: { url: '/people?select=name&name=eq(any).{Alice,Carol}&order=name' },
    expect: { status: 200, body: names('Alice', 'Carol') },
  },
  {
    name: 'range operators: sl, sr, nxr, nxl, adj, ov',
    http: {
      url: '/teams?select=name&hours=sl.[20,30)&hours=sr.[0,5)&hours=nxr.[0,20)&hours=nxl.[5,10)&hours=adj.[17,20)',
    },
    client: (db) =>
      db
        .from('teams')
        .select('name')
        .rangeLt('hours', '[20,30)')
        .rangeGt('hours', '[0,5)')
        .rangeLte('hours', '[0,20)')
        .rangeGte('hours', '[5,10)')
        .rangeAdjacent('hours', '[17,20)'),
    expect: { status: 200, body: names('Platform') },
  },
  {
    name: 'ov on a range column',
    http: { url: '/teams?select=name&hours=ov.[20,21)' },
    client: (db) => db.from('teams').select('name').overlaps('hours', '[20,21)'),
    expect: { status: 200, body: names('SRE') },
  },
  {
    name: 'not. negation',
    http: { url: '/incidents?select=title&severity=not.eq.1&order=title' },
    client: (db) => db.from('incidents').select('title').not('severity', 'eq', 1).order('title'),
    expect: { status: 200, body: titles('Disk full', 'Slow API') },
  },
  {
    name: 'filters on embedded columns (two levels down) filter the embedded rows only',
    http: {
      url: `/incidents?select=title,hypotheses(title,evidences(description))&id=eq.${ID.dbDown}&hypotheses.order=title&hypotheses.evidences.config_id=eq.${ID.dbReplica}`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title,evidences(description))')
        .eq('id', ID.dbDown)
        .order('title', { referencedTable: 'hypotheses' })
        .eq('hypotheses.evidences.config_id', ID.dbReplica),
    expect: {
      status: 200,
      body: [
        {
          title: 'Database down',
          hypotheses: [
            { title: 'Network partition', evidences: [] },
            { title: 'Primary crashed', evidences: [{ description: 'Replica lag' }] },
          ],
        },
      ],
    },
  },
  // logic
  {
    name: 'or',
    http: { url: '/incidents?select=title&or=(severity.eq.3,status.eq.open)&order=title' },
    client: (db) => db.from('incidents').select('title').or('severity.eq.3,status.eq.open').order('title'),
    expect: { status: 200, body: titles('Database down', 'Disk full', 'Slow API') },
  },
  {
    name: 'nested or(and(...),and(...))',
    http: {
      url: '/incidents?select=title&or=(and(severity.eq.1,status.eq.open),and(severity.eq.3,status.eq.closed))&order=title',
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title')
        .or('and(severity.eq.1,status.eq.open),and(severity.eq.3,status.eq.closed)')
        .order('title'),
    expect: { status: 200, body: titles('Database down', 'Disk full') },
  },
  {
    name: 'not.or',
    http: { url: '/incidents?select=title&not.or=(status.eq.open,severity.eq.3)' },
    expect: { status: 200, body: titles('Cert expiry, again') },
  },
  {
    name: 'and=() with a quoted value',
    http: { url: '/incidents?select=title&and=(severity.eq.1,title.neq.%22Cert%20expiry,%20again%22)' },
    expect: { status: 200, body: titles('Database down') },
  },
  {
    name: 'several or= must all hold',
    http: {
      url: '/incidents?select=title&or=(severity.eq.1,severity.eq.2)&or=(status.eq.closed,title.like.Slow*)&order=title',
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title')
        .or('severity.eq.1,severity.eq.2')
        .or('status.eq.closed,title.like.Slow*')
        .order('title'),
    expect: { status: 200, body: titles('Cert expiry, again', 'Slow API') },
  },
  {
    name: 'or on JSON paths',
    http: {
      url: '/config_items?select=name&or=(labels->>env.eq.staging,labels->>role.eq.replica)&order=name',
    },
    client: (db) =>
      db
        .from('config_items')
        .select('name')
        .or('labels->>env.eq.staging,labels->>role.eq.replica')
        .order('name'),
    expect: { status: 200, body: names('db-replica', 'staging-api') },
  },
  {
    name: 'or inside an embed',
    http: {
      url: `/incidents?select=title,hypotheses(title)&id=eq.${ID.dbDown}&hypotheses.or=(type.eq.root,title.eq.nothing)`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title)')
        .eq('id', ID.dbDown)
        .or('type.eq.root,title.eq.nothing', { referencedTable: 'hypotheses' }),
    expect: { status: 200, body: [{ title: 'Database down', hypotheses: titles('Primary crashed') }] },
  },
  // order
  {
    name: 'order desc then asc',
    http: { url: '/incidents?select=title&order=severity.desc,title.asc' },
    client: (db) =>
      db.from('incidents').select('title').order('severity', { ascending: false }).order('title'),
    expect: { status: 200, body: titles('Disk full', 'Slow API', 'Cert expiry, again', 'Database down') },
  },
  {
    name: 'order with nullsfirst',
    http: { url: '/people?select=name&order=avatar.asc.nullsfirst,name' },
    client: (db) =>
      db.from('people').select('name').order('avatar', { ascending: true, nullsFirst: true }).order('name'),
    expect: { status: 200, body: names('Bob', 'Dan', 'Alice', 'Carol') },
  },
  {
    name: 'order with nullslast',
    http: { url: '/people?select=name&order=avatar.desc.nullslast,name' },
    client: (db) =>
      db.from('people').select('name').order('avatar', { ascending: false, nullsFirst: false }).order('name'),
    expect: { status: 200, body: names('Carol', 'Alice', 'Bob', 'Dan') },
  },
  {
    name: 'order on a JSON path',
    http: { url: '/config_items?select=name&order=labels->>env.desc,name&deleted_at=is.null' },
    client: (db) =>
      db
        .from('config_items')
        .select('name')
        .order('labels->>env', { ascending: false })
        .order('name')
        .is('deleted_at', null),
    expect: { status: 200, body: names('staging-api', 'api-deployment', 'db-primary', 'db-replica') },
  },
  {
    name: 'order by a column of a to-one embed',
    http: { url: '/incidents?select=title,created_by(name)&order=created_by(name).desc,title' },
    expect: {
      status: 200,
      body: [
        { title: 'Disk full', created_by: { name: 'Carol' } },
        { title: 'Slow API', created_by: { name: 'Bob' } },
        { title: 'Cert expiry, again', created_by: { name: 'Alice' } },
        { title: 'Database down', created_by: { name: 'Alice' } },
      ],
    },
  },
  // paging and counts
  {
    name: 'limit and offset',
    http: { url: '/people?select=name&order=name&limit=2&offset=1' },
    client: (db) => db.from('people').select('name').order('name').range(1, 2),
    expect: { status: 200, contentRange: '1-2/*', body: names('Bob', 'Carol') },
  },
  {
    name: 'Range header',
    http: { url: '/people?select=name&order=name', headers: { range: '1-2', 'range-unit': 'items' } },
    expect: { status: 200, contentRange: '1-2/*', body: names('Bob', 'Carol') },
  },
  {
    name: 'Prefer: count=exact on a partial page answers 206 with the total',
    http: { url: '/people?select=name&order=name&limit=2', headers: { prefer: 'count=exact' } },
    client: (db) => db.from('people').select('name', { count: 'exact' }).order('name').limit(2),
    expect: {
      status: 206,
      contentRange: '0-1/4',
      count: 4,
      body: names('Alice', 'Bob'),
      headers: { 'preference-applied': 'count=exact' },
    },
  },
  {
    name: 'count=exact on an empty result: */0',
    http: { url: '/people?name=eq.nobody', headers: { prefer: 'count=exact' } },
    client: (db) => db.from('people').select('*', { count: 'exact' }).eq('name', 'nobody'),
    expect: { status: 200, contentRange: '*/0', count: 0, body: [] },
  },
  {
    name: 'empty result without count: */*',
    http: { url: '/people?name=eq.nobody' },
    expect: { status: 200, contentRange: '*/*', body: [] },
  },
  {
    name: 'count=planned',
    http: { url: '/incidents?select=id', headers: { prefer: 'count=planned' } },
    client: (db) => db.from('incidents').select('id', { count: 'planned' }),
    expect: { status: /* 200 or 206 depending on the estimate */ -1, contentRange: /^0-3\/\d+$/ },
  },
  {
    name: 'count=estimated is exact below maxRows',
    http: { url: '/incidents?select=id', headers: { prefer: 'count=estimated' } },
    client: (db) => db.from('incidents').select('id', { count: 'estimated' }),
    expect: { status: 200, contentRange: '0-3/4', count: 4 },
  },
  {
    name: 'offset past the end with a count: 416 PGRST103',
    http: { url: '/people?offset=10', headers: { prefer: 'count=exact' } },
    client: (db) => db.from('people').select('*', { count: 'exact' }).range(10, 20),
    expect: { status: 416, code: 'PGRST103', contentRange: '*/4' },
  },
  {
    name: 'HEAD with a count',
    http: { method: 'HEAD', url: '/people?select=name', headers: { prefer: 'count=exact' } },
    client: (db) => db.from('people').select('name', { count: 'exact', head: true }),
    expect: { status: 200, contentRange: '0-3/4', count: 4 },
  },
  // media types
  {
    name: 'single object Accept',
    http: {
      url: `/people?select=name&id=eq.${ID.alice}`,
      headers: { accept: 'application/vnd.pgrst.object+json' },
    },
    client: (db) => db.from('people').select('name').eq('id', ID.alice).single(),
    expect: {
      status: 200,
      body: { name: 'Alice' },
      headers: { 'content-type': /^application\/vnd\.pgrst\.object\+json/ },
    },
  },
  {
    name: 'single object Accept with no rows: 406 PGRST116',
    http: {
      url: '/people?select=name&name=eq.nobody',
      headers: { accept: 'application/vnd.pgrst.object+json' },
    },
    client: (db) => db.from('people').select('name').eq('name', 'nobody').single(),
    expect: { status: 406, code: 'PGRST116' },
  },
  {
    name: 'single object Accept with several rows: 406 PGRST116',
    http: { url: '/people?select=name', headers: { accept: 'application/vnd.pgrst.object+json' } },
    client: (db) => db.from('people').select('name').single(),
    expect: { status: 406, code: 'PGRST116' },
  },
  {
    name: 'CSV',
    http: { url: '/people?select=name,avatar&order=name', headers: { accept: 'text/csv' } },
    client: (db) => db.from('people').select('name,avatar').order('name').csv(),
    expect: { status: 200, body: 'name,avatar\nAlice,a.png\nBob,\nCarol,c.png\nDan,' },
  },
  {
    name: 'stripped nulls',
    http: {
      url: `/people?select=name,avatar&id=eq.${ID.bob}`,
      headers: { accept: 'application/vnd.pgrst.array+json;nulls=stripped' },
    },
    client: (db) => db.from('people').select('name,avatar').eq('id', ID.bob).stripNulls(),
    expect: { status: 200, body: [{ name: 'Bob' }] },
  },
  // rpc
  {
    name: 'rpc GET set-returning with filters, order and count',
    http: {
      url: `/rpc/related_configs?config_id=${ID.dbPrimary}&select=name&order=name`,
      headers: { prefer: 'count=exact' },
    },
    client: (db) =>
      db
        .rpc('related_configs', { config_id: ID.dbPrimary }, { get: true, count: 'exact' })
        .select('name')
        .order('name'),
    expect: { status: 200, contentRange: '0-1/2', count: 2, body: names('api-deployment', 'db-replica') },
  },
  {
    name: 'rpc GET set-returning with a filter and a limit',
    http: { url: `/rpc/related_configs?config_id=${ID.dbPrimary}&select=name&name=like.db*&limit=1` },
    client: (db) =>
      db
        .rpc('related_configs', { config_id: ID.dbPrimary }, { get: true })
        .select('name')
        .like('name', 'db*')
        .limit(1),
    expect: { status: 200, body: names('db-replica') },
  },
  {
    name: 'rpc POST set-returning with select, embed and order',
    http: {
      method: 'POST',
      url: '/rpc/related_configs?select=name,config_scrapers(name)&order=name',
      headers: JSON_HEADERS,
      body: { config_id: ID.dbPrimary },
    },
    client: (db) =>
      db
        .rpc('related_configs', { config_id: ID.dbPrimary })
        .select('name,config_scrapers(name)')
        .order('name'),
    expect: {
      status: 200,
      body: [
        { name: 'api-deployment', config_scrapers: { name: 'kubernetes' } },
        { name: 'db-replica', config_scrapers: { name: 'kubernetes' } },
      ],
    },
  },
  {
    name: 'rpc with a defaulted argument given',
    http: {
      url: `/rpc/related_configs?config_id=${ID.dbPrimary}&include_deleted=true&select=name&order=name`,
    },
    client: (db) =>
      db
        .rpc('related_configs', { config_id: ID.dbPrimary, include_deleted: true }, { get: true })
        .select('name')
        .order('name'),
    expect: { status: 200, body: names('api-deployment', 'db-replica') },
  },
  {
    name: 'rpc POST returning a scalar',
    http: { method: 'POST', url: '/rpc/incident_count', headers: JSON_HEADERS, body: { p_status: 'open' } },
    client: (db) => db.rpc('incident_count', { p_status: 'open' }),
    expect: { status: 200, body: 2 },
  },
  {
    name: 'rpc GET returning a scalar',
    http: { url: '/rpc/incident_count?p_status=closed' },
    client: (db) => db.rpc('incident_count', { p_status: 'closed' }, { get: true }),
    expect: { status: 200, body: 2 },
  },
  {
    name: 'rpc returning TABLE(...)',
    http: { url: '/rpc/config_type_summary?order=type' },
    client: (db) => db.rpc('config_type_summary', {}, { get: true }).order('type'),
    expect: {
      status: 200,
      body: [
        { type: 'Kubernetes::Deployment', total: 2 },
        { type: 'Postgres::Instance', total: 2 },
      ],
    },
  },
  {
    name: 'rpc returning a set of scalars',
    http: { url: '/rpc/severity_levels' },
    client: (db) => db.rpc('severity_levels', {}, { get: true }),
    expect: { status: 200, body: [1, 2, 3, 4] },
  },
  {
    name: 'rpc with one unnamed json argument takes the whole body',
    http: { method: 'POST', url: '/rpc/echo_payload', headers: JSON_HEADERS, body: { a: [1, 'x'] } },
    client: (db) => db.rpc('echo_payload', { a: [1, 'x'] }),
    expect: { status: 200, body: { a: [1, 'x'] } },
  },
  // tri-state .filter extension
  {
    name: 'tri-state: included values are OR-ed',
    http: { url: '/config_items?select=name&health.filter=healthy,warning&order=name' },
    expect: { status: 200, body: names('api-deployment', 'db-primary', 'db-replica') },
  },
  {
    name: 'tri-state: ! excludes',
    http: { url: '/config_items?select=name&health.filter=!healthy&order=name' },
    expect: { status: 200, body: names('db-replica', 'staging-api') },
  },
  {
    name: 'tri-state: globs, excludes AND-ed',
    http: { url: '/config_items?select=name&name.filter=!db-*,!old*&order=name' },
    expect: { status: 200, body: names('api-deployment', 'staging-api') },
  },
  {
    name: 'tri-state: includes and excludes together',
    http: { url: '/config_items?select=name&name.filter=db-*,api*,!db-replica&order=name' },
    expect: { status: 200, body: names('api-deployment', 'db-primary') },
  },
  {
    name: 'tri-state: ____ stands for ":"',
    http: { url: '/config_items?select=name&type.filter=Postgres________Instance&order=name' },
    expect: { status: 200, body: names('db-primary', 'db-replica') },
  },
  {
    name: 'tri-state: |||| stands for ","',
    http: { url: '/incidents?select=title&title.filter=Cert%20expiry||||%20again' },
    expect: { status: 200, body: titles('Cert expiry, again') },
  },
  {
    name: 'tri-state: an encoded comma separates values as a raw one does (URLSearchParams sends %2C)',
    http: {
      url: '/incidents?select=title&title.filter=Cert%20expiry||||%20again%2CSlow%20API&order=title',
    },
    expect: { status: 200, body: titles('Cert expiry, again', 'Slow API') },
  },
  {
    name: 'tri-state: date math >now-1h',
    http: { url: '/config_changes?select=summary&created_at.filter=%3Enow-1h' },
    expect: { status: 200, body: [{ summary: 'minutes ago' }] },
  },
  {
    name: 'tri-state: date math range now-7d..now',
    http: { url: '/config_changes?select=summary&created_at.filter=now-7d..now&order=created_at.desc' },
    expect: {
      status: 200,
      body: [{ summary: 'minutes ago' }, { summary: 'hours ago' }, { summary: 'days ago' }],
    },
  },
  {
    name: 'tri-state: date math <now-7d',
    http: { url: '/config_changes?select=summary&created_at.filter=%3Cnow-7d' },
    expect: { status: 200, body: [{ summary: 'long ago' }] },
  },
  {
    name: 'tri-state: excluded date range',
    http: { url: '/config_changes?select=summary&created_at.filter=!now-1d..now&order=created_at.desc' },
    expect: { status: 200, body: [{ summary: 'days ago' }, { summary: 'long ago' }] },
  },
  {
    name: 'tri-state on a JSON path',
    http: { url: '/config_items?select=name&labels->>app.filter=!db&order=name' },
    expect: { status: 200, body: names('api-deployment', 'staging-api') },
  },
  {
    name: 'tri-state on an embedded column',
    http: { url: `/incidents?select=title,hypotheses(title)&hypotheses.type.filter=root&id=eq.${ID.dbDown}` },
    expect: { status: 200, body: [{ title: 'Database down', hypotheses: titles('Primary crashed') }] },
  },
];

// ---------------------------------------------------------------------------------------------
// errors: each a 4xx with PostgREST's code, nothing stored changes

const errorScenarios: Scenario[] = [
  {
    name: 'unknown table: 404 42P01',
    http: { url: '/nope' },
    client: (db) => db.from('nope').select(),
    expect: { status: 404, code: '42P01' },
  },
  {
    name: 'unknown column in select: 400 42703',
    http: { url: '/people?select=nope' },
    client: (db) => db.from('people').select('nope'),
    expect: { status: 400, code: '42703' },
  },
  {
    name: 'unknown column in a filter: 400 42703',
    http: { url: '/people?nope=eq.1' },
    client: (db) => db.from('people').select().eq('nope', 1),
    expect: { status: 400, code: '42703' },
  },
  {
    name: 'unknown column in order: 400 42703',
    http: { url: '/people?order=nope.desc' },
    client: (db) => db.from('people').select().order('nope', { ascending: false }),
    expect: { status: 400, code: '42703' },
  },
  {
    name: 'unknown relationship: 400 PGRST200',
    http: { url: '/people?select=name,nope(id)' },
    client: (db) => db.from('people').select('name,nope(id)'),
    expect: { status: 400, code: 'PGRST200' },
  },
  {
    name: 'ambiguous embed: 300 PGRST201',
    http: { url: '/incidents?select=title,people(name)' },
    client: (db) => db.from('incidents').select('title,people(name)'),
    expect: {
      status: 300,
      code: 'PGRST201',
      check: (body) => {
        const error = body as { details: Array<{ relationship: string }>; hint: string };
        expect(error.details.map((d) => d.relationship).sort()).toEqual([
          'incidents_commander_id_fkey using incidents(commander_id) and people(id)',
          'incidents_created_by_fkey using incidents(created_by) and people(id)',
        ]);
        expect(error.hint).toContain("'people!incidents_created_by_fkey'");
      },
    },
  },
  {
    name: 'ambiguous self-referencing embed through a view: 300 PGRST201',
    http: { url: '/config_relationships?select=configs(name)' },
    client: (db) => db.from('config_relationships').select('configs(name)'),
    expect: { status: 300, code: 'PGRST201' },
  },
  {
    name: 'filter on a resource that is not embedded: 400 PGRST108',
    http: { url: '/incidents?select=title&hypotheses.title=eq.x' },
    client: (db) => db.from('incidents').select('title').eq('hypotheses.title', 'x'),
    expect: { status: 400, code: 'PGRST108' },
  },
  {
    name: 'malformed filter operator: 400 PGRST100',
    http: { url: '/incidents?severity=eqq.1' },
    client: (db) => db.from('incidents').select().filter('severity', 'eqq', 1),
    expect: { status: 400, code: 'PGRST100' },
  },
  {
    name: 'malformed logic tree: 400 PGRST100',
    http: { url: '/incidents?or=(severity.eq.1' },
    client: (db) => db.from('incidents').select().or('severity.eq.1,(x'),
    expect: { status: 400, code: 'PGRST100' },
  },
  {
    name: 'malformed select: 400 PGRST100',
    http: { url: '/incidents?select=title,(' },
    client: (db) => db.from('incidents').select('title,('),
    expect: { status: 400, code: 'PGRST100' },
  },
  {
    name: 'type error in a filter: 400 22P02',
    http: { url: '/incidents?id=eq.notauuid' },
    client: (db) => db.from('incidents').select().eq('id', 'notauuid'),
    expect: { status: 400, code: '22P02' },
  },
  {
    name: 'type error on an integer: 400 22P02',
    http: { url: '/incidents?severity=gt.high' },
    client: (db) => db.from('incidents').select().gt('severity', 'high'),
    expect: { status: 400, code: '22P02' },
  },
  {
    name: 'unknown function: 404 PGRST202',
    http: { url: '/rpc/nope' },
    client: (db) => db.rpc('nope', {}, { get: true }),
    expect: { status: 404, code: 'PGRST202' },
  },
  {
    name: 'function called with unknown arguments: 404 PGRST202',
    http: { method: 'POST', url: '/rpc/incident_count', headers: JSON_HEADERS, body: { wrong: 'x' } },
    client: (db) => db.rpc('incident_count', { wrong: 'x' }),
    expect: { status: 404, code: 'PGRST202' },
  },
  {
    name: 'unsupported Accept: 406 PGRST107',
    http: { url: '/people', headers: { accept: 'image/png' } },
    expect: { status: 406, code: 'PGRST107' },
  },
  {
    name: 'bad JSON: 400 PGRST102, nothing stored',
    http: { method: 'POST', url: '/people', headers: JSON_HEADERS, rawBody: '{"name": "Broken",' },
    expect: { status: 400, code: 'PGRST102' },
    after: async ({ get }) => expect(await get('/people?name=eq.Broken')).toEqual([]),
  },
  {
    name: 'bulk insert with differing keys: 400 PGRST102',
    http: {
      method: 'POST',
      url: '/people',
      headers: { ...JSON_HEADERS, prefer: 'missing=null' },
      rawBody: '[{"name":"K1"},{"email":"k2@example.com"}]',
    },
    expect: { status: 400, code: 'PGRST102' },
  },
  {
    name: 'unknown column in the body: 400 PGRST204',
    http: { method: 'POST', url: '/people', headers: JSON_HEADERS, body: { name: 'X', nope: 1 } },
    client: (db) => db.from('people').insert({ name: 'X', nope: 1 }),
    expect: { status: 400, code: 'PGRST204' },
    after: async ({ get }) => expect(await get('/people?name=eq.X')).toEqual([]),
  },
  {
    name: 'unique violation: 409 23505, nothing stored',
    http: {
      method: 'POST',
      url: '/people',
      headers: JSON_HEADERS,
      body: { name: 'Alice again', email: 'alice@example.com' },
    },
    client: (db) => db.from('people').insert({ name: 'Alice again', email: 'alice@example.com' }),
    expect: { status: 409, code: '23505' },
    after: async ({ get }) => expect(await get('/people?name=eq.Alice%20again')).toEqual([]),
  },
  {
    name: 'bulk insert where one row violates a unique key: 409, no row stored',
    http: {
      method: 'POST',
      url: '/people',
      headers: JSON_HEADERS,
      body: [
        { name: 'Fresh', email: 'fresh@example.com' },
        { name: 'Dup', email: 'bob@example.com' },
      ],
    },
    client: (db) =>
      db.from('people').insert([
        { name: 'Fresh', email: 'fresh@example.com' },
        { name: 'Dup', email: 'bob@example.com' },
      ]),
    expect: { status: 409, code: '23505' },
    after: async ({ get }) => expect(await get('/people?email=eq.fresh@example.com')).toEqual([]),
  },
  {
    name: 'foreign-key violation: 409 23503',
    http: {
      method: 'POST',
      url: '/hypotheses',
      headers: JSON_HEADERS,
      body: { incident_id: '11111111-1111-4111-8111-111111111111', title: 'orphan' },
    },
    client: (db) =>
      db.from('hypotheses').insert({ incident_id: '11111111-1111-4111-8111-111111111111', title: 'orphan' }),
    expect: { status: 409, code: '23503' },
    after: async ({ get }) => expect(await get('/hypotheses?title=eq.orphan')).toEqual([]),
  },
  {
    name: 'not-null violation: 400 23502',
    http: { method: 'POST', url: '/people', headers: JSON_HEADERS, body: { email: 'nameless@example.com' } },
    client: (db) => db.from('people').insert({ email: 'nameless@example.com' }),
    expect: { status: 400, code: '23502' },
  },
  {
    name: 'type error in a PATCH body: 400 22P02, nothing changed',
    http: {
      method: 'PATCH',
      url: `/incidents?id=eq.${ID.dbDown}`,
      headers: JSON_HEADERS,
      body: { severity: 'high' },
    },
    client: (db) => db.from('incidents').update({ severity: 'high' }).eq('id', ID.dbDown),
    expect: { status: 400, code: '22P02' },
    after: async ({ get }) =>
      expect(await get(`/incidents?select=severity&id=eq.${ID.dbDown}`)).toEqual([{ severity: 1 }]),
  },
  {
    name: 'PATCH without a filter is refused',
    http: { method: 'PATCH', url: '/incidents', headers: JSON_HEADERS, body: { status: 'closed' } },
    client: (db) => db.from('incidents').update({ status: 'closed' }),
    expect: { status: 400, code: '21000' },
    after: async ({ get }) =>
      expect(await get('/incidents?select=title&status=eq.open&order=title')).toEqual(
        titles('Database down', 'Slow API'),
      ),
  },
  {
    name: 'DELETE without a filter is refused',
    http: { method: 'DELETE', url: '/hypotheses' },
    client: (db) => db.from('hypotheses').delete(),
    expect: { status: 400, code: '21000' },
    after: async ({ get }) => expect(((await get('/hypotheses?select=id')) as unknown[]).length).toBe(3),
  },
  {
    name: 'single object Accept on a PATCH touching two rows: 406, rolled back',
    http: {
      method: 'PATCH',
      url: '/incidents?status=eq.open',
      headers: { ...REPRESENTATION, accept: 'application/vnd.pgrst.object+json' },
      body: { severity: 5 },
    },
    client: (db) => db.from('incidents').update({ severity: 5 }).eq('status', 'open').select().single(),
    expect: { status: 406, code: 'PGRST116' },
    after: async ({ get }) => expect(await get('/incidents?select=id&severity=eq.5')).toEqual([]),
  },
];

// ---------------------------------------------------------------------------------------------
// writes, in order (each pass starts from the same fresh data)

const writeScenarios: Scenario[] = [
  {
    name: 'POST one object with return=representation and select',
    http: { method: 'POST', url: '/teams?select=name,spec', headers: REPRESENTATION, body: { name: 'Ops' } },
    client: (db) => db.from('teams').insert({ name: 'Ops' }).select('name,spec'),
    expect: {
      status: 201,
      body: [{ name: 'Ops', spec: {} }],
      contentRange: '*/*',
      headers: { 'preference-applied': 'return=representation' },
    },
  },
  {
    name: 'POST with return=minimal',
    http: {
      method: 'POST',
      url: '/teams',
      headers: { ...JSON_HEADERS, prefer: 'return=minimal' },
      body: { name: 'Ops2' },
    },
    client: (db) => db.from('teams').insert({ name: 'Ops2' }),
    expect: { status: 201, body: '' },
  },
  {
    name: 'POST with return=headers-only gives a Location',
    http: {
      method: 'POST',
      url: '/teams',
      headers: { ...JSON_HEADERS, prefer: 'return=headers-only' },
      body: { name: 'Ops3' },
    },
    expect: { status: 201, headers: { location: /^\/api\/db\/teams\?id=eq\.[0-9a-f-]{36}$/ } },
  },
  {
    name: 'bulk insert of an array',
    http: {
      method: 'POST',
      url: '/people?select=name,email',
      headers: REPRESENTATION,
      body: [
        { name: 'Eve', email: 'eve@example.com' },
        { name: 'Frank', email: 'frank@example.com' },
      ],
    },
    client: (db) =>
      db
        .from('people')
        .insert([
          { name: 'Eve', email: 'eve@example.com' },
          { name: 'Frank', email: 'frank@example.com' },
        ])
        .select('name,email'),
    expect: {
      status: 201,
      body: [
        { name: 'Eve', email: 'eve@example.com' },
        { name: 'Frank', email: 'frank@example.com' },
      ],
    },
  },
  {
    name: 'bulk insert with columns= (missing keys become null)',
    http: {
      method: 'POST',
      url: '/people?columns=%22name%22,%22email%22&select=name,email',
      headers: REPRESENTATION,
      body: [{ name: 'Gina', email: 'gina@example.com' }, { name: 'Hal' }],
    },
    client: (db) =>
      db
        .from('people')
        .insert([{ name: 'Gina', email: 'gina@example.com' }, { name: 'Hal' }])
        .select('name,email'),
    expect: {
      status: 201,
      body: [
        { name: 'Gina', email: 'gina@example.com' },
        { name: 'Hal', email: null },
      ],
    },
  },
  {
    name: 'Prefer: missing=default uses column defaults for missing keys',
    http: {
      method: 'POST',
      url: '/config_items?columns=name,type,labels&select=name,labels',
      headers: { ...REPRESENTATION, prefer: 'return=representation,missing=default' },
      body: [
        { name: 'm1', type: 'T', labels: { a: '1' } },
        { name: 'm2', type: 'T' },
      ],
    },
    client: (db) =>
      db
        .from('config_items')
        .insert(
          [
            { name: 'm1', type: 'T', labels: { a: '1' } },
            { name: 'm2', type: 'T' },
          ],
          { defaultToNull: false },
        )
        .select('name,labels'),
    expect: {
      status: 201,
      body: [
        { name: 'm1', labels: { a: '1' } },
        { name: 'm2', labels: {} },
      ],
    },
  },
  {
    name: 'upsert with resolution=merge-duplicates and on_conflict',
    http: {
      method: 'POST',
      url: '/teams?on_conflict=name&select=id,name,spec',
      headers: { ...JSON_HEADERS, prefer: 'resolution=merge-duplicates,return=representation' },
      body: { name: 'SRE', spec: { icon: 'flame' } },
    },
    client: (db) =>
      db
        .from('teams')
        .upsert({ name: 'SRE', spec: { icon: 'flame' } }, { onConflict: 'name' })
        .select('id,name,spec'),
    expect: {
      status: 201,
      body: [{ id: ID.sre, name: 'SRE', spec: { icon: 'flame' } }],
      headers: { 'preference-applied': /resolution=merge-duplicates/ },
    },
  },
  {
    name: 'upsert with resolution=ignore-duplicates',
    http: {
      method: 'POST',
      url: '/teams?on_conflict=name&select=name,spec',
      headers: { ...JSON_HEADERS, prefer: 'resolution=ignore-duplicates,return=representation' },
      body: [
        { name: 'SRE', spec: { icon: 'ignored' } },
        { name: 'Security', spec: {} },
      ],
    },
    client: (db) =>
      db
        .from('teams')
        .upsert(
          [
            { name: 'SRE', spec: { icon: 'ignored' } },
            { name: 'Security', spec: {} },
          ],
          { onConflict: 'name', ignoreDuplicates: true },
        )
        .select('name,spec'),
    expect: {
      status: 201,
      check: (body) => expect((body as Array<{ name: string }>).map((r) => r.name)).toEqual(['Security']),
    },
    after: async ({ get }) =>
      expect(await get('/teams?select=spec&name=eq.SRE')).toEqual([{ spec: { icon: 'flame' } }]),
  },
  {
    name: 'PATCH with filters returning the representation',
    http: {
      method: 'PATCH',
      url: `/incidents?id=eq.${ID.slowApi}&select=title,status`,
      headers: REPRESENTATION,
      body: { status: 'resolved' },
    },
    client: (db) =>
      db.from('incidents').update({ status: 'resolved' }).eq('id', ID.slowApi).select('title,status'),
    expect: { status: 200, body: [{ title: 'Slow API', status: 'resolved' }], contentRange: '0-0/*' },
  },
  {
    name: 'PATCH representation with an embed, rows that no longer match the filter still returned',
    http: {
      method: 'PATCH',
      url: `/incidents?severity=eq.1&status=eq.open&select=title,severity,created_by(name)`,
      headers: REPRESENTATION,
      body: { severity: 2 },
    },
    client: (db) =>
      db
        .from('incidents')
        .update({ severity: 2 })
        .eq('severity', 1)
        .eq('status', 'open')
        .select('title,severity,created_by(name)'),
    expect: { status: 200, body: [{ title: 'Database down', severity: 2, created_by: { name: 'Alice' } }] },
  },
  {
    name: 'PATCH {deleted_at: "now()"} (soft delete) is parsed by PostgreSQL',
    http: {
      method: 'PATCH',
      url: `/people?id=eq.${ID.carol}&select=name,deleted_at`,
      headers: REPRESENTATION,
      body: { deleted_at: 'now()' },
    },
    client: (db) =>
      db.from('people').update({ deleted_at: 'now()' }).eq('id', ID.carol).select('name,deleted_at'),
    expect: {
      status: 200,
      check: (body) => {
        const [row] = body as Array<{ name: string; deleted_at: string }>;
        expect(row.name).toBe('Carol');
        expect(Math.abs(Date.parse(row.deleted_at) - Date.now())).toBeLessThan(60_000);
      },
    },
  },
  {
    name: 'PATCH with count=exact and return=minimal: 204 with the affected range',
    http: {
      method: 'PATCH',
      url: `/incidents?id=eq.${ID.diskFull}`,
      headers: { ...JSON_HEADERS, prefer: 'count=exact' },
      body: { severity: 4 },
    },
    client: (db) => db.from('incidents').update({ severity: 4 }, { count: 'exact' }).eq('id', ID.diskFull),
    expect: { status: 204, contentRange: '0-0/1', count: 1 },
  },
  {
    name: 'DELETE with a filter returning the representation',
    http: {
      method: 'DELETE',
      url: `/hypotheses?id=eq.${ID.hNetwork}&select=title`,
      headers: { prefer: 'return=representation' },
    },
    client: (db) => db.from('hypotheses').delete().eq('id', ID.hNetwork).select('title'),
    expect: { status: 200, body: titles('Network partition') },
    after: async ({ get }) => expect(await get(`/hypotheses?id=eq.${ID.hNetwork}`)).toEqual([]),
  },
  {
    name: 'DELETE with return=minimal',
    http: { method: 'DELETE', url: `/team_members?team_id=eq.${ID.platform}&person_id=eq.${ID.carol}` },
    client: (db) => db.from('team_members').delete().eq('team_id', ID.platform).eq('person_id', ID.carol),
    expect: { status: 204 },
  },
  {
    name: 'rpc POST to a volatile function returning void: 204',
    http: { method: 'POST', url: '/rpc/close_incident', headers: JSON_HEADERS, body: { p_id: ID.dbDown } },
    client: (db) => db.rpc('close_incident', { p_id: ID.dbDown }),
    expect: { status: 204 },
    after: async ({ get }) =>
      expect(await get(`/incidents?select=status&id=eq.${ID.dbDown}`)).toEqual([{ status: 'closed' }]),
  },
];

// ---------------------------------------------------------------------------------------------
// aggregates (PostgREST 12, db-aggregates-enabled): count(), sum/avg/min/max, automatic GROUP BY

const byKey = (key: string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a[key]).localeCompare(String(b[key]));

const aggregateScenarios: Scenario[] = [
  {
    name: 'aggregate: count() over the filtered rows',
    http: { url: '/config_items?select=count()&deleted_at=is.null&tags=cs.{prod}' },
    client: (db) =>
      db.from('config_items').select('count()').is('deleted_at', null).contains('tags', ['prod']),
    expect: { status: 200, body: [{ count: 3 }] },
  },
  {
    name: 'aggregate: the other selected columns are the GROUP BY; count=exact counts groups',
    http: { url: '/incidents?select=status,count()&order=status', headers: { prefer: 'count=exact' } },
    client: (db) => db.from('incidents').select('status,count()', { count: 'exact' }).order('status'),
    expect: {
      status: 200,
      body: [
        { status: 'closed', count: 2 },
        { status: 'open', count: 2 },
      ],
      contentRange: '0-1/2',
      count: 2,
    },
  },
  {
    name: 'aggregate: sum, avg, min, max and count(column) with renames and a result cast',
    http: {
      url: '/config_items?select=type,total:cost.sum(),cost.avg()::int,cost.min(),cost.max(),priced:cost.count()&deleted_at=is.null&order=type',
    },
    client: (db) =>
      db
        .from('config_items')
        .select('type,total:cost.sum(),cost.avg()::int,cost.min(),cost.max(),priced:cost.count()')
        .is('deleted_at', null)
        .order('type'),
    expect: {
      status: 200,
      body: [
        { type: 'Kubernetes::Deployment', total: 10, avg: 10, min: 10, max: 10, priced: 1 },
        { type: 'Postgres::Instance', total: 200.5, avg: 100, min: 80, max: 120.5, priced: 2 },
      ],
    },
  },
  {
    name: 'aggregate: grouped by a JSON path, input cast, ordered by the same path',
    http: {
      url: '/incidents?select=env:labels->>env,severity::float8.avg(),count()&order=labels->>env.nullsfirst',
    },
    client: (db) =>
      db
        .from('incidents')
        .select('env:labels->>env,severity::float8.avg(),count()')
        .order('labels->>env', { nullsFirst: true }),
    expect: {
      status: 200,
      body: [
        { env: null, avg: 3, count: 1 },
        { env: 'prod', avg: 1, count: 2 },
        { env: 'staging', avg: 2, count: 1 },
      ],
    },
  },
  {
    name: 'aggregate: count() inside a to-many embed (zero when there are no rows)',
    http: { url: '/incidents?select=title,hypotheses(count())&order=created_at' },
    client: (db) => db.from('incidents').select('title,hypotheses(count())').order('created_at'),
    expect: {
      status: 200,
      body: [
        { title: 'Database down', hypotheses: [{ count: 2 }] },
        { title: 'Slow API', hypotheses: [{ count: 1 }] },
        { title: 'Disk full', hypotheses: [{ count: 0 }] },
        { title: 'Cert expiry, again', hypotheses: [{ count: 0 }] },
      ],
    },
  },
  {
    name: 'aggregate: the older embed(count) form',
    http: { url: `/incidents?select=title,hypotheses(count)&id=eq.${ID.dbDown}` },
    client: (db) => db.from('incidents').select('title,hypotheses(count)').eq('id', ID.dbDown),
    expect: { status: 200, body: [{ title: 'Database down', hypotheses: [{ count: 2 }] }] },
  },
  {
    name: 'aggregate: grouped inside an embed, ordered there',
    http: { url: `/people?select=name,hypotheses(type,count())&hypotheses.order=type&id=eq.${ID.bob}` },
    client: (db) =>
      db
        .from('people')
        .select('name,hypotheses(type,count())')
        .order('type', { referencedTable: 'hypotheses' })
        .eq('id', ID.bob),
    expect: {
      status: 200,
      body: [
        {
          name: 'Bob',
          hypotheses: [
            { type: 'factor', count: 1 },
            { type: 'root', count: 1 },
          ],
        },
      ],
    },
  },
  {
    name: 'aggregate: an embedded resource as a grouping column',
    http: { url: '/incidents?select=count(),created_by(name)' },
    client: (db) => db.from('incidents').select('count(),created_by(name)'),
    expect: {
      status: 200,
      check: (body) => {
        const rows = [...(body as Array<{ count: number; created_by: { name: string } }>)].sort((a, b) =>
          a.created_by.name.localeCompare(b.created_by.name),
        );
        expect(rows).toEqual([
          { count: 2, created_by: { name: 'Alice' } },
          { count: 1, created_by: { name: 'Bob' } },
          { count: 1, created_by: { name: 'Carol' } },
        ]);
      },
    },
  },
  {
    name: 'aggregate: columns of a spread resource group the top level',
    http: { url: '/incidents?select=count(),...created_by(creator:name)' },
    client: (db) => db.from('incidents').select('count(),...created_by(creator:name)'),
    expect: {
      status: 200,
      check: (body) => {
        expect([...(body as Array<Record<string, unknown>>)].sort(byKey('creator'))).toEqual([
          { count: 2, creator: 'Alice' },
          { count: 1, creator: 'Bob' },
          { count: 1, creator: 'Carol' },
        ]);
      },
    },
  },
  {
    name: 'aggregate: an aggregate over a spread resource applies at the top level',
    http: { url: '/hypotheses?select=type,...incidents(worst:severity.max(),severity.min())&order=type' },
    client: (db) =>
      db.from('hypotheses').select('type,...incidents(worst:severity.max(),severity.min())').order('type'),
    expect: {
      status: 200,
      body: [
        { type: 'factor', worst: 1, min: 1 },
        { type: 'root', worst: 2, min: 1 },
      ],
    },
  },
  {
    name: 'aggregate: count() with a result cast and an alias',
    http: { url: '/incidents?select=n:count()::text&status=eq.open' },
    client: (db) => db.from('incidents').select('n:count()::text').eq('status', 'open'),
    expect: { status: 200, body: [{ n: '2' }] },
  },
  {
    name: 'aggregate: an unknown aggregate function is a parse error',
    http: { url: '/incidents?select=severity.median()' },
    client: (db) => db.from('incidents').select('severity.median()'),
    expect: { status: 400, code: 'PGRST100' },
  },
  {
    name: "aggregate: sum over a text column is PostgreSQL's undefined function",
    http: { url: '/incidents?select=title.sum()' },
    client: (db) => db.from('incidents').select('title.sum()'),
    expect: { status: 404, code: '42883' },
  },
];

// or= and embedded resources

const embedOrScenarios: Scenario[] = [
  {
    name: 'or= on an embedded resource (embed.or=) filters that resource',
    http: {
      url: `/incidents?select=title,hypotheses(title)&hypotheses.or=(type.eq.root,title.eq.nothing)&id=eq.${ID.dbDown}`,
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title)')
        .or('type.eq.root,title.eq.nothing', { referencedTable: 'hypotheses' })
        .eq('id', ID.dbDown),
    expect: { status: 200, body: [{ title: 'Database down', hypotheses: [{ title: 'Primary crashed' }] }] },
  },
  {
    name: 'or= across the top level and an embed, through null filtering on the embed',
    http: {
      url: '/incidents?select=title,hypotheses(title)&hypotheses.title=eq.GC%20pauses&or=(status.eq.closed,hypotheses.not.is.null)&order=created_at',
    },
    client: (db) =>
      db
        .from('incidents')
        .select('title,hypotheses(title)')
        .eq('hypotheses.title', 'GC pauses')
        .or('status.eq.closed,hypotheses.not.is.null')
        .order('created_at'),
    expect: {
      status: 200,
      body: [
        { title: 'Slow API', hypotheses: [{ title: 'GC pauses' }] },
        { title: 'Disk full', hypotheses: [] },
        { title: 'Cert expiry, again', hypotheses: [] },
      ],
    },
  },
  {
    name: 'an embedded column inside a top-level or= is a parse error, as in PostgREST',
    http: { url: '/incidents?select=title,hypotheses(title)&or=(title.eq.x,hypotheses.title.eq.y)' },
    client: (db) =>
      db.from('incidents').select('title,hypotheses(title)').or('title.eq.x,hypotheses.title.eq.y'),
    expect: { status: 400, code: 'PGRST100' },
  },
];

// ---------------------------------------------------------------------------------------------
// PUT (single-row upsert by primary key) and CSV bodies

const NEW_TEAM = 'b0000000-0000-4000-8000-0000000000aa';

const putAndCsvScenarios: Scenario[] = [
  {
    name: 'PUT creates the row its primary-key filter names',
    http: {
      method: 'PUT',
      url: `/teams?id=eq.${NEW_TEAM}&select=id,name,spec`,
      headers: REPRESENTATION,
      body: { id: NEW_TEAM, name: 'Docs', spec: { icon: 'book' } },
    },
    expect: { status: 200, body: [{ id: NEW_TEAM, name: 'Docs', spec: { icon: 'book' } }] },
    after: async ({ get }) =>
      expect(await get(`/teams?select=name&id=eq.${NEW_TEAM}`)).toEqual([{ name: 'Docs' }]),
  },
  {
    name: 'PUT replaces an existing row (204 without a representation)',
    http: {
      method: 'PUT',
      url: `/teams?id=eq.${ID.platform}`,
      headers: JSON_HEADERS,
      body: { id: ID.platform, name: 'Platform team', spec: {} },
    },
    expect: { status: 204 },
    after: async ({ get }) =>
      expect(await get(`/teams?select=name,spec&id=eq.${ID.platform}`)).toEqual([
        { name: 'Platform team', spec: {} },
      ]),
  },
  {
    name: 'PUT whose payload key differs from the URL: 400 PGRST115, nothing stored',
    http: {
      method: 'PUT',
      url: `/teams?id=eq.${ID.sre}`,
      headers: JSON_HEADERS,
      body: { id: ID.platform, name: 'Hijack' },
    },
    expect: { status: 400, code: 'PGRST115' },
    after: async ({ get }) => expect(await get(`/teams?select=name&name=eq.Hijack`)).toEqual([]),
  },
  {
    name: 'PUT filtered on anything but the whole primary key with eq: 405 PGRST105',
    http: {
      method: 'PUT',
      url: '/teams?name=eq.SRE',
      headers: JSON_HEADERS,
      body: { id: ID.sre, name: 'SRE' },
    },
    expect: { status: 405, code: 'PGRST105' },
  },
  {
    name: 'PUT with limit: 400 PGRST114',
    http: {
      method: 'PUT',
      url: `/teams?id=eq.${ID.sre}&limit=1`,
      headers: JSON_HEADERS,
      body: { id: ID.sre, name: 'SRE' },
    },
    expect: { status: 400, code: 'PGRST114' },
  },
  {
    name: 'PUT with several rows: 400 PGRST102',
    http: {
      method: 'PUT',
      url: `/teams?id=eq.${ID.sre}`,
      headers: JSON_HEADERS,
      body: [
        { id: ID.sre, name: 'SRE' },
        { id: ID.sre, name: 'SRE' },
      ],
    },
    expect: { status: 400, code: 'PGRST102' },
  },
  {
    name: 'POST a text/csv body: bulk insert, unquoted NULL is null, quoted fields keep commas',
    http: {
      method: 'POST',
      url: '/people?select=name,email,avatar',
      headers: { 'content-type': 'text/csv', prefer: 'return=representation' },
      rawBody: 'name,email,avatar\r\n"Eve, Jr.",eve.csv@example.com,NULL\r\nFrank,NULL,"f.png"\r\n',
    },
    expect: {
      status: 201,
      body: [
        { name: 'Eve, Jr.', email: 'eve.csv@example.com', avatar: null },
        { name: 'Frank', email: null, avatar: 'f.png' },
      ],
    },
  },
  {
    name: 'POST a malformed text/csv body: 400 PGRST102, nothing stored',
    http: {
      method: 'POST',
      url: '/people',
      headers: { 'content-type': 'text/csv' },
      rawBody: 'name,email\nGrace\n',
    },
    expect: { status: 400, code: 'PGRST102' },
    after: async ({ get }) => expect(await get('/people?select=name&name=eq.Grace')).toEqual([]),
  },
  {
    name: 'text/csv is refused for PATCH: 415 PGRST107',
    http: {
      method: 'PATCH',
      url: `/people?id=eq.${ID.bob}`,
      headers: { 'content-type': 'text/csv' },
      rawBody: 'name\nRobert\n',
    },
    expect: { status: 415, code: 'PGRST107' },
  },
];

const allScenarios = [
  ...readScenarios,
  ...aggregateScenarios,
  ...embedOrScenarios,
  ...errorScenarios,
  ...writeScenarios,
  ...putAndCsvScenarios,
];

// ---------------------------------------------------------------------------------------------

interface Pass {
  db: TestDatabase;
  app: FastifyInstance;
}

async function startPass(): Promise<Pass> {
  const db = await createTestDatabase();
  await installFixture(db.pool);
  const { app } = await buildFixtureApp(db.pool);
  return { db, app };
}

async function injectGet(app: FastifyInstance, url: string): Promise<unknown> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/db${url}`,
    headers: { authorization: 'Bearer admin' },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return JSON.parse(response.body);
}

describe('data API conformance over HTTP (app.inject)', () => {
  let pass: Pass;
  beforeAll(async () => {
    pass = await startPass();
  });
  afterAll(async () => {
    await pass.app.close();
    await pass.db.close();
  });

  for (const scenario of allScenarios) {
    it(scenario.name, async () => {
      const { http } = scenario;
      const payload = http.rawBody ?? (http.body === undefined ? undefined : JSON.stringify(http.body));
      const response = await pass.app.inject({
        method: http.method ?? 'GET',
        url: `/api/db${http.url}`,
        headers: { authorization: 'Bearer admin', ...http.headers },
        payload,
      });
      const { expect: want } = scenario;
      if (want.status !== -1) expect(response.statusCode, response.body).toBe(want.status);
      else expect([200, 206]).toContain(response.statusCode);
      if (want.contentRange !== undefined) {
        const contentRange = String(response.headers['content-range']);
        if (want.contentRange instanceof RegExp) expect(contentRange).toMatch(want.contentRange);
        else expect(contentRange).toBe(want.contentRange);
      }
      for (const [name, value] of Object.entries(want.headers ?? {})) {
        const actual = String(response.headers[name]);
        if (value instanceof RegExp) expect(actual).toMatch(value);
        else expect(actual).toBe(value);
      }
      const isJson = String(response.headers['content-type'] ?? '').includes('json');
      const body: unknown = response.body === '' ? '' : isJson ? JSON.parse(response.body) : response.body;
      if (want.code) {
        expect(body).toMatchObject({ code: want.code });
        expect(Object.keys(body as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      }
      if (want.body !== undefined) expect(body).toEqual(want.body);
      if (http.method === 'HEAD') expect(response.body).toBe('');
      want.check?.(body);
      if (scenario.after) await scenario.after({ get: (url) => injectGet(pass.app, url) });
    });
  }
});

describe('data API conformance through @supabase/postgrest-js', () => {
  let pass: Pass;
  let client: Client;
  beforeAll(async () => {
    pass = await startPass();
    const address = await pass.app.listen({ port: 0, host: '127.0.0.1' });
    client = new PostgrestClient(`${address}/api/db`, {
      headers: { Authorization: 'Bearer admin' },
      retry: false,
    });
  });
  afterAll(async () => {
    await pass.app.close();
    await pass.db.close();
  });

  for (const scenario of allScenarios) {
    const run = scenario.client;
    // Scenarios the client library cannot express (several select=, Range, tri-state, …) run in the HTTP pass only.
    (run ? it : it.skip)(scenario.name, async () => {
      const result = await run!(client);
      const { expect: want } = scenario;
      if (want.status !== -1) expect(result.status, JSON.stringify(result.error)).toBe(want.status);
      if (want.code) {
        expect(result.error?.code).toBe(want.code);
      } else {
        expect(result.error).toBeNull();
        if (want.body !== undefined) expect(result.data ?? '').toEqual(want.body);
        want.check?.(result.data);
      }
      if (want.count !== undefined) expect(result.count).toBe(want.count);
      if (scenario.after) await scenario.after({ get: (url) => injectGet(pass.app, url) });
    });
  }

  it('covers most scenarios with the client library', () => {
    const covered = allScenarios.filter((s) => s.client).length;
    expect(covered / allScenarios.length).toBeGreaterThan(0.7);
  });
});
