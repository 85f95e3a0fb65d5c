/**
 * The views and functions of API.md §1 added by migration 0090, through HTTP with the real
 * authorizer: rows inserted with SQL come back with the columns the screens read, and row-scoped
 * callers see only their rows (and roll-ups of only their rows).
 */
import type { Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from '../modules/auth/test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;
let admin: Record<string, string>;
let adminId: string;

const TOPOLOGY = {
  shop: '70900000-0000-4000-8000-000000000001',
  empty: '70900000-0000-4000-8000-000000000002',
};
const COMPONENT = {
  web: 'c0900000-0000-4000-8000-000000000001',
  db: 'c0900000-0000-4000-8000-000000000002',
  cache: 'c0900000-0000-4000-8000-000000000003',
};
const CONFIG = {
  webPod: 'cf900000-0000-4000-8000-000000000001',
  dbPod: 'cf900000-0000-4000-8000-000000000002',
};
const TEAM = '7e900000-0000-4000-8000-000000000001';
const NOTIFICATION = '40900000-0000-4000-8000-000000000001';
const PLAYBOOK = 'b0900000-0000-4000-8000-000000000001';
const RUN = { parent: 'a0900000-0000-4000-8000-000000000001', child: 'a0900000-0000-4000-8000-000000000002' };
const SCRAPER = '5c900000-0000-4000-8000-000000000001';

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  const person = await createTestPerson(db.pool, { roles: ['admin'] });
  adminId = person.id;
  admin = bearer(await createTestToken(db.pool, person.id));
  await db.pool.query(`
    INSERT INTO topologies (id, name, labels) VALUES ('${TOPOLOGY.shop}', 'shop', '{"team":"a"}'),
                                                    ('${TOPOLOGY.empty}', 'empty', '{}');
    INSERT INTO components (id, topology_id, name, type, health, labels, log_selectors) VALUES
      ('${COMPONENT.web}', '${TOPOLOGY.shop}', 'web', 'service', 'healthy', '{"tier":"front","env":"prod"}',
       '[{"name":"web-logs","type":"loki"}]'),
      ('${COMPONENT.db}', '${TOPOLOGY.shop}', 'db', 'database', 'unhealthy', '{"tier":"data"}', NULL),
      ('${COMPONENT.cache}', '${TOPOLOGY.shop}', 'cache', 'cache', 'healthy', '{"tier":"data"}', '[]');
    INSERT INTO config_scrapers (id, name) VALUES ('${SCRAPER}', 'kubernetes');
    INSERT INTO config_items (id, name, type, config_class, scraper_id, tags) VALUES
      ('${CONFIG.webPod}', 'web-pod', 'Kubernetes::Pod', 'Pod', '${SCRAPER}', '{"env":"prod"}'),
      ('${CONFIG.dbPod}', 'db-pod', 'Kubernetes::Pod', 'Pod', NULL, '{"env":"staging"}');
    INSERT INTO config_component_relationships (component_id, config_id) VALUES
      ('${COMPONENT.web}', '${CONFIG.webPod}'), ('${COMPONENT.db}', '${CONFIG.dbPod}');
    INSERT INTO config_relationships (config_id, related_id, relation) VALUES ('${CONFIG.webPod}', '${CONFIG.dbPod}', 'uses');
    INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, summary) VALUES
      ('${CONFIG.webPod}', 'image-age', 'security', 'high', 'open', 'old image'),
      ('${CONFIG.dbPod}', 'disk', 'availability', 'medium', 'open', 'disk filling');
    INSERT INTO config_changes (config_id, change_type, severity, summary) VALUES
      ('${CONFIG.webPod}', 'diff', 'info', 'web changed'), ('${CONFIG.dbPod}', 'Restarted', 'high', 'db restarted');
    INSERT INTO teams (id, name, icon) VALUES ('${TEAM}', 'sre', 'group');
    INSERT INTO team_members (team_id, person_id) VALUES ('${TEAM}', '${person.id}');
    INSERT INTO team_components (team_id, component_id, role) VALUES ('${TEAM}', '${COMPONENT.web}', 'owner'),
                                                                    ('${TEAM}', '${COMPONENT.db}', 'owner');
    INSERT INTO playbooks (id, name, spec) VALUES ('${PLAYBOOK}', 'restart', '{}');
    INSERT INTO playbook_runs (id, playbook_id, status, config_id) VALUES
      ('${RUN.parent}', '${PLAYBOOK}', 'completed', '${CONFIG.webPod}');
    INSERT INTO playbook_runs (id, playbook_id, parent_id, status) VALUES ('${RUN.child}', '${PLAYBOOK}', '${RUN.parent}', 'completed');
    INSERT INTO playbook_run_actions (playbook_run_id, name, status, start_time) VALUES
      ('${RUN.parent}', 'drain', 'completed', now() - interval '3 minutes'),
      ('${RUN.child}', 'restart', 'completed', now() - interval '2 minutes'),
      ('${RUN.parent}', 'verify', 'completed', now() - interval '1 minute');
    INSERT INTO notifications (id, name, events, team_id, title) VALUES
      ('${NOTIFICATION}', 'pod-alerts', '{config.unhealthy}', '${TEAM}', 'Pod down');
    INSERT INTO notification_send_history (notification_id, status, resource_id, resource_type, duration_millis, body) VALUES
      ('${NOTIFICATION}', 'sent', '${CONFIG.webPod}', 'config', 100, 'secret body'),
      ('${NOTIFICATION}', 'sent', '${CONFIG.webPod}', 'config', 300, 'secret body'),
      ('${NOTIFICATION}', 'error', '${COMPONENT.db}', 'component', 50, 'secret body');
    INSERT INTO permissions (subject, subject_type, team_id, action, object, description, created_by) VALUES
      ('${TEAM}', 'team', '${TEAM}', 'read', 'catalog', 'sre reads the catalog', '${person.id}');
    INSERT INTO views (name, namespace, title, spec, sidebar) VALUES ('pods', 'default', 'Pods', '{"queries":{}}', true);
    INSERT INTO job_history (name, resource_id, resource_type, status, time_start) VALUES
      ('TopologyRun', '${TOPOLOGY.shop}', 'topology', 'FAILED', now() - interval '10 minutes'),
      ('TopologyRun', '${TOPOLOGY.shop}', 'topology', 'SUCCESS', now() - interval '5 minutes'),
      ('ConfigScraper', '${SCRAPER}', 'config_scraper', 'SUCCESS', now() - interval '1 minute');
  `);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

interface Answer {
  status: number;
  body: unknown;
  contentRange: string | undefined;
}

async function get(headers: Record<string, string>, url: string): Promise<Answer> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/db${url}`,
    headers: { ...headers, prefer: 'count=exact' },
  });
  return {
    status: response.statusCode,
    body: response.body === '' ? null : response.json(),
    contentRange: response.headers['content-range'] as string | undefined,
  };
}

async function rows(headers: Record<string, string>, url: string): Promise<Array<Record<string, unknown>>> {
  const answer = await get(headers, url);
  expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
  const list = answer.body as Array<Record<string, unknown>>;
  expect(answer.contentRange, url).toBe(list.length === 0 ? '*/0' : `0-${list.length - 1}/${list.length}`);
  return list;
}

async function personWith(
  roles: Role[],
  grants: Array<{
    action: string;
    deny?: boolean;
    object?: string;
    componentId?: string;
    configId?: string;
    objectSelector?: unknown;
  }>,
): Promise<Record<string, string>> {
  const person = await createTestPerson(db.pool, { roles });
  for (const grant of grants) {
    await db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object, component_id, config_id, object_selector)
       VALUES ($1::text, 'person', $1::uuid, $2, $3, $4, $5, $6, $7)`,
      [
        person.id,
        grant.action,
        grant.deny ?? false,
        grant.object ?? null,
        grant.componentId ?? null,
        grant.configId ?? null,
        grant.objectSelector ? JSON.stringify(grant.objectSelector) : null,
      ],
    );
  }
  return bearer(await createTestToken(db.pool, person.id));
}

