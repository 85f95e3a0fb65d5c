import { resourceSchemaParamsSchema } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceKinds, kindAliases } from './registry.js';
import type { ResourceKind } from '../../resource-kinds/index.js';

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

/** `config_scrapers` → `config_scraper`, `canaries` → `canary`, `topologies` → `topology`. */
function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

/**
 * The names a kind's schema is served at, derived from the registered kind so that a kind added
 * later gets them too: its own names (`canary`, `canaries`, `config_scrapers`), and the names the
 * ecosystem's editors request, `<name>.spec` and `<name>-spec` where the name is the lower-case
 * kind (`canary`, `playbook`, `scrapeconfig`), the kind in snake case (`scrape_config`) or the
 * singular table (`config_scraper`): `canary.spec`, `topology.spec`, `config_scraper.spec`,
 * `playbook-spec`.
 */
export function schemaNames(kind: ResourceKind): string[] {
  const snake = kind.kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const bases = [kind.kind.toLowerCase(), snake, singular(kind.table)];
  const editorNames = bases.flatMap((base) => [`${base}.spec`, `${base}-spec`]);
  return [...new Set([...kindAliases(kind), ...editorNames])];
}

/** The kind whose schema is served at `name` (case-insensitive), if any. */
export function findSchemaKind(name: string): ResourceKind | undefined {
  const wanted = name.trim().toLowerCase();
  return resourceKinds().find((kind) => schemaNames(kind).includes(wanted));
}

/**
 * `GET /api/schemas/{name}.schema.json` for editors: `name` is one of a kind's schemaNames (the
 * lower-case kind, its plural or table, or the editors' `canary.spec`, `playbook-spec`, ...).
 */
export async function resourceSchemaRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/schemas/:kind.schema.json',
    { schema: { params: resourceSchemaParamsSchema } },
    async (request, reply) => {
      const kind = findSchemaKind(request.params.kind);
      if (!kind) {
        const known = resourceKinds()
          .map((candidate) => candidate.kind.toLowerCase())
          .join(', ');
        return reply
          .status(404)
          .send({ error: `No schema for "${request.params.kind}". Known kinds: ${known}` });
      }
      reply.header('cache-control', 'public, max-age=300');
      return resourceSpecJsonSchema(kind);
    },
  );
}
