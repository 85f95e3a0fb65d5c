import type { PropertiesResponse } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { listProperties } from './properties-store.js';
import { settingsResourcesRoutes } from './resources-routes.js';

export async function settingsRoutes(app: FastifyInstance, opts: { pool: Pool }): Promise<void> {
  // The answer is the contract's (settings.ts): its route test parses it with propertiesResponseSchema.
  app.get('/api/properties', async (): Promise<PropertiesResponse> => listProperties(opts.pool));
  // The generic settings resources (spec core §2), through the data API as the caller.
  await settingsResourcesRoutes(app);
}
