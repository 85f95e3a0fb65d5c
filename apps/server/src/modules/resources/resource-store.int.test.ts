import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { parseResourceDocuments } from './documents.js';
import { applyResources, deleteResource, listResources, toResourceManifest } from './resource-store.js';
import { resetResourceTables, testSecretBox } from './test-fixtures/helpers.js';

const CANARY = `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: web
  labels: {team: platform}
spec:
  schedule: "@every 5m"
  icon: http
  http:
    - name: home
      url: http://127.0.0.1:1/
      futureOption: {keep: [1, 2, {deep: true}]}
`;

describe('applyResources', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(() => resetResourceTables(db.pool));

  const apply = (text: string, source = 'files/canary.yaml', options: { force?: boolean } = {}) =>
    applyResources(db.pool, parseResourceDocuments(text, 'canary.yaml'), { source, ...options });

  it('creates, then reports unchanged, then updates when the spec or labels change', async () => {
    const [created] = await apply(CANARY);
    expect(created).toMatchObject({
      status: 'created',
      key: 'canary/default/web',
      origin: { file: 'canary.yaml', document: 1 },
    });
    const before = await db.pool.query('SELECT updated_at FROM canaries WHERE id = $1', [created.id]);

    const [unchanged] = await apply(CANARY);
    expect(unchanged).toMatchObject({ status: 'unchanged', id: created.id });
    const after = await db.pool.query('SELECT updated_at FROM canaries WHERE id = $1', [created.id]);
    expect(after.rows[0].updated_at).toEqual(before.rows[0].updated_at);

    const [updated] = await apply(CANARY.replace('@every 5m', '@every 1m'));
    expect(updated).toMatchObject({ status: 'updated', id: created.id });
    const [relabelled] = await apply(CANARY.replace('team: platform', 'team: web'));
    expect(relabelled.status).toBe('updated');

    const { rows } = await db.pool.query(
      'SELECT name, namespace, schedule, icon, labels, source, deleted_at FROM canaries',
    );
    expect(rows).toEqual([
      {
        name: 'web',
        namespace: 'default',
        schedule: '@every 5m',
        icon: 'http',
        labels: { team: 'web' },
        source: 'files/canary.yaml',
        deleted_at: null,
      },
    ]);
  });

  it('keeps unknown spec fields through a round trip', async () => {
    await apply(CANARY);
    const [stored] = await listResources(db.pool, 'canaries');
    const [original] = parseResourceDocuments(CANARY, 'canary.yaml');
    const written = original.content as { metadata: object; spec: object };
    expect(toResourceManifest(stored)).toEqual({
      ...written,
      metadata: { ...written.metadata, namespace: 'default' },
    });
    expect(stored.spec).toEqual(written.spec);
    expect(stored).toMatchObject({
      kind: 'Canary',
      apiVersion: 'canaries.flanksource.com/v1',
      source: 'files/canary.yaml',
    });
  });

  it('treats the deprecated interval as a schedule', async () => {
    await apply(CANARY.replace('schedule: "@every 5m"', 'interval: 90'));
    const { rows } = await db.pool.query('SELECT schedule FROM canaries');
    expect(rows[0].schedule).toBe('@every 90s');
  });

  it('reports invalid and unknown-kind documents and still applies the valid ones', async () => {
    const text = `${CANARY}---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: broken}
spec: {replicas: -2}
`;
    const results = await apply(text);
    expect(results.map((result) => result.status)).toEqual(['created', 'invalid', 'invalid']);
    expect(results[1].issues?.[0]).toMatchObject({ path: 'kind', document: 2 });
    expect(results[1].issues?.[0].message).toContain(
      'unknown resource kind "Widget" (apiVersion example.com/v1)',
    );
    expect(results[2]).toMatchObject({
      key: 'canary/default/broken',
      issues: [{ path: 'spec.replicas', document: 3 }],
    });
    expect((await listResources(db.pool, 'canary')).map((resource) => resource.name)).toEqual(['web']);
  });

  it('leaves a resource of another source alone unless forced', async () => {
    await db.pool.query(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('web', 'default', '{"schedule": "@daily"}')`,
    );
    const [conflict] = await apply(CANARY);
    expect(conflict).toMatchObject({ status: 'conflict', ownerSource: 'UI', key: 'canary/default/web' });
    const untouched = await db.pool.query('SELECT spec, source FROM canaries');
    expect(untouched.rows).toEqual([{ spec: { schedule: '@daily' }, source: 'UI' }]);

    const [forced] = await apply(CANARY, 'files/canary.yaml', { force: true });
    expect(forced.status).toBe('updated');
    const taken = await db.pool.query('SELECT source, schedule FROM canaries');
    expect(taken.rows).toEqual([{ source: 'files/canary.yaml', schedule: '@every 5m' }]);
    expect((await apply(CANARY, 'other/file.yaml'))[0].status).toBe('conflict');
  });

  it('soft-deletes, and a later apply creates a new row', async () => {
    const [created] = await apply(CANARY);
    expect(await deleteResource(db.pool, 'canary', 'default', 'web')).toBe(true);
    expect(await deleteResource(db.pool, 'canary', 'default', 'web')).toBe(false);
    expect(await listResources(db.pool, 'canaries')).toEqual([]);
    const [again] = await apply(CANARY);
    expect(again.status).toBe('created');
    expect(again.id).not.toBe(created.id);
    const { rows } = await db.pool.query(
      'SELECT count(*)::int AS n, count(deleted_at)::int AS deleted FROM canaries',
    );
    expect(rows[0]).toEqual({ n: 2, deleted: 1 });
  });

  it('stores every kind with the columns derived from its spec', async () => {
    const text = `
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: platform}
spec: {}
---
apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata: {name: services, namespace: prod}
spec: {schedule: "@hourly", icon: server, components: [{name: api}]}
---
apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata: {name: files}
spec:
  schedule: "@every 30m"
  retention: {changes: [{name: diff, count: 10}], staleItemAge: 7d}
  file: [{type: Config, paths: [demo/config.json]}]
---
apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: restart}
spec: {title: Restart, description: Restarts it, parameters: [{name: reason, type: text}], actions: [{name: run, exec: {script: echo hi}}]}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: failures}
spec: {events: [check.failed, check.passed], title: Down, to: {team: platform, properties: {a: b}}, repeatInterval: 4h, groupBy: [type]}
---
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: maintenance}
spec: {description: window, from: "2030-01-01T10:00:00Z", until: "2030-01-01T13:00:00+02:00", filter: "check.type == 'http'"}
---
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: critical}
spec: {priority: 1, breakOnMatch: true}
---
apiVersion: mission-control.flanksource.com/v1
kind: View
metadata: {name: pods}
spec: {display: {title: Pods, icon: k8s, sidebar: true, ordinal: 3}, columns: [{name: name, type: string}]}
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: sre-read}
spec: {subject: {group: sre}, actions: [read, update], object: canaries, description: SRE}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: hooks}
spec: {type: webhook, insecure_tls: true, properties: {method: POST}}
`;
    const results = await apply(text, 'all.yaml');
    expect(results.map((result) => `${result.key} ${result.status}`)).toEqual([
      'team/default/platform created',
      'topology/prod/services created',
      'scrapeconfig/default/files created',
      'playbook/default/restart created',
      'notification/default/failures created',
      'notificationsilence/default/maintenance created',
      'incidentrule/default/critical created',
      'view/default/pods created',
      'permission/default/sre-read created',
      'connection/default/hooks created',
    ]);
    expect((await apply(text, 'all.yaml')).every((result) => result.status === 'unchanged')).toBe(true);

    const one = async (sql: string) => (await db.pool.query(sql)).rows[0];
    expect(await one('SELECT icon FROM teams')).toEqual({ icon: 'group' });
    expect(await one('SELECT namespace, schedule, icon FROM topologies')).toEqual({
      namespace: 'prod',
      schedule: '@hourly',
      icon: 'server',
    });
    expect(await one('SELECT schedule FROM config_scrapers')).toEqual({ schedule: '@every 30m' });
    expect(await one('SELECT title, description FROM playbooks')).toEqual({
      title: 'Restart',
      description: 'Restarts it',
    });
    expect(
      await one('SELECT events, title, repeat_interval, group_by, properties FROM notifications'),
    ).toEqual({
      events: ['check.failed', 'check.passed'],
      title: 'Down',
      repeat_interval: '4h',
      group_by: ['type'],
      properties: { a: 'b' },
    });
    expect(await one('SELECT "from", until, recursive, filter FROM notification_silences')).toEqual({
      from: new Date('2030-01-01T10:00:00Z'),
      until: new Date('2030-01-01T11:00:00Z'),
      recursive: false,
      filter: "check.type == 'http'",
    });
    expect(await one('SELECT title, icon, sidebar, ordinal FROM views')).toEqual({
      title: 'Pods',
      icon: 'k8s',
      sidebar: true,
      ordinal: 3,
    });
    expect(
      await one('SELECT subject, subject_type, action, object, deny, description FROM permissions'),
    ).toEqual({
      subject: 'sre',
      subject_type: 'group',
      action: 'read,update',
      object: 'canaries',
      deny: false,
      description: 'SRE',
    });
    expect(await one('SELECT type, insecure_tls, properties, url FROM connections')).toEqual({
      type: 'webhook',
      insecure_tls: true,
      properties: { method: 'POST' },
      url: null,
    });
  });

  it('keeps a silence start it was not given across applies', async () => {
    const silence = `
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: now}
spec: {description: started when applied}
`;
    expect((await apply(silence))[0].status).toBe('created');
    const { rows } = await db.pool.query('SELECT "from" FROM notification_silences');
    expect(rows[0].from).toBeInstanceOf(Date);
    expect((await apply(silence))[0].status).toBe('unchanged');
  });

  it('reports a database refusal as failed without stopping the batch', async () => {
    // The window check is the database's: until must be later than the default start (now).
    const text = `
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: past}
spec: {until: "2001-01-01T00:00:00Z"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: after}
`;
    const [failed, created] = await apply(text);
    expect(failed).toMatchObject({ status: 'failed', key: 'notificationsilence/default/past' });
    expect(failed.message).toMatch(/notification_silences_window/);
    expect(created.status).toBe('created');
  });
});

describe('connection credentials', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(() => resetResourceTables(db.pool));

  const CONNECTION = `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: app-db}
