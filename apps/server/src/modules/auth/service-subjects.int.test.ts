import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createCheck } from '../../../test/harness/factories.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import type { ModuleWorkers } from '../../server-module.js';
import { startHttpPeer } from '../notifications/test-fixtures/http-peer.js';
import { startPlaybookRunForNotification } from '../playbooks/index.js';
import { startPlaybookWorkers } from '../playbooks/workers.js';
import { PLAYBOOK_CONNECTION_PERMISSION_PROPERTY } from './service-subjects.js';
import { createTestPerson, TestBrowser } from './test-fixtures/auth-test-app.js';

/**
 * The permission editor's Notification and Playbook subject tabs (spec settings §2.2, §3, §4):
 * rules saved through the page's own calls (POST /api/db/permissions as an admin's browser, the
 * list from /api/db/permissions_summary) change what that notification or playbook may do. A
 * notification needs playbook:run to start its playbook recipient; a playbook's actions may open
 * a connection only as its permissions say (a Deny wins; with the property of ADR 0038 a grant is
 * needed). The playbook runs through POST /api/playbook/run and the real playbook workers, and
 * its http action calls a real local HTTP server.
 */

let full: FullApp;
let admin: TestBrowser;
let workers: ModuleWorkers;
let peer: Awaited<ReturnType<typeof startHttpPeer>>;

beforeAll(async () => {
  full = await startFullApp('Subject Tabs Admin');
  peer = await startHttpPeer();
  const person = await createTestPerson(full.db.pool, { roles: ['admin'] });
  admin = new TestBrowser(full.app);
  expect((await admin.signIn(person.email, person.password)).statusCode).toBe(200);
  workers = await startPlaybookWorkers({
    pool: full.db.pool,
    jobs: full.jobs,
    logger: createLogger('silent'),
    metrics: undefined as never,
    cancelPollMs: 100,
    schedulePollMs: 60_000,
    // startFullApp's key: the connection's URL is sealed with it.
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
  });
  await full.jobs.start();
}, 60_000);

afterAll(async () => {
  await full?.jobs.stop({ graceMs: 1000 });
  await workers?.stop();
  await peer?.close();
  await full?.close();
});

beforeEach(async () => {
  await full.db.pool.query(`DELETE FROM permissions WHERE subject_type IN ('notification', 'playbook')`);
  await full.db.pool.query(`DELETE FROM properties WHERE name = $1`, [
    PLAYBOOK_CONNECTION_PERMISSION_PROPERTY,
  ]);
});