describe('topology views', () => {
  it('topologies_with_status: component health roll-up, status and last job', async () => {
    const list = await rows(
      admin,
      '/topologies_with_status?select=name,summary,components,status,job_status&order=name',
    );
    expect(list).toEqual([
      {
        name: 'empty',
        summary: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 },
        components: 0,
        status: 'unknown',
        job_status: null,
      },
      {
        name: 'shop',
        summary: { healthy: 2, unhealthy: 1, warning: 0, unknown: 0 },
        components: 3,
        status: 'unhealthy',
        job_status: 'SUCCESS',
      },
    ]);
  });

  it('topologies_with_status counts only the components the caller sees', async () => {
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, componentId: COMPONENT.db }]);
    const list = await rows(
      viewer,
      `/topologies_with_status?select=name,summary,status&id=eq.${TOPOLOGY.shop}`,
    );
    expect(list).toEqual([
      { name: 'shop', summary: { healthy: 2, unhealthy: 0, warning: 0, unknown: 0 }, status: 'healthy' },
    ]);
  });

  it('component_labels and component_labels_keys list each pair and key once', async () => {
    expect(await rows(admin, '/component_labels?select=key,value&order=key,value')).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'tier', value: 'data' },
      { key: 'tier', value: 'front' },
    ]);
    expect(await rows(admin, '/component_labels_keys?order=key')).toEqual([{ key: 'env' }, { key: 'tier' }]);
  });

  it('components_with_logs: only components with log selectors', async () => {
    expect(await rows(admin, '/components_with_logs?select=id,name,log_selectors')).toEqual([
      { id: COMPONENT.web, name: 'web', log_selectors: [{ name: 'web-logs', type: 'loki' }] },
    ]);
  });

  it('analysis_by_component and changes_by_component by component, scoped by the component', async () => {
    expect(
      await rows(
        admin,
        `/analysis_by_component?component_id=eq.${COMPONENT.web}&select=name,analysis_type,severity`,
      ),
    ).toEqual([{ name: 'web-pod', analysis_type: 'security', severity: 'high' }]);
    expect(
      await rows(
        admin,
        `/changes_by_component?component_id=eq.${COMPONENT.db}&select=name,config_type,change_type`,
      ),
    ).toEqual([{ name: 'db-pod', config_type: 'Kubernetes::Pod', change_type: 'Restarted' }]);
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, componentId: COMPONENT.db }]);
    expect(
      (await rows(viewer, '/analysis_by_component?select=component_id')).map((r) => r.component_id),
    ).toEqual([COMPONENT.web]);
    expect(
      (await rows(viewer, '/changes_by_component?select=component_id')).map((r) => r.component_id),
    ).toEqual([COMPONENT.web]);
  });

  it('rpc/lookup_analysis_by_component returns config_analysis rows, scoped like config_analysis', async () => {
    const answer = await get(
      admin,
      `/rpc/lookup_analysis_by_component?id=${COMPONENT.web}&select=config_id,summary`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual([{ config_id: CONFIG.webPod, summary: 'old image' }]);
    const deniedWeb = await personWith(['viewer'], [{ action: 'read', deny: true, configId: CONFIG.webPod }]);
    const hidden = await get(deniedWeb, `/rpc/lookup_analysis_by_component?id=${COMPONENT.web}`);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual([]);
  });
});

