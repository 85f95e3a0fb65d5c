import {
  applicationListSchema,
  applicationParamsSchema,
  applicationReportQuerySchema,
  type ApplicationReport,
  type ApplicationSummary,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { authorizeRequest, requirePermission } from '../auth/index.js';
import { applicationReport, listApplications } from './application-service.js';

/** The applications API: the list with health and counts, and one application's audit report. */
export async function applicationRoutes(app: FastifyInstance, options: { pool: Pool }): Promise<void> {
  // The applications relation's access (contracts): read on database, off while applications is disabled.
  const readApplications = requirePermission('database', 'read', { feature: 'applications' });
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/api/application', { preHandler: readApplications }, async (): Promise<ApplicationSummary[]> =>
    applicationListSchema.parse(await listApplications(options.pool)),
  );

  typed.get(
    '/api/application/:namespace/:name',
    {
      preHandler: readApplications,
      schema: { params: applicationParamsSchema, querystring: applicationReportQuerySchema },
    },
    async (request): Promise<ApplicationReport> => {
      // Permission rows are rbac: a caller who may not read them sees the roles only.
      const rbac = await authorizeRequest(options.pool, request, 'rbac', 'read', { feature: null });
      return await applicationReport(
        options.pool,
        request.params.namespace,
        request.params.name,
        request.query.range,
        rbac.allow,
      );
    },
  );
}
