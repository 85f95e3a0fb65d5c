import { withTransaction, type Pool, type PoolClient } from '../../platform/db/pool.js';
import type { DocumentOrigin, ResourceDocument } from './documents.js';
import { resourceKinds, findResourceKind, resolveResourceKind } from './registry.js';
import { sealSecretFields } from '../../platform/secret-fields.js';
import { openedSpec, SEALED_SPEC_TABLES } from './sealed-specs.js';
import {
  isSealedValue,
  type JsonObject,
  type ResourceKind,
  type SecretBox,
} from '../../resource-kinds/index.js';
import { stableHash } from '../../platform/stable-hash.js';
import {
  resourceKey,
  validateResource,
  type ResourceIdentity,
  type ValidationIssue,
  type ValidResource,
} from './validation.js';

/**
 * - `created`, `updated`, `unchanged`: the resource is stored as written.
 * - `conflict`: a resource with that kind, namespace and name belongs to another source (made
 *   in the UI, or applied from another file) and `force` was not given; nothing was written.
 * - `invalid`: the document failed validation (see `issues`); nothing was written.
 * - `failed`: the database refused the write (see `message`).
 */
export type ApplyStatus = 'created' | 'updated' | 'unchanged' | 'conflict' | 'invalid' | 'failed';

export interface ApplyResult {
  status: ApplyStatus;
  origin: DocumentOrigin;
  /** `canary/default/api-health`, when the document says what it is. */
  key?: string;
  identity?: ResourceIdentity;
  /** Row id, for created, updated, unchanged and conflict. */
  id?: string;
  /** The source that owns the resource, for a conflict. */
  ownerSource?: string;
  issues?: ValidationIssue[];
  message?: string;
}

export interface ApplyOptions {
  /**
   * Recorded in the rows' `source` column: the file path, `demo/teams.yaml`, ... A function
   * gives each document its own (the CLI applies several files at once).
   */
  source: string | ((origin: DocumentOrigin) => string);
  /**
   * Take over resources that belong to another source. Without it a resource created in the
   * UI (source `UI`) or applied from another file is reported as a conflict and left alone.
   */
  force?: boolean;
  /** Encrypts connection credentials; applying a Connection with inline ones fails without it. */
  secrets?: SecretBox;
}

export interface StoredResource {
  id: string;
  kind: string;
  apiVersion: string;
  name: string | null;
  namespace: string;
  labels: Record<string, string>;
  spec: JsonObject;
  source: string;
  created_at: Date;
  updated_at: Date;
  /** The kind's `listColumn` value, when it has one. */
  listed?: string | null;
}

export interface DeletedResource extends ResourceIdentity {
  id: string;
  source: string;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Serialises concurrent applies of one resource across processes (replicas loading one dir). */
async function lockResource(
  client: PoolClient,
  table: string,
  namespace: string,
  name: string,
): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `opsdeck.resource:${table}:${namespace}:${name}`,
  ]);
}

interface RowImage {
  /** Columns written as given (the database converts JSON to the column types). */
  plain: Record<string, unknown>;
  /** Columns whose plaintext must be sealed before writing. */
  secret: Record<string, string>;
}

function rowImage(resource: ValidResource, source: string): RowImage {
  const { definition } = resource;
  const image: RowImage = {
    plain: {
      name: resource.name,
      namespace: resource.namespace,
      labels: resource.labels,
      spec: definition.storedSpec ? definition.storedSpec(resource.spec) : resource.spec,
      source,
    },
    secret: {},
  };
  for (const [column, value] of Object.entries(definition.columns(resource.parsedSpec))) {
    if (value === undefined) continue;
    if (isSealedValue(value)) image.secret[column] = value.sealed;
    else image.plain[column] = value;
  }
  return image;
}

function pick(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [column, row[column] ?? null]));
}

function openOrNull(secrets: SecretBox, stored: unknown): string | null {
  if (typeof stored !== 'string') return null;
  try {
    return secrets.open(stored);
  } catch {
    return null;
  }
}

/**
 * Stores one validated resource: inserts it, updates it when anything it would write differs
 * from the stored row (compared by a stable hash of those columns), or reports it unchanged.
 * One transaction; concurrent applies of the same resource are serialised.
 */
