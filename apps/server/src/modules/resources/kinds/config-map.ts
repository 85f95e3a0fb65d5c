import { z } from 'zod';
import { defineResourceKind } from '../../../resource-kinds/index.js';
import { dataKeyField, plainValueField } from './secret.js';

/** `apiVersion: v1, kind: ConfigMap`: `data` (key → text), `immutable`. */
export const configMapSpec = z.looseObject({
  immutable: z.boolean().optional(),
  data: z.record(dataKeyField, plainValueField).nullish(),
});
export type ConfigMapSpec = z.infer<typeof configMapSpec>;

/** The ConfigMap's values as text. */
export function configMapValues(spec: ConfigMapSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.data ?? {}).map(([key, value]) => [key, String(value)]));
}

/** ConfigMap (`v1`): plain values that `valueFrom.configMapKeyRef` reads. */
export const configMapKind = defineResourceKind({
  kind: 'ConfigMap',
  apiVersions: ['v1'],
  plural: 'configmaps',
  table: 'config_maps',
  documentFields: ['immutable', 'data'],
  listColumn: {
    header: 'KEYS',
    sql: "(SELECT string_agg(key, ',' ORDER BY key) FROM jsonb_object_keys(data) AS key)",
  },
  spec: configMapSpec,
  columns: (spec) => ({ data: configMapValues(spec) }),
});
