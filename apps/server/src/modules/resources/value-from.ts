import type { Pool } from '../../platform/db/pool.js';
import type { SecretBox } from '../../resource-kinds/index.js';

/** A `valueFrom` reference (the ecosystem's EnvVar source). */
export interface ValueFromReference {
  secretKeyRef?: { name: string; key: string };
  configMapKeyRef?: { name: string; key: string };
}

/**
 * A reference that cannot be resolved: the secret or config map, or its key, is missing (or the
 * secret cannot be opened). The message names the resource and key, never a value.
 */
export class ValueFromError extends Error {
  override readonly name = 'ValueFromError';
}

export type ValueFromResolver = (reference: ValueFromReference, namespace: string) => Promise<string>;

function parseValues(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

/**
 * Resolves `valueFrom.secretKeyRef` / `configMapKeyRef` against the Secret and ConfigMap
 * resources of the referencing resource's namespace. Every call reads the database, so a Secret
 * applied or changed is used by the next check run.
 */
export function createValueFromResolver(pool: Pool, secrets: SecretBox | undefined): ValueFromResolver {
  return async (reference, namespace) => {
    if (reference.secretKeyRef) {
      const { name, key } = reference.secretKeyRef;
      const { rows } = await pool.query<{ data: string | null }>(
        'SELECT data FROM secrets WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL',
        [namespace, name],
      );
      if (rows.length === 0)
        throw new ValueFromError(`secret "${name}" was not found in namespace "${namespace}"`);
      if (!secrets) throw new ValueFromError(`secret "${name}" cannot be read: no secret key is configured`);
      let values: Record<string, unknown>;
      try {
        values = rows[0].data === null ? {} : parseValues(secrets.open(rows[0].data));
      } catch {
        throw new ValueFromError(
          `secret "${name}" in namespace "${namespace}" cannot be opened with this SECRET_KEY`,
        );
      }
      const value = values[key];
      if (typeof value !== 'string')
        throw new ValueFromError(`key "${key}" was not found in secret "${name}" (namespace "${namespace}")`);
      return value;
    }
    if (reference.configMapKeyRef) {
      const { name, key } = reference.configMapKeyRef;
      const { rows } = await pool.query<{ data: Record<string, unknown> | null }>(
        'SELECT data FROM config_maps WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL',
        [namespace, name],
      );
      if (rows.length === 0)
        throw new ValueFromError(`config map "${name}" was not found in namespace "${namespace}"`);
      const value = (rows[0].data ?? {})[key];
      if (typeof value !== 'string')
        throw new ValueFromError(
          `key "${key}" was not found in config map "${name}" (namespace "${namespace}")`,
        );
      return value;
    }
    throw new ValueFromError('valueFrom needs secretKeyRef or configMapKeyRef');
  };
}
