import type { Pool } from '../../platform/db/pool.js';
import { openSealedStrings } from '../../platform/secret-fields.js';
import { DEFAULT_NAMESPACE } from './validation.js';
import type { SecretBox } from '../../resource-kinds/index.js';
import { ValueFromError, type ValueFromResolver } from './value-from.js';

/** A stored connection with its credentials in clear, for the check that uses it. */
export interface OpenedConnection {
  name: string;
  namespace: string;
  type?: string;
  url?: string;
  username?: string;
  password?: string;
  certificate?: string;
  insecureTls?: boolean;
  properties?: Record<string, string>;
}

export type ConnectionResolver = (reference: string) => Promise<OpenedConnection | undefined>;

interface ConnectionRow {
  name: string;
  namespace: string;
  type: string | null;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean | null;
  properties: Record<string, unknown> | null;
}

/** `connection://namespace/name`, `connection://name` or `name` (namespace default). */
export function parseConnectionReference(reference: string): { namespace: string; name: string } {
  const text = reference.trim().replace(/^connection:\/\//, '');
  const slash = text.indexOf('/');
  if (slash < 0) return { namespace: DEFAULT_NAMESPACE, name: text };
  return { namespace: text.slice(0, slash) || DEFAULT_NAMESPACE, name: text.slice(slash + 1) };
}

/**
 * Looks up named connections for checks (`connection: connection://namespace/name`): inline
 * credentials are opened with the SecretBox, and `secret://name/key` / `configmap://name/key`
 * references (a connection field written with `valueFrom`) are read from the Secret and
 * ConfigMap resources of the connection's namespace. Undefined when there is no such connection.
 */
export function createConnectionResolver(
  pool: Pool,
  secrets: SecretBox | undefined,
  resolveValueFrom: ValueFromResolver,
): ConnectionResolver {
  return async (reference) => {
    const { namespace, name } = parseConnectionReference(reference);
    if (name === '') return undefined;
    const { rows } = await pool.query<ConnectionRow>(
      `SELECT name, namespace, type, url, username, password, certificate, insecure_tls, properties
         FROM connections WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
      [namespace, name],
    );
    const row = rows[0];
    if (!row) return undefined;
    const open = async (field: string, stored: string | null): Promise<string | undefined> => {
      if (stored === null || stored === '') return undefined;
      const ref = /^(secret|configmap):\/\/([^/]+)\/(.+)$/.exec(stored);
      if (ref) {
        const keyRef = { name: ref[2], key: ref[3] };
        try {
          return await resolveValueFrom(
            ref[1] === 'secret' ? { secretKeyRef: keyRef } : { configMapKeyRef: keyRef },
            row.namespace,
          );
        } catch (error) {
          throw new ValueFromError(
            `connection ${row.namespace}/${row.name} ${field}: ${(error as Error).message}`,
          );
        }
      }
      if (!secrets)
        throw new ValueFromError(
          `connection ${row.namespace}/${row.name} ${field}: no secret key is configured`,
        );
      try {
        return secrets.open(stored);
      } catch {
        throw new ValueFromError(
          `connection ${row.namespace}/${row.name} ${field} cannot be opened with this SECRET_KEY`,
        );
      }
    };
    let opened: Record<string, unknown>;
    try {
      opened = (openSealedStrings(row.properties ?? {}, secrets) ?? {}) as Record<string, unknown>;
    } catch {
      throw new ValueFromError(
        `connection ${row.namespace}/${row.name} properties cannot be opened with this SECRET_KEY`,
      );
    }
    const properties = Object.fromEntries(Object.entries(opened).map(([key, value]) => [key, String(value)]));
    return {
      name: row.name,
      namespace: row.namespace,
      type: row.type ?? undefined,
      url: await open('url', row.url),
      username: await open('username', row.username),
      password: await open('password', row.password),
      certificate: await open('certificate', row.certificate),
      insecureTls: row.insecure_tls ?? undefined,
      properties,
    };
  };
}
