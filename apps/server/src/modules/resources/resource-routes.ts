import {
  resourceApplyRequestSchema,
  resourceKindParamsSchema,
  resourceParamsSchema,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { requirePermission } from '../auth/index.js';
import { parseResourceDocuments, type ResourceDocument } from './documents.js';
import { configMapKind } from './kinds/config-map.js';
import { secretKind } from './kinds/secret.js';
import { findResourceKind } from './registry.js';
import type { ResourceKind, SecretBox } from '../../resource-kinds/index.js';
import type { ResourceLogger } from './resource-logger.js';
import { applyResources, deleteResource, type ApplyResult } from './resource-store.js';
import { DEFAULT_NAMESPACE } from './validation.js';

/** The `source` of resources created through the API. */
export const API_SOURCE = 'UI';

/** Kinds this API manages: the values that `valueFrom` references read. */
const VALUE_KINDS: readonly ResourceKind[] = [secretKind, configMapKind];

export interface ResourceRoutesOptions {
  pool: Pool;
  logger: ResourceLogger;
  /** Seals Secret values; applying a Secret fails without it. */
  secrets?: SecretBox;
}

function valueKind(name: string): ResourceKind | undefined {
  const kind = findResourceKind(name);
  return kind && VALUE_KINDS.includes(kind) ? kind : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Documents one request may apply: each is stored in its own transaction (about 5 ms), so a
 * megabyte of tiny documents would hold the request for minutes. More go through `opsdeck apply`.
 */
export const MAX_DOCUMENTS_PER_REQUEST = 100;

/** A ConfigMap or Secret of Kubernetes' own size (about 1 MiB of data) fits, in YAML or JSON. */
export const RESOURCES_BODY_LIMIT = 2 * 1024 * 1024;

const TOO_MANY_DOCUMENTS = `the body holds more than the limit of ${MAX_DOCUMENTS_PER_REQUEST} documents; split it, or use opsdeck apply`;

/** The documents of a YAML text, refused before parsing when it plainly holds too many. */
function yamlDocuments(text: string): ResourceDocument[] | string {
  const separators = text.match(/^---/gm)?.length ?? 0;
  // A text may open with `---`: one separator more than documents.
  if (separators > MAX_DOCUMENTS_PER_REQUEST + 1) return TOO_MANY_DOCUMENTS;
  const documents = parseResourceDocuments(text, 'request');
  return documents.length > MAX_DOCUMENTS_PER_REQUEST ? TOO_MANY_DOCUMENTS : documents;
}

/** The documents of a request: YAML text, `{yaml}`, one JSON document or a list of them. */
function documentsOf(body: unknown): ResourceDocument[] | string {
  if (typeof body === 'string') return yamlDocuments(body);
  if (isPlainObject(body) && typeof body.yaml === 'string') return yamlDocuments(body.yaml);
  const list = Array.isArray(body) ? body : isPlainObject(body) ? [body] : undefined;
  if (!list || list.length === 0)
    return 'the body must be YAML text, {"yaml": "..."}, a resource document or a list of them';
  if (list.length > MAX_DOCUMENTS_PER_REQUEST) return TOO_MANY_DOCUMENTS;
  return list.map((content, index) => ({
    origin: { file: 'request', document: index + 1 },
    content,
    yamlErrors: [],
  }));
}

/** What a client sees of one apply result: never a value, only the resource and its problems. */
function publicResult(result: ApplyResult) {
  return {
    status: result.status,
    document: result.origin.document,
    ...(result.key ? { key: result.key } : {}),
    ...(result.id ? { id: result.id } : {}),
    ...(result.issues ? { issues: result.issues.map(({ path, message }) => ({ path, message })) } : {}),
    ...(result.message ? { message: result.message } : {}),
  };
}

function secretRow(row: Record<string, unknown>) {
  return {
    id: row.id,
    kind: 'Secret',
    name: row.name,
    namespace: row.namespace,
    labels: row.labels ?? {},
    type: row.type,
    keys: row.keys,
    source: row.source,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Secrets and ConfigMaps through the API, with the `connections` permission (they hold
 * credentials):
 * - `POST /api/resources` YAML text (`text/yaml`), `{yaml}`, a document or a list → `{results}`
 *   (400 with `field` when a document is invalid), stored with source `UI`;
 * - `GET /api/resources/secrets` → name, namespace, type and keys, never values (an unknown
 *   kind is a 400 naming `kind`);
 *   `GET /api/resources/configmaps` → with their data;
 * - `DELETE /api/resources/{kind}/{namespace}/{name}` → 204, 404, or 409 when a file owns it.
 */
export async function resourceRoutes(app: FastifyInstance, options: ResourceRoutesOptions): Promise<void> {
  const { pool, logger, secrets } = options;
  const read = requirePermission('connections', 'read');
  const write = requirePermission('connections', 'write');
  app.addContentTypeParser(
    ['text/yaml', 'application/yaml', 'application/x-yaml'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  // Requests are checked by their contract schemas first: a bad one is a 400 naming the field.
  const typed = app.withTypeProvider<ZodTypeProvider>();

  const post = {
    preHandler: write,
    bodyLimit: RESOURCES_BODY_LIMIT,
    schema: { body: resourceApplyRequestSchema },
  };
  typed.post('/api/resources', post, async (request, reply) => {
    const documents = documentsOf(request.body);
    if (typeof documents === 'string') return reply.status(400).send({ error: documents, field: 'body' });
    const refused: ApplyResult[] = [];
    const accepted = documents.filter((document) => {
      const content = document.content;
      const kindName = isPlainObject(content) && typeof content.kind === 'string' ? content.kind : '';
      if (document.yamlErrors.length > 0 || VALUE_KINDS.some((kind) => kind.kind === kindName)) return true;
      refused.push({
        status: 'invalid',
        origin: document.origin,
        issues: [
          {
            ...document.origin,
            path: 'kind',
            message: `this API accepts ${VALUE_KINDS.map((kind) => kind.kind).join(' and ')} resources${kindName ? `, not ${kindName}` : ''}`,
          },
        ],
      });
      return false;
    });
    const applied = await applyResources(pool, accepted, { source: API_SOURCE, secrets });
    const results = [...refused, ...applied].sort((a, b) => a.origin.document - b.origin.document);
    for (const result of applied) {
      if (result.status === 'created' || result.status === 'updated')
        logger.info({ resource: result.key }, `resource ${result.status} through the API`);
    }
    const invalid = results.find((result) => result.status === 'invalid');
    if (invalid) {
      const issue = invalid.issues?.[0];
      return reply.status(400).send({
        error: issue ? (issue.path ? `${issue.path}: ${issue.message}` : issue.message) : 'invalid resource',
        field: issue?.path ?? '',
        results: results.map(publicResult),
      });
    }
    const conflict = results.find((result) => result.status === 'conflict');
    if (conflict)
      return reply.status(409).send({ error: conflict.message, results: results.map(publicResult) });
    if (results.some((result) => result.status === 'failed'))
      return reply
        .status(500)
        .send({ error: 'some resources could not be stored', results: results.map(publicResult) });
    return { results: results.map(publicResult) };
  });

  typed.get(
    '/api/resources/:kind',
    { preHandler: read, schema: { params: resourceKindParamsSchema } },
    async (request, reply) => {
      const kind = valueKind(request.params.kind);
      if (!kind)
        return reply
          .status(404)
          .send({ error: `Unknown resource kind "${request.params.kind}"`, field: 'kind' });
      if (kind === secretKind) {
        const { rows } = await pool.query<Record<string, unknown>>(
          `SELECT id, name, namespace, labels, type, keys, source, created_at, updated_at
           FROM secrets WHERE deleted_at IS NULL ORDER BY namespace, name`,
        );
        return rows.map(secretRow);
      }
      const { rows } = await pool.query<Record<string, unknown>>(
        `SELECT id, 'ConfigMap' AS kind, name, namespace, labels, data, source, created_at, updated_at
         FROM config_maps WHERE deleted_at IS NULL ORDER BY namespace, name`,
      );
      return rows;
    },
  );

  typed.delete(
    '/api/resources/:kind/:namespace/:name',
    { preHandler: write, schema: { params: resourceParamsSchema } },
    async (request, reply) => {
      const kind = valueKind(request.params.kind);
      if (!kind)
        return reply
          .status(404)
          .send({ error: `Unknown resource kind "${request.params.kind}"`, field: 'kind' });
      const namespace = request.params.namespace || DEFAULT_NAMESPACE;
      const { name } = request.params;
      const { rows } = await pool.query<{ source: string }>(
        `SELECT source FROM ${kind.table} WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
        [namespace, name],
      );
      if (rows.length === 0)
        return reply.status(404).send({ error: `${kind.kind} ${namespace}/${name} not found` });
      if (rows[0].source !== API_SOURCE && !rows[0].source.startsWith('demo/'))
        return reply
          .status(409)
          .send({ error: `This ${kind.kind} is managed by "${rows[0].source}"; delete it there` });
      await deleteResource(pool, kind.kind, namespace, name);
      logger.info(
        { resource: `${kind.kind.toLowerCase()}/${namespace}/${name}` },
        'resource deleted through the API',
      );
      return reply.status(204).send();
    },
  );
}
