import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { listProperties } from './properties-store.js';

export async function settingsRoutes(app: FastifyInstance, opts: { pool: Pool }): Promise<void> {
  app.get('/api/properties', async () => listProperties(opts.pool));
}
