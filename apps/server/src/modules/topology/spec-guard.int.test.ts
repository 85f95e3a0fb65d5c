import { relationRowSchemas } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';

/**
 * A Topology spec is checked with field paths however it arrives: the data API (as the settings
 * editor saves) and the resources API; the JSON Schema the editor checks against describes it.
 */
const GOOD = {
  type: 'Machine',
  schedule: '@every 5m',
  components: [
    {
      name: 'db',
      type: 'Database',
      components: [{ name: 'tables', lookup: { exec: [{ script: 'echo []' }] } }],
    },
  ],
};

const BAD: [unknown, string, RegExp][] = [
  [{ components: [{ type: 'Service' }] }, 'spec.components[0].name', /needs a name/],
  [{ components: [{ name: 'a', hidden: 'maybe' }] }, 'spec.components[0].hidden', /true or false/],
  [
    { components: [{ name: 'a', components: [{ name: 'b', properties: [{ name: 'p', value: 'ten' }] }] }] },
    'spec.components[0].components[0].properties[0].value',
    /must be a number/,
  ],
  [{ components: [{ name: 'a', lookup: ['exec'] }] }, 'spec.components[0].lookup', /check spec/],
  [{ components: [{ name: 'a', labels: { tier: 3 } }] }, 'spec.components[0].labels.tier', /./],
  [{ schedule: 'now and then' }, 'spec.schedule', /./],
  [{ components: [{ name: 'a', lookup: { exec: [] } }] }, 'spec.components[0].lookup', /declares no check/],
  [{ groupBy: { tag: '' } }, 'spec.groupBy.tag', /tag must name a label/],
];

let full: FullApp;

beforeAll(async () => {
  full = await startFullApp('Topology guard admin');
});

afterAll(async () => {
  await full?.close();
});

describe('Topology specs', () => {
  it('the data API refuses a bad spec with its field path and keeps the row', async () => {
    const created = await full.send('POST', '/api/db/topologies', { name: 'guarded', spec: GOOD });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();
    for (const [spec, field, message] of BAD) {
      const patch = await full.send('PATCH', `/api/db/topologies?id=eq.${id}`, { spec });
      expect(patch.statusCode, patch.body).toBe(400);
      const body = patch.json<{ message: string; details: string }>();
      expect(body.details, JSON.stringify(spec)).toBe(`field: ${field}`);
      expect(body.message).toMatch(message);
      const insert = await full.send('POST', '/api/db/topologies', { name: 'refused', spec });
      expect(insert.statusCode).toBe(400);
    }
    const stored = await full.db.pool.query(`SELECT name, spec FROM topologies ORDER BY name`);
    expect(stored.rows).toEqual([{ name: 'guarded', spec: GOOD }]);

    // The settings list reads topologies_with_status: its rows parse exactly with the contract.
    const listed = await full.get('/api/db/topologies_with_status?select=*');
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json<unknown[]>();
    expect(rows).toHaveLength(1);
    expect(relationRowSchemas.topologies_with_status.strict().parse(rows[0])).toMatchObject({
      name: 'guarded',
      status: 'unknown',
      components: 0,
      job_status: null,
    });
  });

  it('the editor schema describes nested components', async () => {
    const schema = await full.get('/api/schemas/topology.spec.schema.json');
    expect(schema.statusCode).toBe(200);
    const text = schema.body;
    expect(text).toContain('"components"');
    expect(text).toContain('"forEach"');
    expect(text).toContain('"healthExpr"');
  });
});
