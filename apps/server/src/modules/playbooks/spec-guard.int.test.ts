import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { parseResourceDocuments, validateResource } from '../resources/index.js';

/**
 * A Playbook's actions each name exactly one known action type, checked on save however the spec
 * arrives (the data API the editor writes through, and apply through the resources API): a typo
 * or a missing type is a 400 naming the action, not a run that fails later.
 */
const GOOD = { actions: [{ name: 'restart', exec: { script: 'echo restarted' } }] };

const BAD: [unknown, string, RegExp][] = [
  [{ actions: [{ name: 'restart' }] }, 'spec.actions[0]', /has no action type/],
  [
    { actions: [GOOD.actions[0], { name: 'typo', exce: { script: 'x' } }] },
    'spec.actions[1]',
    /exce: unknown action type/,
  ],
  [
    { actions: [{ name: 'both', exec: { script: 'x' }, http: { url: 'http://x' } }] },
    'spec.actions[0]',
    /several action types: exec, http/,
  ],
];

let full: FullApp;

beforeAll(async () => {
  full = await startFullApp('Playbook guard admin');
});

afterAll(async () => {
  await full?.close();
});

describe('Playbook specs', () => {
  it('the data API refuses an action without one known type, naming it, and keeps the row', async () => {
    const created = await full.send('POST', '/api/db/playbooks', { name: 'guarded', spec: GOOD });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();
    for (const [spec, field, message] of BAD) {
      const patch = await full.send('PATCH', `/api/db/playbooks?id=eq.${id}`, { spec });
      expect(patch.statusCode, patch.body).toBe(400);
      const body = patch.json<{ message: string; details: string }>();
      expect(body.details, JSON.stringify(spec)).toBe(`field: ${field}`);
      expect(body.message).toMatch(message);
      const insert = await full.send('POST', '/api/db/playbooks', { name: 'refused', spec });
      expect(insert.statusCode).toBe(400);
    }
    const stored = await full.db.pool.query(`SELECT name, spec FROM playbooks WHERE deleted_at IS NULL`);
    expect(stored.rows).toEqual([{ name: 'guarded', spec: GOOD }]);
  });

  it('accepts the types that need a cloud (they fail at run time) and refuses a typo on apply', async () => {
    const accepted = await full.send('POST', '/api/db/playbooks', {
      name: 'cloud',
      spec: { actions: [{ name: 'ask', ai: { prompt: 'why?' } }] },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // `opsdeck apply` and RESOURCES_DIR check each document this way before writing it.
    const validation = validateResource(
      parseResourceDocuments(
        [
          'apiVersion: mission-control.flanksource.com/v1',
          'kind: Playbook',
          'metadata: {name: typo}',
          'spec:',
          '  actions:',
          '    - name: typo',
          '      exce: {script: x}',
        ].join('\n'),
        'typo.yaml',
      )[0],
    );
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.issues).toEqual([
      expect.objectContaining({
        path: 'spec.actions[0]',
        message: expect.stringMatching(/exce: unknown action type/),
      }),
    ]);
  });
});
