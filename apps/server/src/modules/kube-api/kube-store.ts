/**
 * Reads and writes for the Kubernetes-shaped API, on the resources module's store: rows carry a
 * resourceVersion (the row's update time in microseconds), and writes go through the same
 * validation and storage as every other way in.
 */
import type { Pool } from '../../platform/db/pool.js';
import { maskSealedStrings } from '../../platform/secret-fields.js';
import type { ResourceKind, SecretBox } from '../../resource-kinds/index.js';
import {
  API_SOURCE,
  applyResource,
  deleteResource,
  validateResource,
  type ValidResource,
} from '../resources/index.js';
import type { Json } from './json-patch.js';
import {
  invalid,
  KubeStatusError,
  KUBERNETES_SOURCE,
  qualifiedResource,
  type KubeRow,
} from './kube-objects.js';

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** Live rows of a kind, optionally in one namespace and with one name. Secret fields masked. */
export async function readRows(
  pool: Pool,
  kind: ResourceKind,
  filter: { namespace?: string; name?: string } = {},
): Promise<KubeRow[]> {
  const { rows } = await pool.query<KubeRow>(
    `SELECT id, name, namespace, COALESCE(labels, '{}'::jsonb) AS labels, COALESCE(spec, '{}'::jsonb) AS spec,
            source, created_at,
            floor(extract(epoch FROM updated_at) * 1000000)::bigint::text AS resource_version
            ${kind.listColumn ? `, ${kind.listColumn.sql} AS listed` : ''}
       FROM ${quoted(kind.table)}
      WHERE deleted_at IS NULL
        AND ($1::text IS NULL OR namespace = $1)
        AND ($2::text IS NULL OR name = $2)
      ORDER BY namespace, name`,
    [filter.namespace ?? null, filter.name ?? null],
  );
  // Sealed values never leave the server through this API, whoever asks.
  return rows.map((row) => ({ ...row, spec: maskSealedStrings(row.spec) as Record<string, Json> }));
}

/** The namespaces that live resources of these kinds are in (one DISTINCT read per table). */
export async function namespacesInUse(pool: Pool, kinds: readonly ResourceKind[]): Promise<string[]> {
  const tables = [...new Set(kinds.map((kind) => kind.table))];
  const { rows } = await pool.query<{ namespace: string }>(
    tables.map((table) => `SELECT namespace FROM ${quoted(table)} WHERE deleted_at IS NULL`).join(' UNION ') +
      ' ORDER BY namespace',
  );
  return rows.map((row) => row.namespace);
}

/** Sources whose resources the API may change: not those a file or directory owns. */
export function apiManaged(source: string): boolean {
  return source === API_SOURCE || source === KUBERNETES_SOURCE || source.startsWith('demo/');
}

export function refuseFileOwned(kind: ResourceKind, row: KubeRow): void {
  if (!apiManaged(row.source))
    throw new KubeStatusError(
      409,
      'Conflict',
      `${qualifiedResource(kind)} "${row.name}" is managed by "${row.source}": change it there`,
      { name: row.name, kind: kind.plural },
    );
}

/** Validates an object as the resources module does; a refusal is a 422 naming each field. */
export function validObject(kind: ResourceKind, object: Json, name: string): ValidResource {
  const validation = validateResource({
    origin: { file: 'kubernetes-api', document: 1 },
    content: object,
    yamlErrors: [],
  });
  if (!validation.ok)
    throw invalid(
      kind,
      name,
      validation.issues.map((issue) => ({
        field: issue.path,
        message: issue.message,
        reason: 'FieldValueInvalid',
      })),
    );
  if (validation.resource.definition !== kind)
    throw new KubeStatusError(
      400,
      'BadRequest',
      `the object is a ${validation.resource.definition.kind}, but this path serves ${kind.kind}`,
    );
  return validation.resource;
}

export async function storeObject(
  pool: Pool,
  resource: ValidResource,
  options: { source: string; secrets?: SecretBox },
): Promise<string> {
  const result = await applyResource(pool, resource, {
    source: options.source,
    force: true,
    secrets: options.secrets,
  });
  if (result.status === 'failed')
    throw new KubeStatusError(500, 'InternalError', result.message ?? 'the resource could not be stored');
  if (!result.id) throw new KubeStatusError(500, 'InternalError', 'the resource was not stored');
  return result.id;
}

export async function removeObject(
  pool: Pool,
  kind: ResourceKind,
  namespace: string,
  name: string,
): Promise<void> {
  await deleteResource(pool, kind.kind, namespace, name);
}
