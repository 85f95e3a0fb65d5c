import { canaryIdParamsSchema, canaryInputSchema } from '@opsdeck/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { maskSealedStrings } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import { requirePermission } from '../auth/index.js';
import {
  applyResource,
  DEFAULT_NAMESPACE,
  resourceKey,
  validateResource,
  type ValidationIssue,
} from '../resources/index.js';
import { loadCanary, syncCanaryChecks } from './canary-sync.js';

/** The `source` of canaries created and edited in the UI. */
export const UI_SOURCE = 'UI';

const API_VERSION = 'canaries.flanksource.com/v1';

export interface CanaryEditorRoutesOptions {
  pool: Pool;
  logger: Logger;
  /** Seals the secret-shaped fields of the specs it saves (platform/secret-fields.ts). */
  secrets?: SecretBox;
}

/** What the editor sends, as the route schema read it: the resource's metadata fields and its spec. */
type CanaryInput = z.output<typeof canaryInputSchema>;

interface CanaryRecord {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: string;
  created_at: Date;
  updated_at: Date;
}

const RECORD_COLUMNS = `id, name, namespace, COALESCE(labels, '{}'::jsonb) AS labels,
  COALESCE(spec, '{}'::jsonb) AS spec, source, created_at, updated_at`;

/** A 400 body: the first issue's path as `field`, every issue listed. */
function invalid(reply: FastifyReply, issues: readonly Pick<ValidationIssue, 'path' | 'message'>[]) {
  const [first] = issues;
  return reply.status(400).send({
    error: first.path ? `${first.path}: ${first.message}` : first.message,
    field: first.path,
    issues: issues.map(({ path, message }) => ({ path, message })),
  });
}

/**
 * Rows that came from a watched file or `opsdeck apply` belong to that source: the UI would be
 * overwritten at the next sync, so it may only change rows it owns, or demo rows (loaded once).
 */
function editableFromUi(source: string): boolean {
  return source === UI_SOURCE || source.startsWith('demo/');
}