export async function applyResource(
  pool: Pool,
  resource: ValidResource,
  options: { source: string; force?: boolean; secrets?: SecretBox },
): Promise<ApplyResult> {
  const { definition, origin } = resource;
  const identity = { kind: definition.kind, namespace: resource.namespace, name: resource.name };
  const key = resourceKey(identity);
  const image = rowImage(resource, options.source);
  const secretColumns = Object.keys(image.secret);
  const { secrets } = options;
  if (secretColumns.length > 0 && !secrets) {
    return {
      status: 'failed',
      origin,
      key,
      identity,
      message: `cannot store ${secretColumns.join(', ')}: no secret key is configured to encrypt them`,
    };
  }
  // Secret-shaped fields of the spec are sealed too, for the tables whose specs hold them.
  const sealsSpec = secrets !== undefined && SEALED_SPEC_TABLES.has(definition.table);
  const sealedImage = (): Record<string, unknown> => {
    const values = { ...image.plain };
    if (sealsSpec && values.spec !== null && typeof values.spec === 'object')
      values.spec = sealSecretFields(values.spec, secrets);
    for (const [column, plaintext] of Object.entries(image.secret)) values[column] = secrets!.seal(plaintext);
    return values;
  };
  const table = quoteIdentifier(definition.table);
  const plainColumns = Object.keys(image.plain);
  const allColumns = [...plainColumns, ...secretColumns];
  const columnList = allColumns.map(quoteIdentifier).join(', ');

  try {
    return await withTransaction(pool, async (client) => {
      await lockResource(client, definition.table, resource.namespace, resource.name);
      // The wanted row goes through the same type conversion as the stored one, so that
      // timestamps, arrays and jsonb compare equal when they mean the same.
      const { rows } = await client.query<{
        id: string;
        source: string;
        stored: Record<string, unknown>;
        wanted: Record<string, unknown>;
      }>(
        `SELECT t.id, t.source, to_jsonb(t) AS stored,
                to_jsonb(jsonb_populate_record(NULL::${table}, $3::jsonb)) AS wanted
           FROM ${table} t
          WHERE t.namespace = $1 AND t.name = $2 AND t.deleted_at IS NULL
          FOR UPDATE`,
        [resource.namespace, resource.name, JSON.stringify(image.plain)],
      );
      const existing = rows[0];
      if (!existing) {
        const inserted = await client.query<{ id: string }>(
          `INSERT INTO ${table} (${columnList})
           SELECT ${columnList} FROM jsonb_populate_record(NULL::${table}, $1::jsonb)
           RETURNING id`,
          [JSON.stringify(sealedImage())],
        );
        return { status: 'created', origin, key, identity, id: inserted.rows[0].id };
      }
      if (existing.source !== options.source && !options.force) {
        return {
          status: 'conflict',
          origin,
          key,
          identity,
          id: existing.id,
          ownerSource: existing.source,
          message: `${key} belongs to source "${existing.source}"; not changed (force to take it over)`,
        };
      }
      const storedSecrets = Object.fromEntries(
        secretColumns.map((column) => [column, openOrNull(secrets!, existing.stored[column])]),
      );
      const storedPlain = pick(existing.stored, plainColumns);
      if (sealsSpec && 'spec' in storedPlain) storedPlain.spec = openedSpec(storedPlain.spec, secrets);
      const storedHash = stableHash({ ...storedPlain, ...storedSecrets });
      const wantedHash = stableHash({ ...pick(existing.wanted, plainColumns), ...image.secret });
      if (storedHash === wantedHash) return { status: 'unchanged', origin, key, identity, id: existing.id };
      await client.query(
        `UPDATE ${table} SET (${columnList}) =
           (SELECT ${columnList} FROM jsonb_populate_record(NULL::${table}, $2::jsonb))
         WHERE id = $1`,
        [existing.id, JSON.stringify(sealedImage())],
      );
      return { status: 'updated', origin, key, identity, id: existing.id };
    });
  } catch (error) {
    return { status: 'failed', origin, key, identity, message: (error as Error).message };
  }
}

/**
 * Validates and stores each document in order, one transaction per document: an invalid or
 * conflicting document does not stop the others. Returns one result per document.
 */
export async function applyResources(
  pool: Pool,
  documents: readonly ResourceDocument[],
  options: ApplyOptions,
): Promise<ApplyResult[]> {
  const results: ApplyResult[] = [];
  for (const document of documents) {
    const validation = validateResource(document);
    if (!validation.ok) {
      const { identity } = validation;
      results.push({
        status: 'invalid',
        origin: document.origin,
        identity,
        key: identity ? resourceKey(identity) : undefined,
        issues: validation.issues,
      });
      continue;
    }
    const source = typeof options.source === 'function' ? options.source(document.origin) : options.source;
    results.push(await applyResource(pool, validation.resource, { ...options, source }));
  }
  return results;
}

