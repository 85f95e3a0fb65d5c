import { z } from 'zod';
import { defineResourceKind, sealed, type JsonObject } from '../../../resource-kinds/index.js';
import { stableStringify } from '../../../platform/stable-hash.js';

/** Kubernetes' key names: letters, digits, `-`, `_` and `.`. */
export const DATA_KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;
const DATA_KEY_MESSAGE = 'keys may contain only letters, digits, "-", "_" and "."';

export const dataKeyField = z.string().min(1).max(253).regex(DATA_KEY_PATTERN, DATA_KEY_MESSAGE);

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Plain values: strings, or numbers and booleans YAML read from unquoted text. */
export const plainValueField = z.union([z.string(), z.number(), z.boolean()]);

/**
 * `apiVersion: v1, kind: Secret` as Kubernetes writes it: `data` (base64) and `stringData`
 * (plain text; wins over `data` for the same key), `type` (default Opaque), `immutable`.
 * Messages never quote a value.
 */
export const secretSpec = z.looseObject({
  type: z.string().min(1).optional(),
  immutable: z.boolean().optional(),
  data: z
    .record(
      dataKeyField,
      z.string().regex(BASE64_PATTERN, 'must be base64-encoded (write plain text under stringData instead)'),
    )
    .nullish(),
  stringData: z.record(dataKeyField, plainValueField).nullish(),
});
export type SecretSpec = z.infer<typeof secretSpec>;

/** The Secret's values in clear, `stringData` over `data`, as Kubernetes merges them. */
export function secretValues(spec: SecretSpec): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, encoded] of Object.entries(spec.data ?? {})) {
    values[key] = Buffer.from(encoded, 'base64').toString('utf8');
  }
  for (const [key, value] of Object.entries(spec.stringData ?? {})) values[key] = String(value);
  return values;
}

export const SECRET_DOCUMENT_FIELDS = ['type', 'immutable', 'data', 'stringData'] as const;

/**
 * Secret (`v1`): values that `valueFrom.secretKeyRef` reads. They are sealed with the platform
 * SecretBox into one column (`data`, a JSON object); `keys` lists their names and the stored
 * spec keeps only `type` and `immutable`, so no value is ever stored or served in clear.
 */
export const secretKind = defineResourceKind({
  kind: 'Secret',
  apiVersions: ['v1'],
  plural: 'secrets',
  table: 'secrets',
  documentFields: SECRET_DOCUMENT_FIELDS,
  listColumn: { header: 'KEYS', sql: "array_to_string(keys, ',')" },
  spec: secretSpec,
  columns: (spec) => {
    const values = secretValues(spec);
    return {
      type: spec.type ?? 'Opaque',
      keys: Object.keys(values).sort(),
      data: sealed(stableStringify(values)),
    };
  },
  storedSpec: (written) => {
    const { data: _data, stringData: _stringData, ...rest } = written;
    return rest as JsonObject;
  },
});