async function loadRecord(pool: Pool, id: string): Promise<CanaryRecord | undefined> {
  const { rows } = await pool.query<CanaryRecord>(
    `SELECT ${RECORD_COLUMNS} FROM canaries WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  // Secrets read as the mask; sent back unchanged, the mask keeps the stored secret. Only the
  // JSON columns are walked: the walk would turn the Date columns into {}.
  return {
    ...row,
    labels: maskSealedStrings(row.labels) as CanaryRecord['labels'],
    spec: maskSealedStrings(row.spec) as CanaryRecord['spec'],
  };
}

/**
 * The health-check editor's API (settings spec §2.4): create, read, update and soft-delete a
 * canary, validated exactly as `opsdeck apply` validates a Canary document, stored with source
 * `UI`. The checks rows follow at once (the scheduler picks up the change at its next poll).
 *
 * - `POST /api/canaries` `{name, namespace?, labels?, spec}` → 201 the stored canary
 * - `GET /api/canaries/{id}` → the canary
 * - `PUT /api/canaries/{id}` `{name?, namespace?, labels?, spec}` → the stored canary
 * - `DELETE /api/canaries/{id}` → 204
 *
 * The body's envelope and the id are the contracts' schemas (`canaryInputSchema`,
 * `canaryIdParamsSchema`): a body that is not an object, labels that are not a map of texts or a
 * spec that is not an object, or an id that is not a UUID, is a 400 `{error, field}` from the
 * one error handler. The document is then validated as `opsdeck apply` validates it.
 *
 * Errors: 400 `{error, field, issues}` for an invalid document (field is the path, such as
 * `spec.http[0].url`), 404 unknown id, 409 name taken in the namespace or row owned by a file.
 */
export async function canaryEditorRoutes(
  app: FastifyInstance,
  options: CanaryEditorRoutesOptions,
): Promise<void> {
  const { pool, logger } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const readCanaries = requirePermission('canaries', 'read');
  // One verb per route, as the data API decides /api/db/canaries (insert → create, PATCH →
  // update, DELETE → delete): a `canaries:create` token may create here too, and nothing more.
  const createCanaries = requirePermission('canaries', 'create');
  const updateCanaries = requirePermission('canaries', 'update');
  const deleteCanaries = requirePermission('canaries', 'delete');

  /** Validates the body as a Canary document; the reply is sent when it is refused. */
  const validate = (input: CanaryInput, reply: FastifyReply) => {
    const namespace = input.namespace?.trim() || DEFAULT_NAMESPACE;
    const validation = validateResource({
      origin: { file: UI_SOURCE, document: 1 },
      yamlErrors: [],
      content: {
        apiVersion: API_VERSION,
        kind: 'Canary',
        metadata: {
          name: input.name?.trim(),
          namespace,
          ...(input.labels ? { labels: input.labels } : {}),
        },
        spec: input.spec ?? {},
      },
    });
    if (!validation.ok) {
      invalid(reply, validation.issues);
      return undefined;
    }
    return validation.resource;
  };

  const store = async (
    reply: FastifyReply,
    resource: NonNullable<ReturnType<typeof validate>>,
    force: boolean,
  ) => {
    const result = await applyResource(pool, resource, {
      source: UI_SOURCE,
      force,
      secrets: options.secrets,
    });
    if (result.status === 'failed') {
      logger.error({ canary: result.key, err: result.message }, 'storing a canary failed');
      reply.status(500).send({ error: `Could not save ${result.key}` });
      return undefined;
    }
    if (result.status === 'conflict' || !result.id) {
      reply.status(409).send({ error: result.message ?? `Could not save ${result.key}` });
      return undefined;
    }
    const row = await loadCanary(pool, result.id);
    if (row) await syncCanaryChecks(pool, row);
    return loadRecord(pool, result.id);
  };

  // Permission first, then the route schema: a caller without the right learns nothing of the input.
  typed.get(
    '/api/canaries/:id',
    { preValidation: readCanaries, schema: { params: canaryIdParamsSchema } },
    async (request, reply) => {
      const record = await loadRecord(pool, request.params.id);
      if (!record) return reply.status(404).send({ error: `Canary ${request.params.id} not found` });
      return record;
    },
  );

  typed.post(
    '/api/canaries',
    { preValidation: createCanaries, schema: { body: canaryInputSchema } },
    async (request, reply) => {
      const resource = validate(request.body, reply);
      if (!resource) return reply;
      const { rows } = await pool.query<{ source: string }>(
        'SELECT source FROM canaries WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL',
        [resource.namespace, resource.name],
      );
      if (rows.length > 0) {
        return reply.status(409).send({
          error: `A canary named "${resource.name}" already exists in namespace "${resource.namespace}"`,
          field: 'metadata.name',
        });
      }
      const saved = await store(reply, resource, false);
      if (!saved) return reply;
      logger.info({ canary: resourceKey({ kind: 'Canary', ...resource }) }, 'canary created from the UI');
      return reply.status(201).send(saved);
    },
  );

  typed.put(
    '/api/canaries/:id',
    { preValidation: updateCanaries, schema: { params: canaryIdParamsSchema, body: canaryInputSchema } },
    async (request, reply) => {
      const existing = await loadRecord(pool, request.params.id);
      if (!existing) return reply.status(404).send({ error: `Canary ${request.params.id} not found` });
      const resource = validate(
        {
          ...request.body,
          name: request.body.name ?? existing.name,
          namespace: request.body.namespace ?? existing.namespace,
        },
        reply,
      );
      if (!resource) return reply;
      if (resource.namespace !== existing.namespace) {
        return invalid(reply, [
          { path: 'metadata.namespace', message: 'The namespace cannot change once the canary is saved' },
        ]);
      }
      if (resource.name !== existing.name) {
        return invalid(reply, [
          { path: 'metadata.name', message: 'The name cannot change once the canary is saved' },
        ]);
      }
      if (!editableFromUi(existing.source)) {
        return reply.status(409).send({
          error: `This canary is managed by "${existing.source}"; change it there`,
        });
      }
      const saved = await store(reply, resource, true);
      if (!saved) return reply;
      return saved;
    },
  );

  typed.delete(
    '/api/canaries/:id',
    { preValidation: deleteCanaries, schema: { params: canaryIdParamsSchema } },
    async (request, reply) => {
      const existing = await loadRecord(pool, request.params.id);
      if (!existing) return reply.status(404).send({ error: `Canary ${request.params.id} not found` });
      if (!editableFromUi(existing.source)) {
        return reply.status(409).send({
          error: `This canary is managed by "${existing.source}"; delete it there`,
        });
      }
      await pool.query('UPDATE canaries SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [
        existing.id,
      ]);
      const row = await loadCanary(pool, existing.id);
      if (row) await syncCanaryChecks(pool, row);
      logger.info({ canary: existing.id }, 'canary deleted from the UI');
      return reply.status(204).send();
    },
  );
}
