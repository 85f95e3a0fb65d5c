import { z } from 'zod';

// Resources through the API (API.md §2): Secrets and ConfigMaps applied, listed and deleted at
// /api/resources, and the JSON Schemas of the kinds' specs at /api/schemas.

/** The names `/api/resources/{kind}` answers to (case-insensitive): the kinds' names, plurals and tables. */
export const RESOURCE_VALUE_KIND_NAMES = [
  'secret',
  'secrets',
  'configmap',
  'configmaps',
  'config_maps',
] as const;

const kindSchema = z
  .string()
  .refine((name) => (RESOURCE_VALUE_KIND_NAMES as readonly string[]).includes(name.trim().toLowerCase()), {
    error: (issue) =>
      `kind: "${String(issue.input)}" is not a resource kind of this API (use secrets or configmaps)`,
  });

/** `GET /api/resources/:kind`. */
export const resourceKindParamsSchema = z.object({ kind: kindSchema });

/** `DELETE /api/resources/:kind/:namespace/:name`. */
export const resourceParamsSchema = z.object({
  kind: kindSchema,
  namespace: z.string(),
  name: z.string().min(1, 'name: a resource name is required'),
});

/**
 * The body of `POST /api/resources`: YAML text (`text/yaml`), `{"yaml": "..."}`, one resource
 * document or a list of them (checked per document on apply).
 */
export const resourceApplyRequestSchema = z.union(
  [z.string(), z.array(z.record(z.string(), z.unknown())).min(1), z.record(z.string(), z.unknown())],
  { error: 'the body must be YAML text, {"yaml": "..."}, a resource document or a list of them' },
);

export const RESOURCE_APPLY_STATUSES = [
  'created',
  'updated',
  'unchanged',
  'conflict',
  'invalid',
  'failed',
] as const;
export const resourceApplyStatusSchema = z.enum(RESOURCE_APPLY_STATUSES);

/** What a client sees of one applied document: never a value, only the resource and its problems. */
export const resourceApplyResultSchema = z.object({
  status: resourceApplyStatusSchema,
  /** The document's number in the request, from 1. */
  document: z.number(),
  /** `secret/default/db`, when the document says what it is. */
  key: z.string().optional(),
  id: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  message: z.string().optional(),
});
export type ResourceApplyResult = z.infer<typeof resourceApplyResultSchema>;

/** The body of a `POST /api/resources` that stored every document (a refusal adds `error`). */
export const resourceApplyResponseSchema = z.object({ results: z.array(resourceApplyResultSchema) });
export type ResourceApplyResponse = z.infer<typeof resourceApplyResponseSchema>;

const resourceListFields = {
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()),
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** A Secret of `GET /api/resources/secrets`: its type and key names, never a value. */
export const secretListItemSchema = z.object({
  ...resourceListFields,
  kind: z.literal('Secret'),
  type: z.string(),
  keys: z.array(z.string()),
});
export type SecretListItem = z.infer<typeof secretListItemSchema>;

/** A ConfigMap of `GET /api/resources/configmaps`, with its data. */
export const configMapListItemSchema = z.object({
  ...resourceListFields,
  labels: z.record(z.string(), z.string()).nullable(),
  kind: z.literal('ConfigMap'),
  data: z.record(z.string(), z.string()),
});
export type ConfigMapListItem = z.infer<typeof configMapListItemSchema>;

/** The body of `GET /api/resources/:kind`. */
export const resourceListResponseSchema = z.union([
  z.array(secretListItemSchema),
  z.array(configMapListItemSchema),
]);

/** `GET /api/schemas/:kind.schema.json`: the kind's name (lower-case, plural, table or an editor's `canary.spec`). */
export const resourceSchemaParamsSchema = z.object({
  kind: z.string().trim().min(1, 'kind: a resource kind is required'),
});

/** A JSON Schema document (draft 2020-12) of a kind's spec. */
export const resourceSpecJsonSchemaSchema = z
  .object({
    $schema: z.string(),
    $id: z.string(),
    title: z.string(),
    description: z.string(),
    type: z.literal('object'),
  })
  .loose();
