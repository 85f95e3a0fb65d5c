import { z } from 'zod';
import type { DocumentOrigin, ResourceDocument } from './documents.js';
import { kindForDocument, resourceKinds } from './registry.js';
import {
  type JsonObject,
  type ResourceKind,
  type SpecIssue,
  stringMapField,
} from '../../resource-kinds/index.js';

/** Namespace of a resource whose metadata names none. */
export const DEFAULT_NAMESPACE = 'default';

/** One problem of one document: `spec.schedule: Invalid schedule ...` in `file#2`. */
export interface ValidationIssue {
  file: string;
  document: number;
  /** Dotted field path (`spec.http[0].url`, `metadata.name`), empty for the whole document. */
  path: string;
  message: string;
}

/** A document that passed validation, ready to be stored. */
export interface ValidResource {
  definition: ResourceKind;
  apiVersion: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  /** The spec exactly as written, unknown fields included: what the `spec` column receives. */
  spec: JsonObject;
  /** The spec as the kind's schema parsed it (typed; used to derive columns). */
  parsedSpec: object;
  origin: DocumentOrigin;
}

export type ResourceValidation =
  | { ok: true; resource: ValidResource }
  | { ok: false; issues: ValidationIssue[]; identity?: ResourceIdentity };

/** What a document says it is, as far as it could be read. */
export interface ResourceIdentity {
  kind: string;
  namespace: string;
  name: string;
}

const NAME_PATTERN = /^[^\s/](?:[^/]*[^\s/])?$/;
const NAME_MESSAGE = 'must not contain "/" nor start or end with a space';

const envelopeSchema = z.looseObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  metadata: z.looseObject({
    name: z.string().min(1).max(253).regex(NAME_PATTERN, NAME_MESSAGE),
    namespace: z.string().max(253).regex(NAME_PATTERN, NAME_MESSAGE).optional(),
    labels: stringMapField.nullish(),
    annotations: stringMapField.nullish(),
  }),
  spec: z.unknown().optional(),
});

/** `spec.http[0].url`, `metadata.labels["app.kubernetes.io/name"]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$-]*$/.test(segment))
      text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

function issuesFrom(
  error: z.ZodError,
  origin: DocumentOrigin,
  prefix: readonly PropertyKey[],
): ValidationIssue[] {
  return error.issues.map((issue) => ({
    ...origin,
    path: formatFieldPath([...prefix, ...issue.path]),
    message: issue.message,
  }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one document: the envelope (apiVersion, kind, metadata.name), that the kind is
 * registered under that apiVersion, and the spec against the kind's schema. Every problem is
 * reported with its field path, document and file.
 */
export function validateResource(document: ResourceDocument): ResourceValidation {
  const { origin } = document;
  if (document.yamlErrors.length > 0) {
    return { ok: false, issues: document.yamlErrors.map((message) => ({ ...origin, path: '', message })) };
  }
  if (!isPlainObject(document.content)) {
    return {
      ok: false,
      issues: [
        {
          ...origin,
          path: '',
          message: 'a resource must be a mapping with apiVersion, kind, metadata and spec',
        },
      ],
    };
  }
  const envelope = envelopeSchema.safeParse(document.content);
  if (!envelope.success) return { ok: false, issues: issuesFrom(envelope.error, origin, []) };
  const { apiVersion, metadata } = envelope.data;
  const namespace = metadata.namespace || DEFAULT_NAMESPACE;
  const identity = { kind: envelope.data.kind, namespace, name: metadata.name };

  const found = kindForDocument(apiVersion, envelope.data.kind);
  if ('error' in found) {
    return { ok: false, identity, issues: [{ ...origin, path: 'kind', message: found.error }] };
  }
  const definition = found.kind;
  const { documentFields } = definition;
  let written: unknown;
  if (documentFields) {
    if (envelope.data.spec !== undefined) {
      return {
        ok: false,
        identity,
        issues: [
          {
            ...origin,
            path: 'spec',
            message: `${definition.kind} resources have no spec: write ${documentFields.join(', ')} at the top level`,
          },
        ],
      };
    }
    const content = envelope.data as Record<string, unknown>;
    written = Object.fromEntries(
      documentFields.filter((field) => content[field] !== undefined).map((field) => [field, content[field]]),
    );
  } else {
    written = envelope.data.spec ?? {};
  }
  if (!isPlainObject(written)) {
    return { ok: false, identity, issues: [{ ...origin, path: 'spec', message: 'must be a mapping' }] };
  }
  const parsed = definition.spec.safeParse(written);
  if (!parsed.success)
    return { ok: false, identity, issues: issuesFrom(parsed.error, origin, documentFields ? [] : ['spec']) };
  const deeper = definition.specIssues?.(written as JsonObject) ?? [];
  if (deeper.length > 0)
    return { ok: false, identity, issues: deeper.map((issue) => ({ ...origin, ...issue })) };
  return {
    ok: true,
    resource: {
      definition,
      apiVersion,
      name: metadata.name,
      namespace,
      labels: metadata.labels ?? {},
      // YAML parses to JSON-compatible data (the core schema has no dates or binary).
      spec: written as JsonObject,
      parsedSpec: parsed.data,
      origin,
    },
  };
}

/** `canary/default/api-health`: how a resource is named in CLI output and logs. */
export function resourceKey(identity: { kind: string; namespace: string; name: string }): string {
  return `${identity.kind.toLowerCase()}/${identity.namespace}/${identity.name}`;
}

/**
 * The problems of a row written to a resource table other than through YAML (the data API):
 * its `spec`, when the row sets one, must pass the kind's schema and `specIssues`; a column the
 * database derives from the spec (`derivedColumns`) may be sent only with a spec and with the
 * value that spec derives. Kinds with neither `specIssues` nor `derivedColumns` are left to the
 * database's own checks.
 * Empty for other tables.
 */
export function resourceRowIssues(table: string, row: Readonly<Record<string, unknown>>): SpecIssue[] {
  const definition = resourceKinds().find((kind) => kind.table === table);
  if (!definition) return [];
  const derived = (definition.derivedColumns ?? []).filter((column) => column in row);
  if (!('spec' in row)) {
    return derived.map((column) => ({
      path: column,
      message: 'is derived from the spec: write the spec instead',
    }));
  }
  // A kind with derived columns has its spec checked too: the database derives them from it.
  if (!definition.specIssues && !definition.derivedColumns) return [];
  const spec = row.spec;
  if (!isPlainObject(spec)) return [{ path: 'spec', message: 'must be a mapping' }];
  const parsed = definition.spec.safeParse(spec);
  if (!parsed.success)
    return parsed.error.issues.map((issue) => ({
      path: formatFieldPath(['spec', ...issue.path]),
      message: issue.message,
    }));
  const issues = definition.specIssues?.(spec as JsonObject) ?? [];
  if (issues.length > 0 || derived.length === 0) return issues;
  const columns = definition.columns(parsed.data);
  for (const column of derived) {
    const expected = columns[column] ?? null;
    if (JSON.stringify(row[column] ?? null) !== JSON.stringify(expected))
      issues.push({
        path: column,
        message: `is derived from the spec (${JSON.stringify(expected)}): leave it out or send the same value`,
      });
  }
  return issues;
}
