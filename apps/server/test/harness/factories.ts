import { randomBytes } from 'node:crypto';
import type { Pool } from '../../src/platform/db/pool.js';

/** Data factories for tests: each inserts one row with sensible defaults and returns it. */

const suffix = () => randomBytes(3).toString('hex');

type Row = Record<string, unknown> & { id: string };

async function insert(pool: Pool, table: string, values: Record<string, unknown>): Promise<Row> {
  const columns = Object.keys(values);
  const jsonValues = Object.values(values).map((value) =>
    value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value,
  );
  const { rows } = await pool.query<Row>(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING *`,
    jsonValues,
  );
  return rows[0] as Row;
}

export async function createPerson(
  pool: Pool,
  overrides: Record<string, unknown> & { roles?: string[] } = {},
): Promise<Row> {
  const { roles = [], ...values } = overrides;
  const id = suffix();
  const person = await insert(pool, 'people', {
    name: `Person ${id}`,
    email: `person-${id}@example.com`,
    ...values,
  });
  for (const role of roles) {
    await pool.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [person.id, role]);
  }
  return person;
}

export async function createCanary(pool: Pool, overrides: Record<string, unknown> = {}): Promise<Row> {
  return insert(pool, 'canaries', {
    name: `canary-${suffix()}`,
    spec: { schedule: '@every 1m' },
    ...overrides,
  });
}

export async function createCheck(pool: Pool, overrides: Record<string, unknown> = {}): Promise<Row> {
  const canaryId = overrides.canary_id ?? (await createCanary(pool)).id;
  return insert(pool, 'checks', {
    name: `check-${suffix()}`,
    type: 'http',
    status: 'healthy',
    ...overrides,
    canary_id: canaryId,
  });
}

export async function createCheckStatus(
  pool: Pool,
  checkId: string,
  overrides: { time?: Date; status?: boolean; duration?: number; message?: string } = {},
): Promise<void> {
  await pool.query(
    'INSERT INTO check_statuses (check_id, time, status, duration, message) VALUES ($1, $2, $3, $4, $5)',
    [
      checkId,
      overrides.time ?? new Date(),
      overrides.status ?? true,
      overrides.duration ?? 42,
      overrides.message ?? null,
    ],
  );
}

export async function createConfigItem(pool: Pool, overrides: Record<string, unknown> = {}): Promise<Row> {
  return insert(pool, 'config_items', {
    name: `config-${suffix()}`,
    type: 'Kubernetes::Pod',
    config_class: 'Pod',
    labels: {},
    tags: {},
    ...overrides,
  });
}

export async function createIncident(pool: Pool, overrides: Record<string, unknown> = {}): Promise<Row> {
  return insert(pool, 'incidents', {
    title: `Incident ${suffix()}`,
    type: 'availability',
    severity: 'low',
    ...overrides,
  });
}
