import { gunzipSync } from 'node:zlib';
import { topologyResponseSchema, topologyRunResponseSchema } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createJobsService } from '../../platform/jobs/index.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { topologyRoutes } from './routes.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let app: FastifyInstance;
const tokens: Record<string, string> = {};
let topologyId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  const jobs = createJobsService({ pool: db.pool, logger });
  await app.register(topologyRoutes, { pool: db.pool, jobs, logger, run: {} });
  await app.ready();
  for (const role of ['editor', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
  await createCheck(db.pool, { name: 'web-http', labels: { app: 'web' }, status: 'unhealthy' });
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO topologies (name, spec) VALUES ('estate', $1::jsonb) RETURNING id`,
    [
      JSON.stringify({
        type: 'Estate',
        owner: 'platform',
        components: [
          {
            name: 'web',
            type: 'Service',
            owner: 'frontend',
            labels: { env: 'prod' },
            checks: [{ selector: { labelSelector: 'app=web' } }],
            components: [{ name: 'web-1', type: 'Pod', health: 'healthy' }],
          },
          { name: 'batch', type: 'Job', labels: { env: 'dev' }, health: 'healthy', hidden: true },
          {
            name: 'hosts',
            lookup: {
              exec: [
                {
                  name: 'hosts',
                  script: `echo '[{"name":"h1","type":"Host"},{"name":"h2","type":"Host"}]'`,
                  display: { expr: 'stdout' },
                },
              ],
            },
          },
        ],
      }),
    ],
  );
  topologyId = rows[0].id;
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

async function get(url: string, role = 'viewer') {
  return app.inject({ method: 'GET', url, headers: bearer(tokens[role]) });
}

describe('topology routes', () => {
  it('Run Now: an editor runs the topology (job history), a viewer is refused', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: `/api/canary/run/topology/${topologyId}`,
      headers: bearer(tokens.viewer),
    });
    expect(refused.statusCode).toBe(403);

    const ran = await app.inject({
      method: 'POST',
      url: `/api/canary/run/topology/${topologyId}`,
      headers: bearer(tokens.editor),
    });
    expect(ran.statusCode).toBe(200);
    const body = topologyRunResponseSchema.parse(ran.json());
    expect(body).toMatchObject({ status: 'SUCCESS', errors: [], summary: { components: 7, lookups: 1 } });
    const job = await db.pool.query(
      `SELECT name, status, resource_type, resource_id, success_count FROM job_history WHERE id = $1`,
      [body.job_id],
    );
    expect(job.rows[0]).toEqual({
      name: 'Topology',
      status: 'SUCCESS',
      resource_type: 'topology',
      resource_id: topologyId,
      success_count: 7,
    });

    const missing = await app.inject({
      method: 'POST',
      url: `/api/canary/run/topology/00000000-0000-4000-8000-000000000001`,
      headers: bearer(tokens.editor),
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({
      method: 'POST',
      url: `/api/canary/run/topology/nope`,
      headers: bearer(tokens.editor),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: expect.stringContaining('id must be a topology id') });
  });

  it('a failing lookup is a FAILED job and the components stay', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO topologies (name, spec) VALUES ('flaky', $1::jsonb) RETURNING id`,
      [JSON.stringify({ components: [{ name: 'a', lookup: { exec: [{ name: 'l', script: 'exit 1' }] } }] })],
    );
    const ran = await app.inject({
      method: 'POST',
      url: `/api/canary/run/topology/${rows[0].id}`,
      headers: bearer(tokens.editor),
    });
    const body = topologyRunResponseSchema.parse(ran.json());
    expect(body.status).toBe('FAILED');
    expect(body.errors[0]).toContain('spec.components[0].lookup exec/l');
    const job = await db.pool.query(`SELECT status FROM job_history WHERE id = $1`, [body.job_id]);
    expect(job.rows[0].status).toBe('FAILED');
  });

  it('GET /api/canary/api/topology lists roots, filters, and returns a subtree by id', async () => {
    const roots = topologyResponseSchema.parse((await get('/api/canary/api/topology')).json());
    const estate = roots.components.find((component) => component.name === 'estate')!;
    expect(estate).toMatchObject({ type: 'Estate', health: 'unhealthy', parent_id: null });
    // batch healthy, web unhealthy (its check), hosts unknown (its looked-up hosts have no health).
    expect(estate.children).toEqual({ healthy: 1, unhealthy: 1, warning: 0, unknown: 1 });
    expect(roots.types).toEqual(expect.arrayContaining(['Estate', 'Service', 'Host', 'Pod']));
    expect(roots.teams).toEqual(expect.arrayContaining(['frontend', 'platform']));
    expect(roots.tags.env).toEqual(['dev', 'prod']);

    const tree = topologyResponseSchema.parse(
      (await get(`/api/canary/api/topology?id=${estate.id}&depth=1`)).json(),
    );
    expect(tree.components).toHaveLength(1);
    const children = tree.components[0].components ?? [];
    expect(children.map((child) => child.name)).toEqual(['batch', 'hosts', 'web']);
    expect(children.every((child) => child.components === undefined)).toBe(true);
    const web = children.find((child) => child.name === 'web')!;
    expect(web.checks).toEqual([expect.objectContaining({ name: 'web-http', status: 'unhealthy' })]);

    const deep = topologyResponseSchema.parse(
      (await get(`/api/canary/api/topology?id=${estate.id}&hidden=false`)).json(),
    );
    const deepChildren = deep.components[0].components ?? [];
    expect(deepChildren.map((child) => child.name)).toEqual(['hosts', 'web']);
    expect(
      deepChildren.find((child) => child.name === 'hosts')?.components?.map((child) => child.name),
    ).toEqual(['h1', 'h2']);

    const flat = topologyResponseSchema.parse(
      (await get(`/api/canary/api/topology?flatten=true&type=Host,Pod&labels=env=prod:-1`)).json(),
    );
    expect(flat.components.map((component) => component.name).sort()).toEqual(['h1', 'h2', 'web-1']);
    const prodOnly = topologyResponseSchema.parse(
      (await get(`/api/canary/api/topology?flatten=true&labels=env=prod&status=unhealthy`)).json(),
    );
    expect(prodOnly.components.map((component) => component.name)).toEqual(['web']);

    const badDepth = await get(`/api/canary/api/topology?depth=-1`);
    expect(badDepth.statusCode).toBe(400);
    expect(badDepth.json().error).toContain('depth must be 0 or more');
    const badSort = await get(`/api/canary/api/topology?sortBy=color`);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().error).toContain('sortBy must be one of');
    const badLabel = await get(`/api/canary/api/topology?labels=justakey`);
    expect(badLabel.statusCode).toBe(400);
    expect(badLabel.json().error).toContain('labels: entry 1 must be key=value');
    const anonymous = await app.inject({ method: 'GET', url: '/api/canary/api/topology' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /api/snapshot/topology/:id downloads a tar.gz of the tree, checks, configs and incidents', async () => {
    const roots = topologyResponseSchema.parse((await get('/api/canary/api/topology')).json());
    const estate = roots.components.find((component) => component.name === 'estate')!;
    const response = await get(`/api/snapshot/topology/${estate.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="snapshot-estate-.*\.tar\.gz"$/,
    );
    const tar = gunzipSync(response.rawPayload);
    const files: Record<string, string> = {};
    for (let offset = 0; offset + 512 <= tar.length;) {
      const name = tar
        .subarray(offset, offset + 100)
        .toString('utf8')
        .replace(/\0.*$/s, '');
      if (name === '') break;
      const size = parseInt(
        tar
          .subarray(offset + 124, offset + 136)
          .toString('ascii')
          .replace(/\0.*$/s, ''),
        8,
      );
      files[name.split('/')[1]] = tar.subarray(offset + 512, offset + 512 + size).toString('utf8');
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    expect(Object.keys(files).sort()).toEqual([
      'checks.json',
      'configs.json',
      'incidents.json',
      'topology.json',
    ]);
    const tree = JSON.parse(files['topology.json']) as { name: string; components: { name: string }[] };
    expect(tree.name).toBe('estate');
    expect(tree.components.map((child) => child.name)).toEqual(['batch', 'hosts', 'web']);
    const checks = JSON.parse(files['checks.json']) as { name: string; statuses: unknown[] }[];
    expect(checks.map((check) => check.name)).toEqual(['web-http']);

    const missing = await get(`/api/snapshot/topology/00000000-0000-4000-8000-000000000001`);
    expect(missing.statusCode).toBe(404);
  });

  it('row-level permissions: a subject sees only the components its permission rows let it read', async () => {
    const grantee = async (roles: ('viewer' | 'editor')[], grant: Record<string, unknown>) => {
      const person = await createTestPerson(db.pool, { roles });
      await db.pool.query(
        `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object, object_selector, component_id)
         VALUES ($1::text, 'person', $1::uuid, 'read', $2, $3, $4, $5)`,
        [
          person.id,
          grant.deny ?? false,
          grant.object ?? null,
          grant.objectSelector ? JSON.stringify(grant.objectSelector) : null,
          grant.componentId ?? null,
        ],
      );
      return bearer(await createTestToken(db.pool, person.id));
    };
    const as = async (headers: Record<string, string>, url: string) =>
      app.inject({ method: 'GET', url, headers });
    const all = topologyResponseSchema.parse((await get('/api/canary/api/topology?flatten=true')).json());
    const byName = (name: string) => all.components.find((component) => component.name === name)!;

    // No role, one component granted: it is the caller's root; its parent and siblings are not there.
    const webOnly = await grantee([], { componentId: byName('web').id });
    const roots = topologyResponseSchema.parse((await as(webOnly, '/api/canary/api/topology')).json());
    expect(roots.components.map((component) => component.name)).toEqual(['web']);
    expect(roots.types).toEqual(['Service']);
    expect(roots.teams).toEqual(['frontend']);
    expect((await as(webOnly, `/api/canary/api/topology?id=${byName('estate').id}`)).statusCode).toBe(404);
    expect((await as(webOnly, `/api/snapshot/topology/${byName('estate').id}`)).statusCode).toBe(404);
    // Its child is not granted: the children count shows none.
    const web = topologyResponseSchema.parse(
      (await as(webOnly, `/api/canary/api/topology?id=${byName('web').id}`)).json(),
    );
    expect(web.components[0].children).toEqual({ healthy: 0, unhealthy: 0, warning: 0, unknown: 0 });
    expect(web.components[0].components).toBeUndefined();

    // A viewer with a deny on hosts: the estate without them, in the tree and the counts.
    const noHosts = await grantee(['viewer'], {
      deny: true,
      objectSelector: { components: [{ types: ['Host'] }] },
    });
    const tree = topologyResponseSchema.parse(
      (await as(noHosts, `/api/canary/api/topology?id=${byName('estate').id}&depth=3`)).json(),
    );
    const names = (components: { name: string; components?: unknown[] }[]): string[] =>
      components.flatMap((component) => [
        component.name,
        ...names((component.components ?? []) as { name: string; components?: unknown[] }[]),
      ]);
    expect(names(tree.components).sort()).toEqual(['batch', 'estate', 'hosts', 'web', 'web-1']);
    const hosts = (tree.components[0].components ?? []).find((child) => child.name === 'hosts')!;
    expect(hosts.children).toEqual({ healthy: 0, unhealthy: 0, warning: 0, unknown: 0 });
    expect(tree.types).not.toContain('Host');

    // Nothing granted and no role: refused.
    const nobody = bearer(await createTestToken(db.pool, (await createTestPerson(db.pool)).id));
    expect((await as(nobody, '/api/canary/api/topology')).statusCode).toBe(403);
  });

  it('the component page and its snapshot list only the checks and configs the caller may read', async () => {
    const all = topologyResponseSchema.parse((await get('/api/canary/api/topology?flatten=true')).json());
    const web = all.components.find((component) => component.name === 'web')!;
    const visibleDb = await createConfigItem(db.pool, { name: 'web-db', type: 'Postgres::Database' });
    const secretDb = await createConfigItem(db.pool, { name: 'secret-db', type: 'Postgres::Database' });
    await db.pool.query(
      `INSERT INTO config_component_relationships (component_id, config_id) VALUES ($1, $2), ($1, $3)`,
      [web.id, visibleDb.id, secretDb.id],
    );
    const person = async (roles: ('viewer' | 'editor')[], grants: Record<string, unknown>[]) => {
      const created = await createTestPerson(db.pool, { roles });
      for (const grant of grants)
        await db.pool.query(
          `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object_selector, component_id)
           VALUES ($1::text, 'person', $1::uuid, 'read', $2, $3, $4)`,
          [
            created.id,
            grant.deny ?? false,
            grant.objectSelector ? JSON.stringify(grant.objectSelector) : null,
            grant.componentId ?? null,
          ],
        );
      return bearer(await createTestToken(db.pool, created.id));
    };
    const page = async (headers: Record<string, string>) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/canary/api/topology?id=${web.id}&depth=1`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      const component = topologyResponseSchema.parse(response.json()).components[0];
      return {
        checks: component.checks.map((check) => check.name),
        configs: component.configs.map((config) => config.name).sort(),
      };
    };

    // A viewer reads every check and config.
    expect(await page(bearer(tokens.viewer))).toEqual({
      checks: ['web-http'],
      configs: ['secret-db', 'web-db'],
    });
    // A viewer denied one config and the check by selectors: neither is listed.
    const denied = await person(
      ['viewer'],
      [
        { deny: true, objectSelector: { configs: [{ name: 'secret-db' }] } },
        { deny: true, objectSelector: { checks: [{ name: 'web-http' }] } },
      ],
    );
    expect(await page(denied)).toEqual({ checks: [], configs: ['web-db'] });
    // Granted the component alone (no role): the component, but no check or config.
    const componentOnly = await person([], [{ componentId: web.id }]);
    expect(await page(componentOnly)).toEqual({ checks: [], configs: [] });
    // Granted the component and one config by name: that config only.
    const oneConfig = await person(
      [],
      [{ componentId: web.id }, { objectSelector: { configs: [{ name: 'web-db' }] } }],
    );
    expect(await page(oneConfig)).toEqual({ checks: [], configs: ['web-db'] });

    // The snapshot archive follows the same scopes.
    const snapshot = await app.inject({
      method: 'GET',
      url: `/api/snapshot/topology/${web.id}`,
      headers: denied,
    });
    expect(snapshot.statusCode).toBe(200);
    const tar = gunzipSync(snapshot.rawPayload).toString('utf8');
    expect(tar).toContain('web-db');
    expect(tar).not.toContain('secret-db');
    expect(tar).not.toContain('web-http');
  });
});
