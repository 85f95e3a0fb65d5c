import {
  componentIdParamsSchema,
  topologyIdParamsSchema,
  topologyQuerySchema,
  type TopologyRunResponse,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { errorMessage } from '../../platform/jobs/support.js';
import type { Logger } from '../../platform/logger.js';
import { requirePermission } from '../auth/index.js';
import { createComponentScopeGate } from './row-scope.js';
import { topologySnapshot } from './snapshot.js';
import { loadTopology, type TopologyRunOptions } from './topology-engine.js';
import { runTopologyJob, TOPOLOGY_JOB_NAME, TOPOLOGY_RESOURCE_TYPE } from './topology-scheduler.js';
import { queryTopologyJson } from './topology-service.js';
import { createFacetsCache } from './facets-cache.js';

export interface TopologyRoutesOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  logger: Logger;
  run: Omit<TopologyRunOptions, 'logger' | 'signal'>;
}

/** The topology API: the component tree, the snapshot archive and Run Now. */
export async function topologyRoutes(app: FastifyInstance, options: TopologyRoutesOptions): Promise<void> {
  // Reading components is decided as the data API decides it: roles, and permission rows
  // limited to some components or topologies, whose rows then limit what the API returns.
  const readComponents = createComponentScopeGate(options.pool);
  // A run creates, updates and soft-deletes components: all three (`write`), as scrapers ask.
  const runTopologies = requirePermission('topologies', 'write');
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // The dashboard's filter values, kept until a component changes (ADR 0044).
  const facets = createFacetsCache({ pool: options.pool, logger: options.logger });
  app.addHook('onClose', async () => await facets.close());

  typed.get(
    '/api/canary/api/topology',
    { preHandler: readComponents.preHandler, schema: { querystring: topologyQuerySchema } },
    async (request, reply) => {
      // The body is JSON text written mostly by PostgreSQL (topology-service.ts): sent as it is.
      const body = await queryTopologyJson(
        options.pool,
        request.query,
        readComponents.scopeOf(request),
        facets,
      );
      return await reply.type('application/json; charset=utf-8').send(body);
    },
  );

  typed.get(
    '/api/snapshot/topology/:id',
    { preHandler: readComponents.preHandler, schema: { params: componentIdParamsSchema } },
    async (request, reply) => {
      const { name, archive } = await topologySnapshot(
        options.pool,
        request.params.id,
        readComponents.scopeOf(request),
      );
      return await reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(archive);
    },
  );

  typed.post(
    '/api/canary/run/topology/:id',
    { preHandler: runTopologies, schema: { params: topologyIdParamsSchema } },
    async (request): Promise<TopologyRunResponse> => {
      const topology = await loadTopology(options.pool, request.params.id);
      if (!topology || topology.deleted_at !== null) throw new HttpError(404, 'Topology not found', 'id');
      const job = await options.jobs.startJob({
        name: TOPOLOGY_JOB_NAME,
        resourceType: TOPOLOGY_RESOURCE_TYPE,
        resourceId: topology.id,
        agentId: topology.agent_id,
      });
      try {
        const summary = await runTopologyJob(options.pool, topology, job, {
          ...options.run,
          logger: options.logger,
        });
        const status = await job.success();
        return { job_id: job.id, status, summary, errors: [] };
      } catch (error) {
        const message = errorMessage(error);
        options.logger.warn({ topology: topology.id, err: message }, 'topology run failed');
        const status = await job.failure(message);
        return { job_id: job.id, status, errors: [message] };
      }
    },
  );
}
