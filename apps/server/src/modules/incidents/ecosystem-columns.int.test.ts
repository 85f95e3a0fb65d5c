import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { adminQuery, databaseUrl, MIGRATIONS_DIR, uniqueName } from '../../../test/harness/postgres.js';
import { createPerson } from '../../../test/harness/factories.js';
import { readMigrations, runMigrations } from '../../platform/db/migrate.js';
import { createPool } from '../../platform/db/pool.js';

// Issue 19 §5: the columns the ecosystem's clients read and write, through the data API.
describe('ecosystem columns of incidents, people, team_members and evidences', () => {
  let full: FullApp;

  beforeAll(async () => {
    full = await startFullApp('Ecosystem Columns Admin');
  });
  afterAll(() => full.close());

  async function createIncident(body: Record<string, unknown>) {
    return full.send('POST', '/api/db/incidents', {
      title: 'Checkout is slow',
      severity: 'high',
      type: 'performance',
      description: '',
      ...body,
    });
  }

  it('gives every new incident a unique short incident_id from the database', async () => {
    const first = await createIncident({ title: 'First' });
    const second = await createIncident({ title: 'Second' });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    const [a] = first.json() as { id: string; incident_id: string }[];
    const [b] = second.json() as { id: string; incident_id: string }[];
    expect(a!.incident_id).toMatch(/^INC\d{7}$/);
    expect(b!.incident_id).toMatch(/^INC\d{7}$/);
    expect(Number(b!.incident_id.slice(3))).toBeGreaterThan(Number(a!.incident_id.slice(3)));

    // The list and the detail page read it from incident_summary; clients filter by it.
    const summary = await full.get(
      `/api/db/incident_summary?select=id,incident_id,title&incident_id=eq.${b!.incident_id}`,
    );
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual([{ id: b!.id, incident_id: b!.incident_id, title: 'Second' }]);

    const duplicate = await createIncident({ title: 'Copy', incident_id: a!.incident_id });
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: '23505' });
  });

  it('stores people.team_id, embeddable as the person’s team', async () => {
    const person = await createPerson(full.db.pool, { name: 'Tess Team' });
    const team = await full.send('POST', '/api/db/teams', { name: `payments-${Date.now()}` });
    expect(team.statusCode, team.body).toBe(201);
    const [{ id: teamId, name: teamName }] = team.json() as { id: string; name: string }[];
    const patched = await full.send('PATCH', `/api/db/people?id=eq.${person.id as string}`, {
      team_id: teamId,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const read = await full.get(
      `/api/db/people?select=name,team_id,team:team_id(name)&id=eq.${person.id as string}`,
    );
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual([{ name: 'Tess Team', team_id: teamId, team: { name: teamName } }]);
  });

  it('records team_members.source, UI unless the writer names one', async () => {
    const team = await full.send('POST', '/api/db/teams', { name: `sre-${Date.now()}` });
    const [{ id: teamId }] = team.json() as { id: string }[];
    const ui = await createPerson(full.db.pool, { name: 'Ursula UI' });
    const synced = await createPerson(full.db.pool, { name: 'Sam Synced' });
    const added = await full.send('POST', '/api/db/team_members', [{ team_id: teamId, person_id: ui.id }]);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual([expect.objectContaining({ person_id: ui.id, source: 'UI' })]);
    const named = await full.send('POST', '/api/db/team_members', {
      team_id: teamId,
      person_id: synced.id,
      source: 'Team/sre',
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json()).toEqual([expect.objectContaining({ person_id: synced.id, source: 'Team/sre' })]);
  });

  it('takes a bulk evidence insert whose objects leave out definition_of_done and done', async () => {
    const incident = await createIncident({ title: 'Evidence bulk' });
    const [{ id: incidentId }] = incident.json() as { id: string }[];
    const hypothesis = await full.send('POST', '/api/db/hypotheses', {
      incident_id: incidentId,
      title: 'Disk full',
      type: 'root',
      status: 'possible',
    });
    expect(hypothesis.statusCode, hypothesis.body).toBe(201);
    const [{ id: hypothesisId }] = hypothesis.json() as { id: string }[];

    // postgrest-js sends a bulk insert with columns= the union of the objects' keys: an object
    // without a key gets NULL there (PostgREST semantics), which NOT NULL columns refused.
    const columns = '"hypothesis_id","type","description","definition_of_done","done"';
    const evidences = await full.send('POST', `/api/db/evidences?columns=${columns}`, [
      {
        hypothesis_id: hypothesisId,
        type: 'log',
        description: 'df says 100%',
        definition_of_done: true,
        done: true,
      },
      { hypothesis_id: hypothesisId, type: 'log', description: 'no key for the flags' },
    ]);
    expect(evidences.statusCode, evidences.body).toBe(201);
    const rows = evidences.json() as { description: string; definition_of_done: boolean; done: boolean }[];
    expect(
      rows.map(({ description, definition_of_done, done }) => ({ description, definition_of_done, done })),
    ).toEqual([
      { description: 'df says 100%', definition_of_done: true, done: true },
      { description: 'no key for the flags', definition_of_done: false, done: false },
    ]);

    const nullability = await full.db.pool.query<{
      column_name: string;
      is_nullable: string;
      column_default: string;
    }>(
      `SELECT column_name, is_nullable, column_default FROM information_schema.columns
        WHERE table_name = 'evidences' AND column_name IN ('definition_of_done', 'done') ORDER BY column_name`,
    );
    expect(nullability.rows).toEqual([
      { column_name: 'definition_of_done', is_nullable: 'YES', column_default: 'false' },
      { column_name: 'done', is_nullable: 'YES', column_default: 'false' },
    ]);
  });
});

describe('migration 0100 on a database that already has incidents', () => {
  it('numbers existing incidents in the order they were opened and continues after them', async () => {
    const { adminUrl } = await import('vitest').then(({ inject }) => inject('testPostgres'));
    const name = uniqueName('opsdeck_m0100');
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-m0100-'));
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const pool = createPool(databaseUrl(adminUrl, name), { max: 2 });
    try {
      const files = await readMigrations(MIGRATIONS_DIR);
      for (const file of files.filter((f) => f.version < '0100')) {
        await fs.writeFile(path.join(scratch, file.name), file.sql);
      }
      await runMigrations(pool, scratch);
      await pool.query(`INSERT INTO incidents (title, type, severity, created_at, updated_at) VALUES
        ('newest', 'cost', 'low', '2026-03-01', '2026-03-02'),
        ('oldest', 'cost', 'low', '2026-01-01', '2026-01-02'),
        ('middle', 'cost', 'low', '2026-02-01', '2026-02-02')`);

      await runMigrations(pool, MIGRATIONS_DIR);
      await pool.query(`INSERT INTO incidents (title, type, severity) VALUES ('after', 'cost', 'low')`);
      const { rows } = await pool.query<{ title: string; incident_id: string; updated_at: string }>(
        `SELECT title, incident_id, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS updated_at
           FROM incidents ORDER BY incident_id`,
      );
      expect(rows.map((row) => [row.title, row.incident_id])).toEqual([
        ['oldest', 'INC0000001'],
        ['middle', 'INC0000002'],
        ['newest', 'INC0000003'],
        ['after', 'INC0000004'],
      ]);
      // Filling the column is not an edit of the incident.
      expect(rows.slice(0, 3).map((row) => row.updated_at)).toEqual([
        '2026-01-02',
        '2026-02-02',
        '2026-03-02',
      ]);
    } finally {
      await pool.end();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await fs.rm(scratch, { recursive: true, force: true });
    }
  });
});