/** A row through the data API as the admin's browser, as the page saves it. */
async function create(relation: string, row: Record<string, unknown>): Promise<string> {
  const response = await admin.request({
    method: 'POST',
    url: `/api/db/${relation}`,
    headers: { Prefer: 'return=representation' },
    payload: row,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!.id;
}

/** The Add Permission modal's row for a subject tab and a resource tab (permission-form.ts). */
function permissionRow(
  subject: Record<string, unknown>,
  target: Record<string, unknown>,
  action: string,
  deny = false,
) {
  return {
    team_id: null,
    person_id: null,
    notification_id: null,
    object: null,
    config_id: null,
    component_id: null,
    connection_id: null,
    playbook_id: null,
    ...subject,
    ...target,
    action,
    deny,
    tags: null,
    agents: null,
    description: null,
  };
}

const stamp = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe('Notification subject × Playbook resource', () => {
  it('is listed with the notification’s name, and playbook:run on it is what lets the notification start the playbook', async () => {
    const name = `restart-${stamp()}`;
    const playbookId = await create('playbooks', {
      name,
      namespace: 'default',
      spec: { checks: [{ types: ['http'] }], actions: [{ name: 'say', exec: { script: 'echo hi' } }] },
      source: 'UI',
    });
    const ruleName = `page-${stamp()}`;
    const notificationId = await create('notifications', {
      name: ruleName,
      namespace: 'default',
      title: 'Check failed',
      events: ['check.failed'],
      spec: { events: ['check.failed'], to: { playbook: `default/${name}` } },
      source: 'UI',
    });
    const check = await createCheck(full.db.pool, { name: `orders-${stamp()}` });
    const request = {
      notificationId,
      notificationName: `default/${ruleName}`,
      playbook: `default/${name}`,
      resourceType: 'check',
      resourceId: check.id,
      eventName: 'check.failed',
      eventId: crypto.randomUUID(),
    };

    expect(await startPlaybookRunForNotification(full.db.pool, request)).toEqual({
      refused: `the notification has no playbook:run permission on playbook default/${name}`,
    });

    const id = await create(
      'permissions',
      permissionRow(
        { subject_type: 'notification', subject: notificationId, notification_id: notificationId },
        { playbook_id: playbookId },
        'playbook:run',
      ),
    );
    const listed = await admin.get(`/api/db/permissions_summary?id=eq.${id}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        subject_type: 'notification',
        notification_id: notificationId,
        subject_name: ruleName,
        playbook_id: playbookId,
        action: 'playbook:run',
      }),
    ]);

    const started = await startPlaybookRunForNotification(full.db.pool, {
      ...request,
      eventId: crypto.randomUUID(),
    });
    expect(started).toEqual({ runId: expect.any(String) });

    // A Deny on the same subject wins over the grant.
    await create(
      'permissions',
      permissionRow(
        { subject_type: 'notification', subject: notificationId, notification_id: notificationId },
        { object: 'playbooks' },
        'playbook:*',
        true,
      ),
    );
    expect(
      await startPlaybookRunForNotification(full.db.pool, { ...request, eventId: crypto.randomUUID() }),
    ).toEqual({
      refused: expect.stringMatching(/no playbook:run permission/),
    });
  });
});

describe('Playbook subject × Connection resource', () => {
  async function setup() {
    const connectionName = `hook-${stamp()}`;
    const connectionId = await create('connections', {
      name: connectionName,
      namespace: 'default',
      type: 'http',
      url: `${peer.origin}/called-by-${connectionName}`,
    });
    const name = `call-${stamp()}`;
    const playbookId = await create('playbooks', {
      name,
      namespace: 'default',
      spec: { actions: [{ name: 'call', http: { connection: `connection://default/${connectionName}` } }] },
      source: 'UI',
    });
    return { connectionName, connectionId, playbookId, path: `/called-by-${connectionName}` };
  }

  async function run(playbookId: string) {
    const response = await admin.post('/api/playbook/run', { id: playbookId, params: {} });
    expect(response.statusCode, response.body).toBe(201);
    const runId = response.json<{ run_id: string }>().run_id;
    return waitFor(
      async () => {
        const { rows } = await full.db.pool.query<{ status: string; error: string | null }>(
          `SELECT r.status, a.error FROM playbook_runs r
             LEFT JOIN playbook_run_actions a ON a.playbook_run_id = r.id
            WHERE r.id = $1`,
          [runId],
        );
        return rows[0] && ['completed', 'failed'].includes(rows[0].status) ? rows[0] : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'the run to finish' },
    );
  }

  it('a Deny made on the page stops the playbook reading the connection; deleting it lets the call through', async () => {
    const { connectionId, connectionName, playbookId, path } = await setup();
    const denyId = await create(
      'permissions',
      permissionRow(
        { subject_type: 'playbook', subject: playbookId },
        { connection_id: connectionId },
        'read',
        true,
      ),
    );
    const [row] = (await admin.get(`/api/db/permissions_summary?id=eq.${denyId}`)).json<
      Record<string, unknown>[]
    >();
    expect(row).toMatchObject({ subject_type: 'playbook', connection_id: connectionId, deny: true });
    expect(row!.subject_name).toMatch(/^call-/);

    expect(await run(playbookId)).toEqual({
      status: 'failed',
      error: `a permission denies this playbook reading connection default/${connectionName}`,
    });
    expect(peer.requests.filter((request) => request.path === path)).toEqual([]);

    const removed = await admin.request({ method: 'DELETE', url: `/api/db/permissions?id=eq.${denyId}` });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await run(playbookId)).toEqual({ status: 'completed', error: null });
    expect(peer.requests.filter((request) => request.path === path)).toHaveLength(1);
  });

  it('when grants are required, only the playbook given read on the connection reaches it', async () => {
    await full.db.pool.query(`INSERT INTO properties (name, value) VALUES ($1, 'true')`, [
      PLAYBOOK_CONNECTION_PERMISSION_PROPERTY,
    ]);
    const { connectionId, connectionName, playbookId, path } = await setup();
    expect(await run(playbookId)).toEqual({
      status: 'failed',
      error: `the playbook has no read permission on connection default/${connectionName}`,
    });
    await create(
      'permissions',
      permissionRow(
        { subject_type: 'playbook', subject: playbookId },
        { connection_id: connectionId },
        'read',
      ),
    );
    expect(await run(playbookId)).toEqual({ status: 'completed', error: null });
    expect(peer.requests.filter((request) => request.path === path)).toHaveLength(1);

    // A grant to another playbook, or on the Global kind of another resource, gives this one nothing.
    const other = await setup();
    await create(
      'permissions',
      permissionRow(
        { subject_type: 'playbook', subject: playbookId },
        { connection_id: other.connectionId },
        'read',
      ),
    );
    await create(
      'permissions',
      permissionRow({ subject_type: 'playbook', subject: other.playbookId }, { object: 'catalog' }, 'read'),
    );
    expect((await run(other.playbookId)).status).toBe('failed');
    // The Global object `connection` grants every connection.
    await create(
      'permissions',
      permissionRow(
        { subject_type: 'playbook', subject: other.playbookId },
        { object: 'connection' },
        'read',
      ),
    );
    expect(await run(other.playbookId)).toEqual({ status: 'completed', error: null });
  });

  it('a Permission resource naming the playbook by namespace/name with a connections selector decides too', async () => {
    await full.db.pool.query(`INSERT INTO properties (name, value) VALUES ($1, 'true')`, [
      PLAYBOOK_CONNECTION_PERMISSION_PROPERTY,
    ]);
    const { connectionName, playbookId } = await setup();
    const { rows } = await full.db.pool.query<{ name: string }>(`SELECT name FROM playbooks WHERE id = $1`, [
      playbookId,
    ]);
    await full.db.pool.query(
      `INSERT INTO permissions (subject_type, subject, action, object_selector, source)
       VALUES ('playbook', $1, 'read', $2, 'KubernetesCRD')`,
      [`default/${rows[0]!.name}`, JSON.stringify({ connections: [{ name: connectionName }] })],
    );
    expect(await run(playbookId)).toEqual({ status: 'completed', error: null });
  });
});
