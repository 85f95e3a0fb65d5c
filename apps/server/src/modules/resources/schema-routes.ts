import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RESOURCE_KINDS } from './kinds/index.js';
import { findResourceKind } from './registry.js';
import type { ResourceKind } from './resource-kind.js';

const schemas = new Map<ResourceKind, Record<string, unknown>>();

/**
 * The JSON Schema (draft 2020-12) of a kind's spec, generated from the same zod schema that
 * validates applied YAML. It describes the input (what the user writes); unknown fields are
 * allowed, as on apply.
 */
export function resourceSpecJsonSchema(kind: ResourceKind): Record<string, unknown> {
  let schema = schemas.get(kind);
  if (!schema) {
    schema = {
      ...z.toJSONSchema(kind.spec, { io: 'input', unrepresentable: 'any' }),
      $id: `/api/schemas/${kind.kind.toLowerCase()}.schema.json`,
      title: `${kind.kind} spec`,
      description: `The spec of a ${kind.kind} resource (apiVersion ${kind.apiVersions.join(' or ')})`,
    };
    schemas.set(kind, schema);
  }
  return schema;
}

/**
 * `GET /api/schemas/{kind}.schema.json` for editors: `kind` is the lower-case kind (`canary`,
 * `scrapeconfig`), its plural or its table (`canaries`, `config_scrapers`).
 */
export async function resourceSchemaRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { kind: string } }>('/api/schemas/:kind.schema.json', async (request, reply) => {
    const kind = findResourceKind(request.params.kind);
    if (!kind) {
      const known = RESOURCE_KINDS.map((candidate) => candidate.kind.toLowerCase()).join(', ');
      return reply
        .status(404)
        .send({ error: `No schema for "${request.params.kind}". Known kinds: ${known}` });
    }
    reply.header('cache-control', 'public, max-age=300');
    return resourceSpecJsonSchema(kind);
  });
}
