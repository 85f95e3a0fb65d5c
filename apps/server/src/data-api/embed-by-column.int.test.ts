import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../test/harness/full-app.js';

/**
 * What PostgREST clients send on most pages, against the app's real schema: embedding by a
 * foreign-key column (or its constraint name) resolves to the table even where views over that
 * table inherit the key, as PostgREST 10 and later do; and the tri-state `.filter` splits the
 * commas clients encode as %2C.
 */
let full: FullApp;
let incidentId = '';
let commander: { id: string; name: string };

function get(url: string): Promise<LightMyRequestResponse> {
  return full.get(url);
}

beforeAll(async () => {
  full = await startFullApp('Embed Admin');
  const person = await createPerson(full.db.pool, { name: 'Casey Commander', roles: ['responder'] });
  commander = { id: person.id as string, name: 'Casey Commander' };
  const { rows } = await full.db.pool.query<{ id: string }>(
    `INSERT INTO incidents (title, type, status, severity, commander_id, created_by)
     VALUES ('Disk full', 'availability', 'open', 'low', $1, $1),
            ('Cert expired', 'security', 'open', 'critical', $1, $1),
            ('Slow API', 'performance', 'open', 'medium', $1, $1)
     RETURNING id`,
    [commander.id],
  );
  incidentId = rows[0].id;
  await full.db.pool.query(
    `INSERT INTO hypotheses (incident_id, title, type, created_by) VALUES ($1, 'A cause', 'root', $2)`,
    [incidentId, commander.id],
  );
});

afterAll(async () => {
  await full?.close();
});

describe('embedding by a foreign-key column', () => {
  it.each([
    [`/api/db/incidents?select=id,commander_id(id,name)&id=eq.`, 'commander_id'],
    [`/api/db/incidents?select=id,created_by(id,name)&id=eq.`, 'created_by'],
    [`/api/db/incidents?select=id,commander:commander_id(id,name)&id=eq.`, 'commander'],
  ])('%s resolves to the people table', async (url, key) => {
    const response = await get(`${url}${incidentId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()[0][key]).toEqual({ id: commander.id, name: commander.name });
  });

  it('by the constraint name the 300 answer suggests', async () => {
    const response = await get(
      `/api/db/hypotheses?select=title,created_by!hypotheses_created_by_fkey(name)&incident_id=eq.${incidentId}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([{ title: 'A cause', created_by: { name: commander.name } }]);
  });

  it('a table with several keys to the same table is still ambiguous, among tables only', async () => {
    const response = await get(`/api/db/incidents?select=id,people(id)`);
    expect(response.statusCode).toBe(300);
    const details = response.json().details as { embedding: string }[];
    expect(details.length).toBeGreaterThan(1);
    for (const detail of details) expect(detail.embedding).toBe('incidents with people');
  });
});

describe('tri-state filter with encoded commas', () => {
  it('low%2Ccritical is two values', async () => {
    const response = await get(`/api/db/incidents?select=title&severity.filter=low%2Ccritical&order=title`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([{ title: 'Cert expired' }, { title: 'Disk full' }]);
    const excluded = await get(`/api/db/incidents?select=title&severity.filter=!low%2C!critical`);
    expect(excluded.json()).toEqual([{ title: 'Slow API' }]);
  });
});
