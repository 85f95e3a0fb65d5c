import {
  viewListSchema,
  viewRequestSchema,
  viewRowsRequestSchema,
  type ViewListItem,
  type ViewResult,
  type ViewRowsPage,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import { createViewGate } from './row-scope.js';
import { runView, viewRows, viewsForConfig } from './view-service.js';

export interface ViewRoutesOptions {
  pool: Pool;
  logger: Logger;
}

const viewIdParams = z.object({ id: z.string().min(1) });
const viewListQuery = z.object({
  config_id: z.uuid({ error: 'config_id must be a config item id (uuid)' }),
});

/**
 * The views API (API.md §2): run a view, page its rows, and the views attached to a config item.
 * Each reads only the views the caller may read as `/api/db/views` would (row-scope.ts): roles,
 * and permission rows whose object selector names views (grant or deny).
 */
export async function viewRoutes(app: FastifyInstance, options: ViewRoutesOptions): Promise<void> {
  const gate = createViewGate(options.pool);
  const readViews = async (request: FastifyRequest): Promise<void> => {
    const { id } = request.params as { id?: string };
    if (id !== undefined) await gate.requireView(request, id);
    else await gate.scopeOf(request);
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/view/list',
    { preHandler: readViews, schema: { querystring: viewListQuery } },
    async (request): Promise<ViewListItem[]> =>
      viewListSchema.parse(
        await viewsForConfig(options.pool, request.query.config_id, await gate.scopeOf(request)),
      ),
  );

  typed.post(
    '/api/view/:id',
    { preHandler: readViews, schema: { params: viewIdParams, body: viewRequestSchema.optional() } },
    async (request): Promise<ViewResult> =>
      await runView(options.pool, request.params.id, {
        variables: request.body?.variables,
        refresh: request.body?.refresh,
        logger: options.logger,
      }),
  );

  typed.post(
    '/api/view/:id/rows',
    { preHandler: readViews, schema: { params: viewIdParams, body: viewRowsRequestSchema } },
    async (request): Promise<ViewRowsPage> => await viewRows(options.pool, request.params.id, request.body),
  );
}