/** The live (not deleted) resources of a kind, by namespace and name. */
export async function listResources(pool: Pool, kindName: string): Promise<StoredResource[]> {
  const definition = resolveResourceKind(kindName);
  const { rows } = await pool.query<Omit<StoredResource, 'kind' | 'apiVersion'>>(
    `SELECT id, name, namespace, COALESCE(labels, '{}'::jsonb) AS labels, COALESCE(spec, '{}'::jsonb) AS spec,
            source, created_at, updated_at${definition.listColumn ? `, ${definition.listColumn.sql} AS listed` : ''}
       FROM ${quoteIdentifier(definition.table)}
      WHERE deleted_at IS NULL
      ORDER BY namespace, name`,
  );
  return rows.map((row) => ({ ...row, kind: definition.kind, apiVersion: definition.apiVersions[0] }));
}

/** A stored resource as the YAML document that would recreate it. */
export function toResourceManifest(resource: StoredResource): JsonObject {
  const metadata = {
    name: resource.name,
    namespace: resource.namespace,
    ...(Object.keys(resource.labels).length > 0 ? { labels: resource.labels } : {}),
  };
  const head = { apiVersion: resource.apiVersion, kind: resource.kind, metadata };
  // Secret, ConfigMap: the fields sit at the top level (a Secret's stored spec holds no values).
  if (findResourceKind(resource.kind)?.documentFields) return { ...head, ...resource.spec };
  return { ...head, spec: resource.spec };
}

/** Soft-deletes one live resource; false when there was none. */
export async function deleteResource(
  pool: Pool,
  kindName: string,
  namespace: string,
  name: string,
): Promise<boolean> {
  const definition = resolveResourceKind(kindName);
  const { rowCount } = await pool.query(
    `UPDATE ${quoteIdentifier(definition.table)} SET deleted_at = now()
      WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
    [namespace, name],
  );
  return (rowCount ?? 0) > 0;
}

async function softDeleteEach(
  pool: Pool,
  condition: string,
  parameters: (definition: ResourceKind) => unknown[],
): Promise<DeletedResource[]> {
  const deleted: DeletedResource[] = [];
  for (const definition of resourceKinds()) {
    const { rows } = await pool.query<{ id: string; namespace: string; name: string; source: string }>(
      `UPDATE ${quoteIdentifier(definition.table)} t SET deleted_at = now()
        WHERE t.deleted_at IS NULL AND ${condition}
        RETURNING t.id, t.namespace, t.name, t.source`,
      parameters(definition),
    );
    deleted.push(...rows.map((row) => ({ ...row, kind: definition.kind })));
  }
  return deleted;
}

/**
 * Soft-deletes the resources of `source` that are not in `keep`: a document removed from a
 * file removes its resource.
 */
export async function deleteResourcesMissingFromSource(
  pool: Pool,
  source: string,
  keep: readonly ResourceIdentity[],
): Promise<DeletedResource[]> {
  return softDeleteEach(
    pool,
    `t.source = $1 AND NOT EXISTS (
       SELECT 1 FROM unnest($2::text[], $3::text[]) AS k(namespace, name)
        WHERE k.namespace = t.namespace AND k.name = t.name)`,
    (definition) => {
      const kept = keep.filter((identity) => identity.kind === definition.kind);
      return [source, kept.map((identity) => identity.namespace), kept.map((identity) => identity.name)];
    },
  );
}

/**
 * Soft-deletes the resources whose source starts with `prefix` (a directory) but is none of
 * `presentSources` (the files still in it): a file removed removes its resources.
 */
export async function deleteResourcesOfVanishedSources(
  pool: Pool,
  prefix: string,
  presentSources: readonly string[],
): Promise<DeletedResource[]> {
  return softDeleteEach(pool, `starts_with(t.source, $1) AND NOT (t.source = ANY($2::text[]))`, () => [
    prefix,
    [...presentSources],
  ]);
}

/** Rows in every resource table, deleted ones included: zero only for a database never used. */
export async function countAllResources(db: Pool | PoolClient): Promise<number> {
  const counts = resourceKinds().map(
    (definition) => `(SELECT count(*) FROM ${quoteIdentifier(definition.table)})`,
  );
  const { rows } = await db.query<{ total: number }>(`SELECT ${counts.join(' + ')} AS total`);
  return Number(rows[0].total);
}
