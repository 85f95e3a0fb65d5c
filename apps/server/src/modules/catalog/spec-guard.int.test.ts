import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCommand } from '../resources/index.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';

/**
 * A ScrapeConfig's JSONPaths and expressions are checked however the spec arrives: the data API
 * (POST/PATCH/PUT /api/db/config_scrapers, as app.ts wires it) and `opsdeck apply`, as well as
 * the editor's routes (routes.int.test.ts).
 */
const GOOD = {
  schedule: '@every 30m',
  file: [
    {
      type: 'Guard::File',
      id: '$.id',
      health: { expr: "config.ok ? 'healthy' : 'unhealthy'" },
      paths: ['x.json'],
    },
  ],
};

const BAD: [unknown, string, RegExp][] = [
  [
    { file: [{ type: 'T', id: '$.id', items: '$.items[', paths: ['a'] }] },
    'spec.file[0].items',
    /invalid JSONPath/,
  ],
  [
    { file: [{ type: 'T', id: '$.id', health: { expr: 'config.ok ?' }, paths: ['a'] }] },
    'spec.file[0].health.expr',
    /invalid CEL/,
  ],
  [
    {
      http: [
        {
          type: 'T',
          id: '$.id',
          url: 'http://127.0.0.1:1',
          transform: { script: { javascript: 'return {' } },
        },
      ],
    },
    'spec.http[0].transform.script.javascript',
    /invalid JavaScript/,
  ],
  [{ schedule: 'now and then', file: [{ type: 'T', id: '$.id', paths: ['a'] }] }, 'spec.schedule', /./],
];

let full: FullApp;
let db: FullApp['db'];
let send: FullApp['send'];

beforeAll(async () => {
  full = await startFullApp('Guard admin');
  ({ db, send } = full);
});

afterAll(async () => {
  await full?.close();
});

describe('the data API on config_scrapers', () => {
  it('refuses an invalid JSONPath or expression with the field path on insert and update, keeping the row', async () => {
    const created = await send('POST', '/api/db/config_scrapers', { name: 'guarded', spec: GOOD });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();

    for (const [spec, field, message] of BAD) {
      const patch = await send('PATCH', `/api/db/config_scrapers?id=eq.${id}`, { spec });
      expect(patch.statusCode, patch.body).toBe(400);
      const body = patch.json<{ code: string; message: string; details: string }>();
      expect(body.code).toBe('23514');
      expect(body.details).toBe(`field: ${field}`);
      expect(body.message.startsWith(`${field}: `)).toBe(true);
      expect(body.message).toMatch(message);

      const insert = await send('POST', '/api/db/config_scrapers', [
        { name: 'fine', spec: GOOD },
        { name: 'refused', spec },
      ]);
      expect(insert.statusCode, insert.body).toBe(400);
      expect(insert.json<{ details: string }>().details).toBe(`field: ${field}`);
    }
    const put = await send('PUT', `/api/db/config_scrapers?id=eq.${id}`, {
      id,
      name: 'guarded',
      spec: BAD[0][0],
    });
    expect(put.statusCode, put.body).toBe(400);

    const notAMapping = await send('PATCH', `/api/db/config_scrapers?id=eq.${id}`, { spec: ['file'] });
    expect(notAMapping.statusCode).toBe(400);
    expect(notAMapping.json<{ details: string }>().details).toBe('field: spec');

    const stored = await db.pool.query(`SELECT name, spec FROM config_scrapers ORDER BY name`);
    expect(stored.rows).toEqual([{ name: 'guarded', spec: GOOD }]);

    // Writes that leave the spec alone, and valid specs, go through.
    const labels = await send('PATCH', `/api/db/config_scrapers?id=eq.${id}`, { labels: { team: 'a' } });
    expect(labels.statusCode, labels.body).toBe(200);
    const edited = { ...GOOD, file: [{ ...GOOD.file[0], items: '$.rows[*]' }] };
    const valid = await send('PATCH', `/api/db/config_scrapers?id=eq.${id}`, { spec: edited });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json()).toMatchObject([{ spec: edited, labels: { team: 'a' } }]);
  });
});

describe('opsdeck apply', () => {
  it('refuses a ScrapeConfig whose JSONPath or expression does not parse, naming document and field', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-spec-guard-'));
    try {
      const file = path.join(dir, 'scrapers.yaml');
      await fs.writeFile(
        file,
        [
          'apiVersion: configs.flanksource.com/v1',
          'kind: ScrapeConfig',
          'metadata: {name: applied-good, namespace: guard}',
          'spec:',
          '  file: [{type: "Guard::File", id: "$.id", paths: ["a.json"]}]',
          '---',
          'apiVersion: configs.flanksource.com/v1',
          'kind: ScrapeConfig',
          'metadata: {name: applied-bad, namespace: guard}',
          'spec:',
          '  file:',
          '    - type: Guard::File',
          '      id: $.id',
          '      paths: [a.json]',
          '      transform:',
          '        exclude: [{jsonpath: "$.metadata[?(@.x ==)]"}]',
          '        changes: {mapping: [{filter: "change.type ==", type: X}]}',
          '',
        ].join('\n'),
      );
      let written = '';
      const code = await applyCommand(db.pool, [file], { write: (text: string) => (written += text) });
      expect(code).toBe(1);
      const lines = written.split('\n').filter(Boolean);
      expect(lines[0]).toBe('scrapeconfig/guard/applied-good created');
      expect(lines[1]).toMatch(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#2: spec\\.file\\[0\\]\\.transform\\.exclude\\[0\\]\\.jsonpath: invalid JSONPath`,
        ),
      );
      expect(lines[2]).toMatch(/#2: spec\.file\[0\]\.transform\.changes\.mapping\[0\]\.filter: invalid CEL/);
      const stored = await db.pool.query(`SELECT name FROM config_scrapers WHERE namespace = 'guard'`);
      expect(stored.rows).toEqual([{ name: 'applied-good' }]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
