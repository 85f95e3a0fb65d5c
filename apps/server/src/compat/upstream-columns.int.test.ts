/**
 * Issue 21's conformance test: every column the ecosystem's clients select on the relations of
 * API.md §1 (the checked-in list in upstream-columns.ts, written from the upstream schema) is
 * answered by the data API with 200, and every upstream column Opsdeck leaves out is explained
 * in docs/upstream-schema-audit.md. Then the columns issue 21 added, with rows: configs' change
 * counts and open analyses, the newest job on canaries_with_status (also for a row-scoped
 * reader, whose rows come from the health module's read source), config_scrapers_with_status
 * and integrations_with_status, and playbooks' icon and category following the spec.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { relationRowSchemas } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { PROJECT_ROOT } from '../platform/config.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from '../modules/auth/test-fixtures/auth-test-app.js';
import { dataApiAllowlistInput } from '../modules.js';
import { LEFT_OUT, UPSTREAM_COLUMNS } from './upstream-columns.js';

let db: TestDatabase;
let testApp: TestApp;
let admin: Record<string, string>;
let adminId: string;

const CONFIG = { pod: 'cf260000-0000-4000-8000-000000000001', bare: 'cf260000-0000-4000-8000-000000000002' };
const CANARY = { run: 'ca260000-0000-4000-8000-000000000001', never: 'ca260000-0000-4000-8000-000000000002' };
const SCRAPER = '5c260000-0000-4000-8000-000000000001';

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  const person = await createTestPerson(db.pool, { roles: ['admin'] });
  adminId = person.id;
  admin = bearer(await createTestToken(db.pool, person.id));
  await db.pool.query(
    `UPDATE people SET name = 'Ada Admin', title = 'SRE', avatar = 'ada.png' WHERE id = $1`,
    [adminId],
  );
  await db.pool.query(`
    INSERT INTO config_scrapers (id, name, created_by) VALUES ('${SCRAPER}', 'kubernetes', '${adminId}');
    INSERT INTO config_items (id, name, type, config_class) VALUES
      ('${CONFIG.pod}', 'web-pod', 'Kubernetes::Pod', 'Pod'),
      ('${CONFIG.bare}', 'quiet-pod', 'Kubernetes::Pod', 'Pod');
    INSERT INTO config_changes (config_id, change_type, severity) VALUES
      ('${CONFIG.pod}', 'diff', 'info'), ('${CONFIG.pod}', 'diff', 'info'),
      ('${CONFIG.pod}', 'diff', 'high'), ('${CONFIG.pod}', 'Restarted', 'high');
    INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status) VALUES
      ('${CONFIG.pod}', 'image-age', 'security', 'high', 'open'),
      ('${CONFIG.pod}', 'disk', 'availability', 'low', 'resolved');
    INSERT INTO canaries (id, name, spec) VALUES
      ('${CANARY.run}', 'http-run', '{"interval": 30, "http": [{"name": "home", "url": "http://127.0.0.1:1"}]}'),
      ('${CANARY.never}', 'never-run', '{"schedule": "@every 1m"}');
    INSERT INTO job_history (name, resource_id, resource_type, status, time_start, time_end, duration_millis,
                             success_count, error_count, details, hostname) VALUES
      ('Canary', '${CANARY.run}', 'canary', 'FAILED', now() - interval '2 hours', now() - interval '2 hours', 90,
       0, 1, '{"errors": ["refused"]}', 'host-a'),
      ('Canary', '${CANARY.run}', 'canary', 'FAILED', now() - interval '1 hour', now() - interval '1 hour', 80,
       0, 1, '{"errors": ["refused"]}', 'host-a'),
      ('Canary', '${CANARY.run}', 'canary', 'SUCCESS', now() - interval '1 minute', now(), 120, 1, 0, '{}', 'host-b'),
      ('ConfigScraper', '${SCRAPER}', 'config_scraper', 'FAILED', now() - interval '30 minutes', now() - interval '29 minutes',
       60000, 3, 1, '{"errors": ["timeout"]}', 'host-c'),
      ('ConfigScraper', '${SCRAPER}', 'config_scraper', 'SUCCESS', now() - interval '5 minutes', now() - interval '4 minutes',
       30000, 40, 0, '{}', 'host-c');
  `);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

async function send(
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await testApp.app.inject({
    method,
    url: `/api/db${url}`,
    headers: { ...headers, prefer: 'return=representation' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body === '' ? null : response.json() };
}

async function rows(headers: Record<string, string>, url: string): Promise<Array<Record<string, unknown>>> {
  const answer = await send(headers, 'GET', url);
  expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body as Array<Record<string, unknown>>;
}

describe('the upstream columns clients select', () => {
  const listed = Object.keys(UPSTREAM_COLUMNS);
  const exposed = new Set([
    ...Object.keys(dataApiAllowlistInput.tables ?? {}),
    ...Object.keys(dataApiAllowlistInput.views ?? {}),
  ]);

  it('names only relations the data API exposes (API.md §1), none twice, and leaves out no listed column', () => {
    expect(listed.filter((name) => !exposed.has(name))).toEqual([]);
    for (const [relation, columns] of Object.entries(UPSTREAM_COLUMNS)) {
      expect(new Set(columns).size, relation).toBe(columns.length);
      const leftOut = [...(LEFT_OUT[relation] ?? []), ...(LEFT_OUT['*'] ?? [])];
      expect(
        columns.filter((column) => leftOut.includes(column)),
        relation,
      ).toEqual([]);
    }
  });

  it.each(listed)('%s answers a select of every upstream column with 200', async (relation) => {
    const columns = UPSTREAM_COLUMNS[relation] as readonly string[];
    const answer = await send(admin, 'GET', `/${relation}?select=${columns.join(',')}&limit=5`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const row of answer.body as Array<Record<string, unknown>>)
      expect(Object.keys(row)).toEqual(columns);
  });

  it('explains every left-out column in docs/upstream-schema-audit.md', async () => {
    const audit = await fs.readFile(path.join(PROJECT_ROOT, 'docs/upstream-schema-audit.md'), 'utf8');
    for (const [relation, columns] of Object.entries(LEFT_OUT)) {
      for (const column of columns) {
        const named = relation === '*' ? `\`${column}\`` : `\`${relation}.${column}\``;
        expect(audit, named).toContain(named);
      }
    }
  });
});

describe('the columns issue 21 added', () => {
  it('configs carries change counts per type and severity and the open analyses, null when none', async () => {
    const list = await rows(
      admin,
      `/configs?select=id,name,changes,analysis&id=in.(${CONFIG.pod},${CONFIG.bare})&order=name`,
    );
    const parsed = list.map((row) =>
      relationRowSchemas.configs.pick({ id: true, name: true, changes: true, analysis: true }).parse(row),
    );
    expect(parsed).toEqual([
      { id: CONFIG.bare, name: 'quiet-pod', changes: null, analysis: null },
      {
        id: CONFIG.pod,
        name: 'web-pod',
        changes: [
          { change_type: 'Restarted', severity: 'high', total: 1 },
          { change_type: 'diff', severity: 'high', total: 1 },
          { change_type: 'diff', severity: 'info', total: 2 },
        ],
        analysis: [{ analyzer: 'image-age', analysis_type: 'security', severity: 'high' }],
      },
    ]);
  });

  it('configs rows parse with the contract when selected whole', async () => {
    for (const row of await rows(admin, '/configs?select=*')) relationRowSchemas.configs.parse(row);
  });

  async function canaryRows(headers: Record<string, string>): Promise<Array<Record<string, unknown>>> {
    const list = await rows(
      headers,
      `/canaries_with_status?select=*&id=in.(${CANARY.run},${CANARY.never})&order=name`,
    );
    return list.map((row) => relationRowSchemas.canaries_with_status.parse(row));
  }

  it('canaries_with_status carries the newest job, the newest failure, the interval and the agent', async () => {
    const [run, never] = await canaryRows(admin);
    expect(run).toMatchObject({
      id: CANARY.run,
      interval: '30',
      job_name: 'Canary',
      job_status: 'SUCCESS',
      job_success_count: 1,
      job_error_count: 0,
      job_hostname: 'host-b',
      job_duration_millis: 120,
      job_resource_type: 'canary',
      job_details: {},
      agent: { id: '00000000-0000-0000-0000-000000000000', name: expect.any(String) },
    });
    const times = await db.pool.query<{ newest_failure: Date; newest_start: Date }>(
      `SELECT max(time_start) FILTER (WHERE status = 'FAILED') AS newest_failure, max(time_start) AS newest_start
         FROM job_history WHERE resource_id = $1`,
      [CANARY.run],
    );
    expect(new Date(run!.job_last_failed as string)).toEqual(times.rows[0]!.newest_failure);
    expect(new Date(run!.job_time_start as string)).toEqual(times.rows[0]!.newest_start);
    expect(never).toMatchObject({
      id: CANARY.never,
      interval: null,
      job_name: null,
      job_status: null,
      job_time_start: null,
      job_last_failed: null,
    });
  });

  it('a row-scoped reader (the health module read source) gets the same job columns as the view', async () => {
    const viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
    const viewerHeaders = bearer(await createTestToken(db.pool, viewer.id));
    const fromView = await db.pool.query(
      `SELECT id, interval, job_name, job_status, job_time_start, job_last_failed, agent FROM canaries_with_status
        WHERE id = ANY($1) ORDER BY name`,
      [[CANARY.run, CANARY.never]],
    );
    const answered = (await canaryRows(viewerHeaders)).map((row) => ({
      id: row.id,
      interval: row.interval,
      job_name: row.job_name,
      job_status: row.job_status,
      job_time_start: row.job_time_start === null ? null : new Date(row.job_time_start as string),
      job_last_failed: row.job_last_failed === null ? null : new Date(row.job_last_failed as string),
      agent: row.agent,
    }));
    expect(answered).toEqual(fromView.rows);
  });

  it('config_scrapers_with_status and integrations_with_status carry every job column and the agent', async () => {
    const [scraper] = await rows(admin, `/config_scrapers_with_status?select=*&id=eq.${SCRAPER}`);
    expect(relationRowSchemas.config_scrapers_with_status.parse(scraper)).toMatchObject({
      job_name: 'ConfigScraper',
      job_status: 'SUCCESS',
      job_success_count: 40,
      job_hostname: 'host-c',
      job_duration_millis: 30000,
      job_resource_type: 'config_scraper',
      agent: { id: '00000000-0000-0000-0000-000000000000' },
    });
    expect(scraper!.job_last_failed).not.toBeNull();
    expect(new Date(scraper!.job_last_failed as string).getTime()).toBeLessThan(
      new Date(scraper!.job_time_start as string).getTime(),
    );
    const [integration] = await rows(admin, `/integrations_with_status?select=*&id=eq.${SCRAPER}`);
    expect(relationRowSchemas.integrations_with_status.parse(integration)).toMatchObject({
      integration_type: 'scrapers',
      job_name: 'ConfigScraper',
      job_status: 'SUCCESS',
      job_success_count: 40,
      job_error_count: 0,
      job_duration_millis: 30000,
      creator_name: 'Ada Admin',
      creator_title: 'SRE',
      creator_avatar: 'ada.png',
      creator_email: expect.stringContaining('@example.com'),
    });
    expect(integration!.job_last_failed).toBe(scraper!.job_last_failed);
  });

  it('playbooks.icon and playbooks.category follow the spec; a write that disagrees is a 400 naming the field', async () => {
    const created = await send(admin, 'POST', '/playbooks', {
      name: 'restart-pod',
      spec: {
        icon: 'kubernetes',
        category: 'Kubernetes',
        actions: [{ name: 'restart', exec: { script: 'true' } }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [row] = created.body as Array<Record<string, unknown>>;
    expect(relationRowSchemas.playbooks.parse(row)).toMatchObject({
      icon: 'kubernetes',
      category: 'Kubernetes',
    });
    const id = row!.id as string;

    const respec = await send(admin, 'PATCH', `/playbooks?id=eq.${id}`, {
      spec: { actions: [{ name: 'restart', exec: { script: 'true' } }] },
    });
    expect(respec.status, JSON.stringify(respec.body)).toBe(200);
    expect((respec.body as Array<Record<string, unknown>>)[0]).toMatchObject({ icon: null, category: '' });

    const iconOnly = await send(admin, 'PATCH', `/playbooks?id=eq.${id}`, { icon: 'aws' });
    expect(iconOnly.status).toBe(400);
    expect(iconOnly.body).toMatchObject({ code: 'P0001', details: 'field: icon' });
    expect((iconOnly.body as { message: string }).message).toContain('spec.icon');

    const disagreeing = await send(admin, 'POST', '/playbooks', {
      name: 'other',
      category: 'Databases',
      spec: { category: 'Kubernetes' },
    });
    expect(disagreeing.status).toBe(400);
    expect(disagreeing.body).toMatchObject({ code: 'P0001', details: 'field: category' });

    const agreeing = await send(admin, 'POST', '/playbooks', {
      name: 'agreeing',
      icon: 'postgres',
      category: 'Databases',
      spec: { icon: 'postgres', category: 'Databases' },
    });
    expect(agreeing.status, JSON.stringify(agreeing.body)).toBe(201);

    const names = await rows(admin, `/playbook_names?select=name,icon,category&name=eq.agreeing`);
    expect(names).toEqual([{ name: 'agreeing', icon: 'postgres', category: 'Databases' }]);
  });

  it('people.organization is written and read like the other person fields', async () => {
    const patched = await send(admin, 'PATCH', `/people?id=eq.${adminId}`, { organization: 'Acme' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const [person] = await rows(admin, `/people?select=*&id=eq.${adminId}`);
    expect(relationRowSchemas.people.parse(person).organization).toBe('Acme');
  });
});
