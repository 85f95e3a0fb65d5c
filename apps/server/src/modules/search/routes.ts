import { relationAccess, resourceSearchRequestSchema, type ResourceSearchKind } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { authorizeRequest } from '../auth/index.js';
import { searchResources } from './search-service.js';

export interface SearchRoutesOptions {
  pool: Pool;
}

/** The relation each kind reads; its data-API access (resource, object, area) decides who may. */
export const SEARCH_KIND_RELATIONS: Readonly<Record<ResourceSearchKind, string>> = {
  checks: 'checks',
  components: 'components',
  configs: 'config_items',
  connections: 'connections',
  playbooks: 'playbooks',
};

/** POST /api/resources/search (spec core §7, settings §8). */
export async function searchRoutes(app: FastifyInstance, options: SearchRoutesOptions): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/resources/search',
    { schema: { body: resourceSearchRequestSchema } },
    async (request, reply) => {
      if (!request.auth) return reply.status(401).send({ error: 'Unauthorized' });
      // One call covers five kinds: a kind the caller may not read is an empty list, not a 403.
      return searchResources(options.pool, request.body, async (kind) => {
        const { resource, object, feature } = relationAccess(SEARCH_KIND_RELATIONS[kind]);
        const decision = await authorizeRequest(options.pool, request, resource, 'read', {
          object,
          feature: feature ?? null,
        });
        return decision.allow;
      });
    },
  );
}
