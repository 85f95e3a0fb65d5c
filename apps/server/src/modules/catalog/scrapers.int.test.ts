import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { DIFF_CHANGE_TYPE, MISSING_DELETE_REASON, runScrape, type ScraperRow } from './scrape-engine.js';

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-catalog-'));
});

afterAll(async () => {
  await db?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function createScraper(spec: Record<string, unknown>): Promise<ScraperRow> {
  const { rows } = await db.pool.query<ScraperRow>(
    `INSERT INTO config_scrapers (name, spec) VALUES ($1, $2::jsonb)
     RETURNING id, name, namespace, spec, agent_id, deleted_at`,
    [`scraper-${Math.random().toString(36).slice(2, 8)}`, JSON.stringify(spec)],
  );
  return rows[0];
}

interface ItemRow {
  id: string;
  name: string;
  type: string;
  config: unknown;
  deleted_at: Date | null;
  delete_reason: string | null;
  health: string | null;
}

async function itemsOf(scraper: ScraperRow): Promise<Map<string, ItemRow>> {
  const { rows } = await db.pool.query<ItemRow & { external_id: string[] }>(
    `SELECT id, external_id, name, type, config, deleted_at, delete_reason, health
     FROM config_items WHERE scraper_id = $1`,
    [scraper.id],
  );
  return new Map(rows.map((row) => [row.external_id[0], row]));
}

async function changesOf(scraper: ScraperRow) {
  const { rows } = await db.pool.query<{
    config_id: string;
    change_type: string;
    patches: unknown;
    diff: string | null;
    summary: string | null;
  }>(
    `SELECT c.config_id, c.change_type, c.patches, c.diff, c.summary FROM config_changes c
     JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1 ORDER BY c.created_at`,
    [scraper.id],
  );
  return rows;
}

/**
 * The scenario every source type must pass: first scrape creates, an unchanged rescrape writes
 * nothing, an edit records exactly one diff change, a removed item is marked deleted, and a
 * garbage source fails the run and leaves the items as they were.
 */
async function lifecycle(options: {
  spec: Record<string, unknown>;
  write: (items: Array<{ id: string; name: string; replicas: number }>) => Promise<void>;
  garbage: () => Promise<void>;
  garbageError: RegExp;
}) {
  const scraper = await createScraper(options.spec);
  await options.write([
    { id: 'a', name: 'alpha', replicas: 1 },
    { id: 'b', name: 'beta', replicas: 2 },
  ]);
  const first = await runScrape(db.pool, scraper, { baseDir: dir });
  expect(first.summary).toMatchObject({
    scraped: 2,
    added: 2,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    changes: 0,
  });
  const created = await itemsOf(scraper);
  expect([...created.keys()].sort()).toEqual(['a', 'b']);
  expect(created.get('a')).toMatchObject({
    name: 'alpha',
    type: 'Test::App',
    config: { id: 'a', name: 'alpha', replicas: 1 },
  });

  const again = await runScrape(db.pool, scraper, { baseDir: dir });
  expect(again.summary).toMatchObject({ added: 0, updated: 0, unchanged: 2, changes: 0 });

  await options.write([
    { id: 'a', name: 'alpha', replicas: 3 },
    { id: 'b', name: 'beta', replicas: 2 },
  ]);
  const edited = await runScrape(db.pool, scraper, { baseDir: dir });
  expect(edited.summary).toMatchObject({ updated: 1, unchanged: 1, changes: 1 });
  expect(edited.scrapeSummary['Test::App']).toMatchObject({ updated: 1, unchanged: 1, changes: 1 });
  const changes = await changesOf(scraper);
  expect(changes).toHaveLength(1);
  expect(changes[0]).toMatchObject({
    config_id: created.get('a')!.id,
    change_type: DIFF_CHANGE_TYPE,
    patches: [{ op: 'replace', path: '/replicas', value: 3 }],
    summary: 'replicas',
  });
  expect(changes[0].diff).toContain('-  "replicas": 1\n+  "replicas": 3');

  await options.write([{ id: 'a', name: 'alpha', replicas: 3 }]);
  const removed = await runScrape(db.pool, scraper, { baseDir: dir });
  expect(removed.summary).toMatchObject({ deleted: 1, unchanged: 1 });
  const afterDelete = await itemsOf(scraper);
  expect(afterDelete.get('b')!.deleted_at).toBeInstanceOf(Date);
  expect(afterDelete.get('b')!.delete_reason).toBe(MISSING_DELETE_REASON);
  expect(afterDelete.get('a')!.deleted_at).toBeNull();

  await options.garbage();
  await expect(runScrape(db.pool, scraper, { baseDir: dir })).rejects.toThrow(options.garbageError);
  const untouched = await itemsOf(scraper);
  expect(untouched.get('a')).toEqual(afterDelete.get('a'));
  expect(untouched.get('b')).toEqual(afterDelete.get('b'));
  expect(await changesOf(scraper)).toHaveLength(1);
  return scraper;
}

describe('file scraper', () => {
  it('reads many items per file by glob, records one change per edit, deletions and bad input', async () => {
    const sub = path.join(dir, 'file-case', 'nested');
    await fs.mkdir(sub, { recursive: true });
    const file = path.join(sub, 'apps.json');
    await lifecycle({
      spec: {
        file: [
          { type: 'Test::App', id: '$.id', name: '$.name', items: '$.apps', paths: ['file-case/**/*.json'] },
        ],
      },
      write: (items) => fs.writeFile(file, JSON.stringify({ apps: items })),
      garbage: () => fs.writeFile(file, '{"apps": [ not json'),
      garbageError: /^file\[0\]: .*apps\.json: invalid JSON/,
    });
  });

  it('reads YAML streams and plain text, with JSONPath and expression fields', async () => {
    const base = path.join(dir, 'yaml-case');
    await fs.mkdir(base, { recursive: true });
    await fs.writeFile(path.join(base, 'a.yaml'), 'name: one\nstate: ok\n---\nname: two\nstate: bad\n');
    await fs.writeFile(path.join(base, 'notes.txt'), 'hello');
    await fs.writeFile(
      path.join(base, 'dated.yml'),
      'name: three\nstate: ok\nmeta: {created: "2024-01-02T03:04:05Z", removed: "2024-02-01T00:00:00Z"}\n',
    );
    const scraper = await createScraper({
      file: [
        {
          type: 'Test::Doc',
          id: '$.name',
          paths: ['yaml-case/*.{yaml,yml}'],
          health: { expr: "config.state == 'ok' ? 'healthy' : 'unhealthy'" },
          status: '$.state',
          labels: { team: 'core', state: '$.state' },
          createFields: ['$.meta.created'],
          deleteFields: ['meta.removed'],
        },
        { type: 'Test::Note', paths: ['yaml-case/notes.txt'] },
      ],
    });
    await runScrape(db.pool, scraper, { baseDir: dir });
    const { rows } = await db.pool.query(
      `SELECT external_id[1] AS id, type, health, status, labels, config FROM config_items
       WHERE scraper_id = $1 ORDER BY 1`,
      [scraper.id],
    );
    const dated = await db.pool.query(
      `SELECT created_at, deleted_at FROM config_items WHERE scraper_id = $1 AND external_id[1] = 'three'`,
      [scraper.id],
    );
    // createFields set the creation time; deleteFields mark the item deleted at that time.
    expect(dated.rows[0]).toEqual({
      created_at: new Date('2024-01-02T03:04:05Z'),
      deleted_at: new Date('2024-02-01T00:00:00Z'),
    });
    expect(rows).toEqual([
      {
        id: 'one',
        type: 'Test::Doc',
        health: 'healthy',
        status: 'ok',
        labels: { team: 'core', state: 'ok' },
        config: { name: 'one', state: 'ok' },
      },
      {
        id: 'three',
        type: 'Test::Doc',
        health: 'healthy',
        status: 'ok',
        labels: { team: 'core', state: 'ok' },
        config: {
          name: 'three',
          state: 'ok',
          meta: { created: '2024-01-02T03:04:05Z', removed: '2024-02-01T00:00:00Z' },
        },
      },
      {
        id: 'two',
        type: 'Test::Doc',
        health: 'unhealthy',
        status: 'bad',
        labels: { team: 'core', state: 'bad' },
        config: { name: 'two', state: 'bad' },
      },
      {
        id: 'yaml-case/notes.txt',
        type: 'Test::Note',
        health: null,
        status: null,
        labels: {},
        config: 'hello',
      },
    ]);
  });
});

describe('http scraper', () => {
  let server: http.Server;
  let baseUrl: string;
  let pages: Array<Array<{ id: string; name: string; replicas: number }>> = [];
  let garbage = false;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://local');
      if (garbage) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
        return;
      }
      const page = Number(url.searchParams.get('page') ?? '1');
      const body = {
        items: pages[page - 1] ?? [],
        next: page < pages.length ? `/apps?page=${page + 1}` : null,
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('follows pagination against a local server and reconciles the items', async () => {
    await lifecycle({
      spec: {
        http: [
          {
            url: `${baseUrl}/apps?page=1`,
            items: '$[*]',
            type: 'Test::App',
            id: '$.id',
            name: '$.name',
            pagination: { nextPageExpr: 'response.body.next', reduce: 'pages.map(p, p.items).flatten()' },
          },
        ],
      },
      // One item per page, so that both items only appear when pagination works.
      write: async (items) => {
        garbage = false;
        pages = items.map((item) => [item]);
      },
      garbage: async () => {
        garbage = true;
      },
      garbageError: /^http\[0\]: .*invalid JSON/,
    });
  });
});

describe('sql scraper', () => {
  it('makes PostgreSQL rows items', async () => {
    await db.pool.query('CREATE TABLE apps (id text PRIMARY KEY, name text, replicas int)');
    await lifecycle({
      spec: {
        sql: [
          {
            connection: db.url,
            query: 'SELECT id, name, replicas FROM apps ORDER BY id',
            type: 'Test::App',
            id: '$.id',
            name: '$.name',
          },
        ],
      },
      write: async (items) => {
        await db.pool.query('DELETE FROM apps');
        for (const item of items) {
          await db.pool.query('INSERT INTO apps VALUES ($1, $2, $3)', [item.id, item.name, item.replicas]);
        }
      },
      garbage: () => db.pool.query('DROP TABLE apps').then(() => undefined),
      garbageError: /^sql\[0\]: sql: query on .* failed: relation "apps" does not exist/,
    });
  });

  it('makes MariaDB rows items', async (context) => {
    let connection: mysql.Connection;
    try {
      connection = await mysql.createConnection({
        host: '127.0.0.1',
        port: 3306,
        user: 'root',
        database: 'test',
      });
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      context.skip(`MariaDB is not reachable: ${(error as Error).message}`);
      return;
    }
    const table = `opsdeck_catalog_${Math.random().toString(36).slice(2, 8)}`;
    try {
      await connection.query(`CREATE TABLE ${table} (id varchar(20) PRIMARY KEY, name text, replicas int)`);
      await lifecycle({
        spec: {
          sql: [
            {
              connection: 'mysql://root@127.0.0.1:3306/test',
              query: `SELECT id, name, replicas FROM ${table} ORDER BY id`,
              type: 'Test::App',
              id: '$.id',
              name: '$.name',
            },
          ],
        },
        write: async (items) => {
          await connection.query(`DELETE FROM ${table}`);
          for (const item of items) {
            await connection.query(`INSERT INTO ${table} VALUES (?, ?, ?)`, [
              item.id,
              item.name,
              item.replicas,
            ]);
          }
        },
        garbage: () => connection.query(`DROP TABLE ${table}`).then(() => undefined),
        garbageError: new RegExp(`^sql\\[0\\]: sql: query on .* failed: Table 'test.${table}' doesn't exist`),
      });
    } finally {
      await connection.query(`DROP TABLE IF EXISTS ${table}`);
      await connection.end();
    }
  });
});

describe('exec scraper', () => {
  it("reads a script's JSON output", async () => {
    const data = path.join(dir, 'exec-data.json');
    await lifecycle({
      spec: {
        exec: [{ script: `cat ${JSON.stringify(data)}`, type: 'Test::App', id: '$.id', name: '$.name' }],
      },
      write: (items) => fs.writeFile(data, JSON.stringify(items)),
      garbage: () => fs.writeFile(data, 'this is not json'),
      garbageError: /^exec\[0\]: exec: the script output: invalid JSON/,
    });
  });

  it('fails with the exit code and stderr of a failing script', async () => {
    const scraper = await createScraper({
      exec: [{ script: 'echo broken >&2; exit 3', type: 'T', id: 'x' }],
    });
    await expect(runScrape(db.pool, scraper, { baseDir: dir })).rejects.toThrow(
      'exec[0]: exec: the script exited with code 3: broken',
    );
  });
});

describe('transform, analysis, relationships, events and retention', () => {
  it('applies exclude, mask, scripts with envelopes, relationship rules and change rules', async () => {
    const data = path.join(dir, 'transform.json');
    const write = (version: number, health: string) =>
      fs.writeFile(
        data,
        JSON.stringify([
          { id: 'db', kind: 'Database', secret: 's3cret', noise: 1, version, health },
          { id: 'web', kind: 'Service', secret: 'x', noise: 2, version: 1, uses: 'db', health: 'healthy' },
        ]),
      );
    await write(1, 'healthy');
    const scraper = await createScraper({
      file: [
        {
          paths: ['transform.json'],
          items: '$[*]',
          id: '$.id',
          name: '$.id',
          type: { expr: "'Test::' + config.kind" },
          health: '$.health',
          transform: {
            exclude: [{ jsonpath: '$.noise' }],
            mask: [{ jsonpath: '$.secret', value: '***' }],
            script: {
              javascript: `({
                config: config,
                analysis: config.version > 1 ? [{ analyzer: 'version-check', analysis_type: 'security', severity: 'high', message: 'version ' + config.version }] : [],
                changes: config.version > 2 ? [{ change_type: 'Upgraded', external_change_id: 'up-' + config.version, summary: 'upgraded' }] : [],
                locations: config.uses ? ['loc/' + config.uses] : []
              })`,
            },
            relationship: [
              {
                filter: "config.kind == 'Service'",
                external_id: { expr: 'config.uses' },
                type: { value: 'Test::Database' },
              },
            ],
            changes: {
              exclude: ["change_type == 'diff' && summary == 'health'"],
              mapping: [{ filter: "change_type == 'Upgraded'", type: 'VersionUpgraded' }],
            },
          },
        },
      ],
    });
    await runScrape(db.pool, scraper, { baseDir: dir });
    const items = await itemsOf(scraper);
    expect(items.get('db')!.config).toEqual({
      id: 'db',
      kind: 'Database',
      secret: '***',
      version: 1,
      health: 'healthy',
    });
    const edges = await db.pool.query('SELECT config_id, related_id, relation FROM config_relationships');
    expect(edges.rows).toEqual([
      { config_id: items.get('web')!.id, related_id: items.get('db')!.id, relation: 'soft' },
    ]);

    // db becomes unhealthy, gets an insight and an upgrade change.
    await db.pool.query('DELETE FROM event_queue');
    await write(3, 'unhealthy');
    const outcome = await runScrape(db.pool, scraper, { baseDir: dir });
    expect(outcome.summary).toMatchObject({ updated: 1, changes: 2, analysis: 1 });
    const changes = await changesOf(scraper);
    expect(changes.map((change) => change.change_type).sort()).toEqual(['VersionUpgraded', 'diff']);
    const analysis = await db.pool.query(
      'SELECT analyzer, analysis_type, severity, message, status FROM config_analysis',
    );
    expect(analysis.rows).toEqual([
      {
        analyzer: 'version-check',
        analysis_type: 'security',
        severity: 'high',
        message: 'version 3',
        status: 'open',
      },
    ]);
    const events = await db.pool.query<{ name: string; properties: Record<string, unknown> }>(
      'SELECT name, properties FROM event_queue ORDER BY name',
    );
    expect(events.rows).toEqual([
      {
        name: 'config.unhealthy',
        properties: { id: items.get('db')!.id, health: 'unhealthy', previous_health: 'healthy' },
      },
      { name: 'config.updated', properties: { id: items.get('db')!.id } },
    ]);
    // The reported change is upserted by its external id, not repeated.
    await runScrape(db.pool, scraper, { baseDir: dir });
    expect(await changesOf(scraper)).toHaveLength(2);

    const parents = await db.pool.query('SELECT id, name, type FROM get_parents_by_location($1)', [
      items.get('web')!.id,
    ]);
    expect(parents.rows).toEqual([]);
    await db.pool.query(`UPDATE config_items SET external_id = external_id || 'loc/db'::text WHERE id = $1`, [
      items.get('db')!.id,
    ]);
    const found = await db.pool.query('SELECT id, name, type FROM get_parents_by_location($1)', [
      items.get('web')!.id,
    ]);
    expect(found.rows).toEqual([{ id: items.get('db')!.id, name: 'db', type: 'Test::Database' }]);
  });

  it('trims changes by count and age, and removes items deleted longer than deletedAge', async () => {
    const data = path.join(dir, 'retention.json');
    const scraper = await createScraper({
      file: [{ paths: ['retention.json'], items: '$[*]', id: '$.id', type: 'Test::Kept' }],
      retention: { changes: [{ name: 'diff', count: 2 }], types: [{ name: 'Test::Kept', deletedAge: '1h' }] },
    });
    for (let version = 1; version <= 5; version += 1) {
      await fs.writeFile(
        data,
        JSON.stringify([
          { id: 'a', version },
          { id: 'b', version: 1 },
        ]),
      );
      await runScrape(db.pool, scraper, { baseDir: dir });
    }
    const kept = await changesOf(scraper);
    expect(kept.map((change) => (change.patches as Array<{ value: number }>)[0].value)).toEqual([4, 5]);

    await db.pool.query(`UPDATE config_changes SET created_at = now() - interval '10 days'`);
    await db.pool.query(
      `UPDATE config_scrapers SET spec = jsonb_set(spec, '{retention,changes}', '[{"name":"diff","age":"7d"}]') WHERE id = $1`,
      [scraper.id],
    );
    const updated = {
      ...scraper,
      spec: (await db.pool.query('SELECT spec FROM config_scrapers WHERE id = $1', [scraper.id])).rows[0]
        .spec,
    };
    await fs.writeFile(data, JSON.stringify([{ id: 'a', version: 5 }]));
    const outcome = await runScrape(db.pool, updated, { baseDir: dir });
    expect(outcome.summary.retention.changes_deleted).toBe(2);
    expect(outcome.summary.deleted).toBe(1);
    expect(await changesOf(scraper)).toHaveLength(0);

    await db.pool.query(
      `UPDATE config_items SET deleted_at = now() - interval '2 hours' WHERE scraper_id = $1 AND deleted_at IS NOT NULL`,
      [scraper.id],
    );
    const purge = await runScrape(db.pool, updated, { baseDir: dir });
    expect(purge.summary.retention.items_removed).toBe(1);
    expect([...(await itemsOf(scraper)).keys()]).toEqual(['a']);
  });

  it('fails a spec naming an unsupported type without touching anything', async () => {
    const scraper = await createScraper({
      kubernetes: [{ clusterName: 'x' }],
      file: [{ paths: ['x'], type: 'T' }],
    });
    await expect(runScrape(db.pool, scraper)).rejects.toThrow('kubernetes: scraper type not supported yet');
  });
});
