import {
  CONNECTION_MASK,
  connectionTypeOf,
  missingConnectionField,
  type Connection,
  type ConnectionFormValues,
  type ConnectionInputParsed,
  type ConnectionValue,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { isSealed, maskSealedStrings, openSealedStrings } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import { CONNECTION_SECRET_FIELDS } from './kinds/connection.js';
import { sealRowSecrets } from './sealed-specs.js';

type Column = (typeof CONNECTION_SECRET_FIELDS)[number];

interface ConnectionRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, unknown> | null;
  source: string;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  last_test_status: Connection['last_test_status'];
  last_test_at: Date | null;
  last_test_message: string | null;
}

const SELECT = `SELECT c.id, c.name, c.namespace, c.type, c.url, c.username, c.password, c.certificate,
       c.insecure_tls, c.properties, c.source, c.created_by AS created_by_id, p.name AS created_by_name,
       c.created_at, c.updated_at, c.last_test_status, c.last_test_at, c.last_test_message
  FROM connections c LEFT JOIN people p ON p.id = c.created_by
 WHERE c.deleted_at IS NULL`;

/** A stored column as the API shows it: a reference as `valueFrom`, a sealed value opened or masked. */
function columnValue(
  stored: string | null,
  reveal: boolean,
  box: SecretBox | undefined,
): ConnectionValue | undefined {
  if (stored === null || stored === '') return undefined;
  const reference = /^(secret|configmap):\/\/([^/]+)\/(.+)$/.exec(stored);
  if (reference) {
    const keyRef = { name: reference[2], key: reference[3] };
    return { valueFrom: reference[1] === 'secret' ? { secretKeyRef: keyRef } : { configMapKeyRef: keyRef } };
  }
  if (!isSealed(stored)) return stored;
  if (!reveal || !box) return CONNECTION_MASK;
  try {
    return box.open(stored);
  } catch {
    return CONNECTION_MASK;
  }
}