describe('catalog, people and settings views', () => {
  it('config_detail: the item with its scraper and tab counts; a config-limited caller sees only its item', async () => {
    const list = await rows(admin, `/config_detail?id=eq.${CONFIG.webPod}&select=name,scraper,summary`);
    expect(list).toEqual([
      {
        name: 'web-pod',
        scraper: { id: SCRAPER, name: 'kubernetes' },
        summary: { relationships: 1, analysis: 1, changes: 1, playbook_runs: 1, checks: 0 },
      },
    ]);
    const limited = await personWith([], [{ action: 'read', object: 'catalog', configId: CONFIG.dbPod }]);
    // Only its own item; the edge to web-pod (hidden) is not counted; no health or playbook access: 0, not 403.
    expect(await rows(limited, '/config_detail?select=name,summary,scraper')).toEqual([
      {
        name: 'db-pod',
        summary: { relationships: 0, analysis: 1, changes: 1, playbook_runs: 0, checks: 0 },
        scraper: null,
      },
    ]);
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, configId: CONFIG.dbPod }]);
    expect(await rows(viewer, `/config_detail?id=eq.${CONFIG.webPod}&select=summary`)).toEqual([
      { summary: { relationships: 0, analysis: 1, changes: 1, playbook_runs: 1, checks: 0 } },
    ]);
  });

  it('teams_with_status: members and owned components’ health', async () => {
    expect(await rows(admin, '/teams_with_status?select=name,members,components,status')).toEqual([
      {
        name: 'sre',
        members: 1,
        components: { healthy: 1, unhealthy: 1, warning: 0, unknown: 0 },
        status: 'unhealthy',
      },
    ]);
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, componentId: COMPONENT.db }]);
    expect(await rows(viewer, '/teams_with_status?select=components,status')).toEqual([
      { components: { healthy: 1, unhealthy: 0, warning: 0, unknown: 0 }, status: 'healthy' },
    ]);
  });

  it('permissions_summary names the subject and the author', async () => {
    const list = await rows(
      admin,
      `/permissions_summary?select=action,object,subject_name,team,created_by_person&team_id=eq.${TEAM}`,
    );
    expect(list).toEqual([
      {
        action: 'read',
        object: 'catalog',
        subject_name: 'sre',
        team: { id: TEAM, name: 'sre', icon: 'group' },
        created_by_person: expect.objectContaining({ id: adminId }),
      },
    ]);
    // A playbook as the subject and a playbook as the target: one row each, named apart.
    await db.pool.query(
      `INSERT INTO permissions (subject, subject_type, action, playbook_id, description) VALUES
         ($1::text, 'playbook', 'read', NULL, 'playbook subject'), ($2::text, 'team', 'playbook:run', $1::uuid, 'run it')`,
      [PLAYBOOK, TEAM],
    );
    const playbookRows = await rows(
      admin,
      '/permissions_summary?select=description,subject_name,playbook&description=in.(playbook subject,run it)&order=description',
    );
    expect(playbookRows).toEqual([
      { description: 'playbook subject', subject_name: 'restart', playbook: null },
      {
        description: 'run it',
        // A team named by id in `subject` alone is resolved to its name (0190).
        subject_name: 'sre',
        playbook: { id: PLAYBOOK, name: 'restart', namespace: 'default' },
      },
    ]);
  });

  it('notifications_summary and notification_send_history_summary', async () => {
    expect(
      await rows(
        admin,
        '/notifications_summary?select=name,team,sent,failed,total,avg_duration_ms,last_sent_at',
      ),
    ).toEqual([
      {
        name: 'pod-alerts',
        team: { id: TEAM, name: 'sre', icon: 'group' },
        sent: 2,
        failed: 1,
        total: 3,
        avg_duration_ms: 150,
        last_sent_at: expect.any(String),
      },
    ]);
    const history = await rows(admin, '/notification_send_history_summary?select=*&order=status,created_at');
    expect(
      history.map((h) => [
        h.status,
        (h.resource as { name: string }).name,
        (h.notification as { name: string }).name,
      ]),
    ).toEqual([
      ['error', 'db', 'pod-alerts'],
      ['sent', 'web-pod', 'pod-alerts'],
      ['sent', 'web-pod', 'pod-alerts'],
    ]);
    expect(JSON.stringify(history)).not.toContain('secret body');
  });

  it('agents_summary counts what each agent reports', async () => {
    const list = await rows(
      admin,
      `/agents_summary?id=eq.00000000-0000-0000-0000-000000000000&select=config_count,config_scrapers_count,playbook_runs_count`,
    );
    expect(list).toEqual([{ config_count: 2, config_scrapers_count: 1, playbook_runs_count: 2 }]);
  });

  it('integrations_with_status: scrapers and topologies with their last job', async () => {
    expect(
      await rows(
        admin,
        '/integrations_with_status?select=name,integration_type,job_status&order=integration_type,name',
      ),
    ).toEqual([
      { name: 'kubernetes', integration_type: 'scrapers', job_status: 'SUCCESS' },
      { name: 'empty', integration_type: 'topologies', job_status: null },
      { name: 'shop', integration_type: 'topologies', job_status: 'SUCCESS' },
    ]);
    const shop = await rows(admin, `/integrations_with_status?id=eq.${TOPOLOGY.shop}&select=job_last_failed`);
    expect(shop[0].job_last_failed).toEqual(expect.any(String));
  });

  it('views_summary lists views without their specs', async () => {
    const list = await rows(admin, '/views_summary?select=*');
    expect(list).toEqual([expect.objectContaining({ name: 'pods', title: 'Pods', sidebar: true })]);
    expect(list[0]).not.toHaveProperty('spec');
  });

  it('rpc/get_playbook_run_actions: the run’s and its child runs’ actions in order; filters apply', async () => {
    const answer = await get(admin, `/rpc/get_playbook_run_actions?run_id=${RUN.parent}&select=name`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual([{ name: 'drain' }, { name: 'restart' }, { name: 'verify' }]);
    const filtered = await get(
      admin,
      `/rpc/get_playbook_run_actions?run_id=${RUN.parent}&playbook_run_id=eq.${RUN.child}&select=name`,
    );
    expect(filtered.body).toEqual([{ name: 'restart' }]);
    const post = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/rpc/get_playbook_run_actions',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ run_id: RUN.child }),
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json()).toEqual([expect.objectContaining({ name: 'restart', playbook_run_id: RUN.child })]);
  });
});
