import os from 'node:os';
import { createCoalescer } from '../../platform/coalesce.js';
import { RUN_NOW_ROLES } from '@opsdeck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import { authorize, hasTokenScope, requirePermission } from '../auth/index.js';
import type { CanaryRunnerOptions } from './canary-runner.js';
import {
  createHealthService,
  HealthRequestError,
  isUuid,
  parseLabelsParameter,
  parseTimeParameter,
  type HealthService,
  type SummaryQuery,
} from './health-service.js';

export interface HealthRoutesOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  logger: Logger;
  /** Check runtime settings for Run Now (connections, timeouts); defaults otherwise. */
  runner?: Omit<CanaryRunnerOptions, 'pool' | 'logger'>;
  /** Default CHECK_STATUS_RETENTION_DAYS or 30. */
  retentionDays?: number;
}

/** The summary's default range when `start` is absent (the health page's default). */
const DEFAULT_RANGE_MS = 3_600_000;
/** Check graph count (spec core §9: 'Check graph count 300'). */
const GRAPH_DEFAULT_COUNT = 300;
const GRAPH_MAX_COUNT = 10_000;

type Parameters = Record<string, unknown>;

function parameters(value: unknown): Parameters {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Parameters) : {};
}

function summaryQuery(input: Parameters, logger: Logger): SummaryQuery {
  const now = new Date();
  const end = parseTimeParameter(input.end, now, 'end', now);
  const start = parseTimeParameter(input.start, new Date(end.getTime() - DEFAULT_RANGE_MS), 'start', now);
  if (start.getTime() > end.getTime()) throw new HealthRequestError('start must be before end', 400);
  const query: SummaryQuery = { start, end };
  const { labels, invalid } = parseLabelsParameter(input.labels);
  // Spec core §5: an invalid labels parameter is logged and ignored.
  if (invalid !== undefined) logger.warn({ labels: invalid }, 'ignoring an invalid labels parameter');
  else if (labels && Object.keys(labels).length > 0) query.labels = labels;
  if (input.deleteFrom !== undefined && input.deleteFrom !== '') {
    query.deletedFrom = parseTimeParameter(input.deleteFrom, start, 'deleteFrom', now);
  }
  return query;
}

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof HealthRequestError)
    return reply
      .status(error.statusCode)
      .send({ error: error.message, ...(error.field ? { field: error.field } : {}) });
  throw error;
}

/**
 * Run Now is for admin, editor, responder and commander (spec core §6, RUN_NOW_ROLES), or whoever
 * a permission row lets write canaries; a scoped token also needs write on canaries.
 */
async function requireRunNow(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const auth = request.auth;
  if (!auth) return reply.status(401).send({ error: 'Unauthorized' });
  const id = parameters(request.params).id;
  const target = typeof id === 'string' && isUuid(id) ? { check_id: id } : undefined;
  const byRole = auth.roles.some((role) => RUN_NOW_ROLES.includes(role));
  const byPermission = authorize(auth, 'canaries', 'write', { target }).allow;
  if (!byRole && !byPermission) {
    return reply.status(403).send({ error: 'You are not allowed to run checks' });
  }
  if (!hasTokenScope(auth, 'canaries', 'write')) {
    return reply.status(403).send({ error: "This token's scope does not allow it to run checks" });
  }
  return undefined;
}

/** The health API of API.md §2: summary, statuses in a range, Run Now. */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const service: HealthService = createHealthService({
    ...options.runner,
    pool: options.pool,
    jobs: options.jobs,
    logger: options.logger,
    retentionDays: options.retentionDays,
  });
  const runnerName = os.hostname();
  const readCanaries = requirePermission('canaries', 'read');

  const coalesceSummaries = createCoalescer<Buffer>();
  const summaryHandler = async (input: Parameters, reply: FastifyReply) => {
    const started = performance.now();
    try {
      // The checks come as JSON text (10,000 checks: serialising objects cost more than reading them).
      // Identical summaries asked at once share one read that starts after they arrived (the
      // reader runs one read at a time: 200 clients of the landing page queued behind each other).
      const checks = await coalesceSummaries(JSON.stringify(input), () =>
        service.summaryJson(summaryQuery(input, options.logger)),
      );
      const duration = Math.round(performance.now() - started);
      return reply
        .type('application/json; charset=utf-8')
        .send(
          Buffer.concat([
            Buffer.from(
              `{"duration":${duration},"runnerName":${JSON.stringify(runnerName)},"checks_summary":`,
            ),
            checks,
            Buffer.from('}'),
          ]),
        );
    } catch (error) {
      return sendError(reply, error);
    }
  };

  app.get('/api/canary/api/summary', { preHandler: readCanaries }, async (request, reply) =>
    summaryHandler(parameters(request.query), reply),
  );
  app.post('/api/canary/api/summary', { preHandler: readCanaries }, async (request, reply) =>
    summaryHandler({ ...parameters(request.query), ...parameters(request.body) }, reply),
  );

  app.get('/api/canary/api', { preHandler: readCanaries }, async (request, reply) => {
    const input = parameters(request.query);
    try {
      const query = summaryQuery(input, options.logger);
      const check = input.check;
      if (typeof check === 'string' && check !== '') {
        if (!isUuid(check)) return { checks: [] };
        query.checkIds = [check];
      }
      const includeMessages = input.includeMessages === 'true' || input.includeMessages === true;
      return { checks: await service.checksWithStatuses({ ...query, includeMessages }) };
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.get('/api/canary/api/graph', { preHandler: readCanaries }, async (request, reply) => {
    const input = parameters(request.query);
    try {
      const { start, end } = summaryQuery(input, options.logger);
      const check = typeof input.check === 'string' ? input.check : '';
      if (check === '') throw new HealthRequestError('check is required', 400);
      const count =
        input.count === undefined || input.count === '' ? GRAPH_DEFAULT_COUNT : Number(input.count);
      if (!Number.isInteger(count) || count < 1 || count > GRAPH_MAX_COUNT) {
        throw new HealthRequestError(`count must be a whole number from 1 to ${GRAPH_MAX_COUNT}`, 400);
      }
      const graph = await service.graph({ checkId: check, start, end, count });
      if (!graph) throw new HealthRequestError(`check ${check} not found`, 404);
      return graph;
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.post(
    '/api/canary/run/check/:id',
    { preHandler: [readCanaries, requireRunNow] },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      try {
        return await service.runNow(id);
      } catch (error) {
        return sendError(reply, error);
      }
    },
  );
}