function toConnection(row: ConnectionRow, reveal: boolean, box: SecretBox | undefined): Connection {
  let properties: unknown = row.properties ?? {};
  if (reveal && box) {
    try {
      properties = openSealedStrings(properties, box);
    } catch {
      properties = maskSealedStrings(properties);
    }
  } else properties = maskSealedStrings(properties);
  const connection: Connection = {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    insecure_tls: row.insecure_tls,
    properties: Object.fromEntries(
      Object.entries(properties as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
    ),
    source: row.source,
    created_by: row.created_by_id ? { id: row.created_by_id, name: row.created_by_name } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_test_status: row.last_test_status,
    last_test_at: row.last_test_at?.toISOString() ?? null,
    last_test_message: row.last_test_message,
  };
  for (const column of CONNECTION_SECRET_FIELDS) {
    const value = columnValue(row[column], reveal, box);
    if (value !== undefined) connection[column] = value;
  }
  return connection;
}

export async function listConnections(
  pool: Pool,
  reveal: boolean,
  box: SecretBox | undefined,
): Promise<Connection[]> {
  const { rows } = await pool.query<ConnectionRow>(`${SELECT} ORDER BY c.namespace, c.name`);
  return rows.map((row) => toConnection(row, reveal, box));
}

export async function getConnection(
  pool: Pool,
  id: string,
  reveal: boolean,
  box: SecretBox | undefined,
): Promise<Connection> {
  const { rows } = await pool.query<ConnectionRow>(`${SELECT} AND c.id = $1`, [id]);
  if (!rows[0]) throw new HttpError(404, `connection ${id} was not found`, 'id');
  return toConnection(rows[0], reveal, box);
}

/** The form values an input carries, to check the catalogue's required fields. */
function inputValues(input: ConnectionInputParsed): ConnectionFormValues {
  const values: ConnectionFormValues = { ...(input.properties ?? {}) };
  for (const column of CONNECTION_SECRET_FIELDS)
    if (input[column] !== undefined) values[column] = input[column];
  values.insecure_tls = input.insecure_tls ?? false;
  return values;
}

/** Refuses an input the catalogue does not accept: 400 naming the field. */
export function checkConnectionInput(input: ConnectionInputParsed, creating: boolean): void {
  const type = connectionTypeOf(input.type);
  if (!type)
    throw new HttpError(400, `type: "${input.type}" is not a connection type of the catalogue`, 'type');
  const missing = missingConnectionField(type, inputValues(input));
  if (missing) throw new HttpError(400, `${missing.field}: ${missing.message}`, missing.field);
  if (creating) {
    for (const column of CONNECTION_SECRET_FIELDS)
      if (input[column] === CONNECTION_MASK)
        throw new HttpError(
          400,
          `${column}: send the value itself, not the mask, for a new connection`,
          column,
        );
    for (const [key, value] of Object.entries(input.properties ?? {}))
      if (value === CONNECTION_MASK)
        throw new HttpError(
          400,
          `properties.${key}: send the value itself, not the mask, for a new connection`,
          `properties.${key}`,
        );
  }
}

/** A value as its column stores it: static text (sealed below), or a Secret/ConfigMap reference. */
function columnOf(value: ConnectionValue | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  const from = value.valueFrom;
  if ('secretKeyRef' in from) return `secret://${from.secretKeyRef.name}/${from.secretKeyRef.key}`;
  return `configmap://${from.configMapKeyRef.name}/${from.configMapKeyRef.key}`;
}

function rowOf(input: ConnectionInputParsed, box: SecretBox): Record<string, unknown> {
  const row: Record<string, unknown> = {
    name: input.name,
    namespace: input.namespace,
    type: connectionTypeOf(input.type)?.type ?? input.type,
    insecure_tls: input.insecure_tls ?? false,
    properties: input.properties ?? {},
  };
  for (const column of CONNECTION_SECRET_FIELDS)
    row[column] = columnOf(input[column] as ConnectionValue | undefined);
  return sealRowSecrets('connections', row, box);
}

function requireBox(box: SecretBox | undefined): SecretBox {
  if (!box) throw new HttpError(503, 'connections cannot be saved: no secret key is configured');
  return box;
}

function conflict(error: unknown, input: ConnectionInputParsed): never {
  if ((error as { code?: string }).code === '23505')
    throw new HttpError(409, `name: a connection ${input.namespace}/${input.name} already exists`, 'name');
  throw error;
}

export async function createConnection(
  pool: Pool,
  input: ConnectionInputParsed,
  createdBy: string | undefined,
  box: SecretBox | undefined,
): Promise<string> {
  checkConnectionInput(input, true);
  const row = rowOf(input, requireBox(box));
  try {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO connections (name, namespace, type, url, username, password, certificate, insecure_tls,
                                properties, spec, source, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'UI', $11) RETURNING id`,
      [
        row.name,
        row.namespace,
        row.type,
        row.url,
        row.username,
        row.password,
        row.certificate,
        row.insecure_tls,
        JSON.stringify(row.properties),
        JSON.stringify({ type: row.type }),
        createdBy ?? null,
      ],
    );
    return rows[0].id;
  } catch (error) {
    return conflict(error, input);
  }
}

/** Updates a connection; a masked value sent back keeps the stored secret (migration 0098's trigger). */
export async function updateConnection(
  pool: Pool,
  id: string,
  input: ConnectionInputParsed,
  box: SecretBox | undefined,
): Promise<void> {
  checkConnectionInput(input, false);
  const row = rowOf(input, requireBox(box));
  try {
    const { rowCount } = await pool.query(
      `UPDATE connections SET name = $2, namespace = $3, type = $4, url = $5, username = $6, password = $7,
              certificate = $8, insecure_tls = $9, properties = $10, spec = $11,
              last_test_status = NULL, last_test_at = NULL, last_test_message = NULL
        WHERE id = $1 AND deleted_at IS NULL`,
      [
        id,
        row.name,
        row.namespace,
        row.type,
        row.url,
        row.username,
        row.password,
        row.certificate,
        row.insecure_tls,
        JSON.stringify(row.properties),
        JSON.stringify({ type: row.type }),
      ],
    );
    if (rowCount === 0) throw new HttpError(404, `connection ${id} was not found`, 'id');
  } catch (error) {
    conflict(error, input);
  }
}

export async function deleteConnection(pool: Pool, id: string): Promise<void> {
  const { rowCount } = await pool.query(
    'UPDATE connections SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  if (rowCount === 0) throw new HttpError(404, `connection ${id} was not found`, 'id');
}

export async function recordConnectionTest(
  pool: Pool,
  id: string,
  outcome: { status: string; message: string },
): Promise<void> {
  await pool.query(
    `UPDATE connections SET last_test_status = $2, last_test_at = now(), last_test_message = $3
            WHERE id = $1`,
    [id, outcome.status, outcome.message],
  );
}

/** The stored secrets, for values sent back masked when a form tests before saving. */
export type StoredColumn = Column;
