import { relationRowSchemas, topologyRunResponseSchema } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { applyResources, parseResourceDocuments } from '../resources/index.js';
import { inlineCanarySource, specJsonPath } from './topology-engine.js';

/**
 * Inline checks (canaries with source `topology:<id>`) follow their topology at once, however it
 * changes: an inline check removed from the spec (the editor's data-API write, or a re-apply)
 * deletes its canary before the next run; deleting the topology deletes them all.
 */
let full: FullApp;

beforeAll(async () => {
  full = await startFullApp('Inline canaries admin');
});

afterAll(async () => {
  await full?.close();
});

const exec = (name: string) => ({ exec: [{ name, script: 'echo ok' }] });

function spec(options: { webCheck: boolean; lookup: boolean }) {
  return {
    type: 'Shop',
    components: [
      { name: 'web', type: 'Website', ...(options.webCheck ? { checks: [{ inline: exec('web-up') }] } : {}) },
      { name: 'db', type: 'Database', checks: [{ inline: exec('db-up') }] },
      ...(options.lookup
        ? [
            {
              name: 'hosts',
              lookup: {
                exec: [{ name: 'hosts', script: `echo '[{"name":"h1"}]'`, display: { expr: 'stdout' } }],
              },
              forEach: { checks: [{ inline: exec('host-up') }] },
            },
          ]
        : []),
    ],
  };
}

async function canaries(topologyId: string) {
  const { rows } = await full.db.pool.query<{
    name: string;
    deleted: boolean;
    path: string | null;
  }>(
    `SELECT name, deleted_at IS NOT NULL AS deleted, labels ->> 'opsdeck.io/topology-check' AS path
     FROM canaries WHERE source = $1 ORDER BY name`,
    [inlineCanarySource(topologyId)],
  );
  return rows;
}

async function runNow(id: string) {
  const response = await full.send('POST', `/api/canary/run/topology/${id}`, {});
  expect(response.statusCode, response.body).toBe(200);
  expect(topologyRunResponseSchema.parse(response.json()).status).toBe('SUCCESS');
}

describe('inline canaries of a topology', () => {
  it('the spec path of a check: dotted, without spec', () => {
    expect(specJsonPath('spec.components[2].checks[0].inline')).toBe('components.2.checks.0.inline');
    expect(specJsonPath('spec.checks[1].inline')).toBe('checks.1.inline');
    expect(specJsonPath('spec.components[0].components[3].lookup')).toBe('components.0.components.3.lookup');
  });

  it('an edit through the data API removes the canary of a removed inline check; a delete removes them all', async () => {
    const created = await full.send('POST', '/api/db/topologies', {
      name: 'shop',
      spec: spec({ webCheck: true, lookup: true }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();
    await runNow(id);
    // topologies_with_status carries the run as the ecosystem's job_* columns and the agent.
    const listed = await full.get(`/api/db/topologies_with_status?select=*&id=eq.${id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const row = relationRowSchemas.topologies_with_status.strict().parse(listed.json<unknown[]>()[0]);
    expect(row).toMatchObject({
      job_name: 'Topology',
      job_status: 'SUCCESS',
      job_resource_type: 'topology',
      job_success_count: 5,
      job_error_count: 0,
      job_last_failed: null,
      agent: { id: '00000000-0000-0000-0000-000000000000' },
    });
    expect(row.job_duration_millis).toBeGreaterThanOrEqual(0);
    expect(await canaries(id)).toEqual([
      { name: 'shop-shop.db-0', deleted: false, path: 'components.1.checks.0.inline' },
      { name: 'shop-shop.hosts.h1-0', deleted: false, path: 'components.2.lookup' },
      { name: 'shop-shop.web-0', deleted: false, path: 'components.0.checks.0.inline' },
    ]);

    // The web check goes from the spec (the editor saves through the data API): its canary is
    // deleted at once, without a run; the others stay.
    const edited = await full.send('PATCH', `/api/db/topologies?id=eq.${id}`, {
      spec: spec({ webCheck: false, lookup: true }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await canaries(id)).map((row) => [row.name, row.deleted])).toEqual([
      ['shop-shop.db-0', false],
      ['shop-shop.hosts.h1-0', false],
      ['shop-shop.web-0', true],
    ]);
    // The lookup that made the host's component goes: the host's canary goes with it.
    await full.send('PATCH', `/api/db/topologies?id=eq.${id}`, {
      spec: spec({ webCheck: false, lookup: false }),
    });
    expect((await canaries(id)).map((row) => row.deleted)).toEqual([false, true, true]);
    // A run after that keeps the rest as they are.
    await runNow(id);
    expect((await canaries(id)).map((row) => row.deleted)).toEqual([false, true, true]);

    // The topology deleted (the editor's Delete): every inline canary is deleted with it, and the
    // health scheduler no longer has them to run.
    const deleted = await full.send('PATCH', `/api/db/topologies?id=eq.${id}`, {
      deleted_at: new Date().toISOString(),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await canaries(id)).every((row) => row.deleted)).toBe(true);
    const live = await full.get(`/api/db/canaries?select=name&source=eq.topology:${id}&deleted_at=is.null`);
    expect(live.json()).toEqual([]);
  });

  it('a re-apply without the inline check removes its canary; a hard delete removes the rest', async () => {
    const yaml = (webCheck: boolean) =>
      [
        'apiVersion: canaries.flanksource.com/v1',
        'kind: Topology',
        'metadata: {name: applied, namespace: default}',
        `spec: ${JSON.stringify(spec({ webCheck, lookup: false }))}`,
        '',
      ].join('\n');
    const apply = async (webCheck: boolean) => {
      const [result] = await applyResources(
        full.db.pool,
        parseResourceDocuments(yaml(webCheck), 'shop.yaml'),
        {
          source: 'shop.yaml',
        },
      );
      expect(result.status, JSON.stringify(result)).toMatch(/created|updated|unchanged/);
      return result.id!;
    };
    const id = await apply(true);
    await runNow(id);
    expect((await canaries(id)).map((row) => [row.name, row.deleted])).toEqual([
      ['applied-applied.db-0', false],
      ['applied-applied.web-0', false],
    ]);
    expect(await apply(false)).toBe(id);
    expect((await canaries(id)).map((row) => [row.name, row.deleted])).toEqual([
      ['applied-applied.db-0', false],
      ['applied-applied.web-0', true],
    ]);
    await full.db.pool.query(`DELETE FROM topologies WHERE id = $1`, [id]);
    expect((await canaries(id)).every((row) => row.deleted)).toBe(true);
  });
});
