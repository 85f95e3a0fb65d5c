import { z } from 'zod';
import {
  defineResourceKind,
  sealed,
  type JsonObject,
  type SealedValue,
  valueSourceField,
  type ValueSource,
} from '../../../resource-kinds/index.js';

/** Credential fields stored encrypted (or as a reference), never in clear. */
export const CONNECTION_SECRET_FIELDS = ['url', 'username', 'password', 'certificate'] as const;

/**
 * Typed blocks the ecosystem's Connection spec may carry instead of `type`; the first one
 * present names the connection's type.
 */
export const CONNECTION_TYPED_BLOCKS = [
  'anthropic',
  'aws',
  'awskms',
  'azure',
  'azuredevops',
  'azurekeyvault',
  'discord',
  'folder',
  'gcp',
  'gcpkms',
  'gcs',
  'git',
  'github',
  'gitlab',
  'http',
  'kubernetes',
  'loki',
  'mongo',
  'mssql',
  'mysql',
  'ntfy',
  'ollama',
  'openai',
  'opensearch',
  'postgres',
  'prometheus',
  'pushbullet',
  'pushover',
  's3',
  'sftp',
  'slack',
  'smb',
  'smtp',
  'telegram',
] as const;

/**
 * Connection (`mission-control.flanksource.com/v1`): credentials for an external system.
 * `url`, `username`, `password` and `certificate` are each a string, `{value}` or `{valueFrom:
 * {secretKeyRef|configMapKeyRef: {name, key}}}`.
 */
export const connectionSpec = z
  .looseObject({
    type: z.string().min(1).optional(),
    url: valueSourceField.optional(),
    username: valueSourceField.optional(),
    password: valueSourceField.optional(),
    certificate: valueSourceField.optional(),
    insecure_tls: z.boolean().optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .superRefine((spec, context) => {
    if (spec.type === undefined && typedBlockOf(spec) === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: `is required unless the spec has a typed block such as ${CONNECTION_TYPED_BLOCKS.slice(0, 6).join(', ')}`,
      });
    }
  });

function typedBlockOf(spec: Record<string, unknown>): string | undefined {
  return CONNECTION_TYPED_BLOCKS.find((key) => typeof spec[key] === 'object' && spec[key] !== null);
}

function inlineValue(source: ValueSource | undefined): string | undefined {
  if (typeof source === 'string') return source;
  return source?.value;
}

/** The column value: the inline value sealed, else a `secret://` or `configmap://` reference. */
function credentialColumn(source: ValueSource | undefined): SealedValue | string | null {
  const inline = inlineValue(source);
  if (inline !== undefined && inline !== '') return sealed(inline);
  if (typeof source === 'object') {
    const { secretKeyRef, configMapKeyRef } = source.valueFrom ?? {};
    if (secretKeyRef) return `secret://${secretKeyRef.name}/${secretKeyRef.key}`;
    if (configMapKeyRef) return `configmap://${configMapKeyRef.name}/${configMapKeyRef.key}`;
  }
  return null;
}

export const connectionKind = defineResourceKind({
  kind: 'Connection',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'connections',
  table: 'connections',
  spec: connectionSpec,
  columns: (spec) => ({
    type: spec.type ?? typedBlockOf(spec),
    url: credentialColumn(spec.url),
    username: credentialColumn(spec.username),
    password: credentialColumn(spec.password),
    certificate: credentialColumn(spec.certificate),
    insecure_tls: spec.insecure_tls ?? false,
    properties: spec.properties ?? null,
  }),
  // Inline credentials live only in their sealed columns; references stay in the spec.
  storedSpec: (written) => {
    const stored: JsonObject = { ...written };
    for (const field of CONNECTION_SECRET_FIELDS) {
      const value = stored[field];
      if (typeof value === 'string') {
        delete stored[field];
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value) {
        const { value: _inline, ...reference } = value;
        if (Object.keys(reference).length === 0) delete stored[field];
        else stored[field] = reference;
      }
    }
    return stored;
  },
});
