import {
  viewListSchema,
  viewRequestSchema,
  viewRowsRequestSchema,
  type ViewListItem,
  type ViewResult,
  type ViewRowsPage,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import { requirePermission } from '../auth/index.js';
import { runView, viewRows, viewsForConfig } from './view-service.js';

export interface ViewRoutesOptions {
  pool: Pool;
  logger: Logger;
}

const viewIdParams = z.object({ id: z.string().min(1) });
const viewListQuery = z.object({
  config_id: z.uuid({ error: 'config_id must be a config item id (uuid)' }),
});

/** The views API (API.md §2): run a view, and the views attached to a config item. */
export async function viewRoutes(app: FastifyInstance, options: ViewRoutesOptions): Promise<void> {
  const readViews = requirePermission('views', 'read');
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/view/list',
    { preHandler: readViews, schema: { querystring: viewListQuery } },
    async (request): Promise<ViewListItem[]> =>
      viewListSchema.parse(await viewsForConfig(options.pool, request.query.config_id)),
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
