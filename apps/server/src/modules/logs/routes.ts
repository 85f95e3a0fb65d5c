import { logsRequestSchema, type LogSourcesResponse, type LogsResponse } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { requirePermission } from '../auth/index.js';
import type { ConnectionResolver } from '../resources/index.js';
import { logSources, searchLogs } from './logs-service.js';

export interface LogsRoutesOptions {
  pool: Pool;
  resolveConnection: ConnectionResolver;
}

/** `POST /api/logs` (core §7): read logs of a component, config item or backend. */
export async function logsRoutes(app: FastifyInstance, options: LogsRoutesOptions): Promise<void> {
  // Reading logs is reading the logs area: read on logging_backends, off while logs is disabled.
  const readLogs = requirePermission('logging_backends', 'read', { feature: 'logs' });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/logs',
    { preHandler: readLogs, schema: { body: logsRequestSchema } },
    async (request): Promise<LogsResponse> =>
      await searchLogs(options.pool, request.body, { resolveConnection: options.resolveConnection }),
  );

  typed.get(
    '/api/logs/sources',
    { preHandler: readLogs },
    async (): Promise<LogSourcesResponse> => await logSources(options.pool),
  );
}