spec:
  type: postgres
  url: postgres://app:s3cret-pw@db.internal/app
  username: {value: app}
  password: {valueFrom: {secretKeyRef: {name: app-db, key: password}}}
  properties: {sslmode: require}
`;

  it('stores inline credentials sealed, references as such, and compares them by opening', async () => {
    const secrets = testSecretBox();
    const apply = (text: string) =>
      applyResources(db.pool, parseResourceDocuments(text, 'conn.yaml'), { source: 'conn.yaml', secrets });
    expect((await apply(CONNECTION))[0].status).toBe('created');
    const { rows } = await db.pool.query('SELECT type, url, username, password, spec FROM connections');
    const [row] = rows;
    expect(row.type).toBe('postgres');
    expect(row.password).toBe('secret://app-db/password');
    expect(secrets.open(row.url)).toBe('postgres://app:s3cret-pw@db.internal/app');
    expect(secrets.open(row.username)).toBe('app');
    expect(JSON.stringify(rows)).not.toContain('s3cret-pw');
    expect(row.spec).toEqual({
      type: 'postgres',
      password: { valueFrom: { secretKeyRef: { name: 'app-db', key: 'password' } } },
      properties: { sslmode: 'require' },
    });

    expect((await apply(CONNECTION))[0].status).toBe('unchanged');
    expect((await apply(CONNECTION.replace('s3cret-pw', 'rotated-pw')))[0].status).toBe('updated');
    const rotated = await db.pool.query('SELECT url FROM connections');
    expect(secrets.open(rotated.rows[0].url)).toBe('postgres://app:rotated-pw@db.internal/app');
  });

  it('refuses to store inline credentials without a secret box', async () => {
    const [result] = await applyResources(db.pool, parseResourceDocuments(CONNECTION, 'conn.yaml'), {
      source: 'conn.yaml',
    });
    expect(result).toMatchObject({
      status: 'failed',
      message: 'cannot store url, username: no secret key is configured to encrypt them',
    });
    expect((await db.pool.query('SELECT count(*)::int AS n FROM connections')).rows[0].n).toBe(0);
  });
});
