import { GITOPS_CHARTS } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../platform/http/errors.js';
import { requirePermission } from '../auth/index.js';
import type { ChartSchemaSource } from './chart-schemas.js';

export interface IntegrationsRoutesOptions {
  charts: ChartSchemaSource;
}

const chartParams = z.object({ chart: z.string() });

/** The Add Integration wizard's chart values schemas (settings §2.6, §7). */
export async function integrationsRoutes(app: FastifyInstance, { charts }: IntegrationsRoutesOptions) {
  const readIntegrations = requirePermission('integrations', 'read');
  app.get(
    '/api/integrations/charts/:chart/values-schema',
    { preHandler: readIntegrations },
    async (request) => {
      const { chart } = chartParams.parse(request.params);
      const known = GITOPS_CHARTS.find((name) => name === chart);
      if (!known) throw new HttpError(400, `chart must be one of ${GITOPS_CHARTS.join(', ')}`, 'chart');
      return charts.valuesSchema(known);
    },
  );
}
