import os from 'node:os';
import {
  checkGraphQuerySchema,
  checkStatusesQuerySchema,
  checkSummaryQuerySchema,
  RUN_NOW_ROLES,
  runCheckParamsSchema,
  type ParsedTime,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { createCoalescer } from '../../platform/coalesce.js';
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import { resolveTime, TimeParseError } from '../../platform/time/index.js';
import { authorize, hasTokenScope, requirePermission } from '../auth/index.js';
import type { CanaryRunnerOptions } from './canary-runner.js';
import {
  createHealthService,
  isUuid,
  parseLabelsParameter,
  type HealthService,
  type SummaryQuery,
} from './health-service.js';
import { HttpError } from '../../platform/http/errors.js';

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

/** The summary's parameters as the route schema read them (times parsed, not yet resolved). */
type SummaryInput = z.output<typeof checkSummaryQuerySchema>;

/** A parsed time parameter against `now`; absent gives `fallback`, out of range a 400 naming it. */
function resolveParameter(parsed: ParsedTime | undefined, fallback: Date, field: string, now: Date): Date {
  if (!parsed) return fallback;
  try {
    return resolveTime(parsed, now);
  } catch (error) {
    if (error instanceof TimeParseError) throw new HttpError(400, `${field}: ${error.message}`, field);
    throw error;
  }
}

function summaryQuery(input: SummaryInput, logger: Logger): SummaryQuery {
  const now = new Date();
  const end = resolveParameter(input.end, now, 'end', now);
  const start = resolveParameter(input.start, new Date(end.getTime() - DEFAULT_RANGE_MS), 'start', now);
  if (start.getTime() > end.getTime()) throw new HttpError(400, 'start must be before end', 'start');
  const query: SummaryQuery = { start, end };
  const { labels, invalid } = parseLabelsParameter(input.labels);
  // Spec core §5: an invalid labels parameter is logged and ignored.
  if (invalid !== undefined) logger.warn({ labels: invalid }, 'ignoring an invalid labels parameter');
  else if (labels && Object.keys(labels).length > 0) query.labels = labels;
  if (input.deleteFrom) query.deletedFrom = resolveParameter(input.deleteFrom, start, 'deleteFrom', now);
  return query;
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
  // Runs before the route schema (callers without the right learn nothing of the input's shape).
  const id = (request.params as { id?: unknown } | undefined)?.id;
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

/**
 * The health API of API.md §2: summary, statuses in a range, graph, Run Now. Each route's query,
 * body or path parameters are the contracts' schemas (`@opsdeck/contracts` health.ts), checked
 * before the handler after the caller's permission (a refused request is a 400 naming the field).
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const service: HealthService = createHealthService({
    ...options.runner,
    pool: options.pool,
    jobs: options.jobs,
    logger: options.logger,
    retentionDays: options.retentionDays,
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const runnerName = os.hostname();
  const readCanaries = requirePermission('canaries', 'read');

  const coalesceSummaries = createCoalescer<Buffer>();
  const summaryHandler = async (input: SummaryInput, reply: FastifyReply) => {
    const started = performance.now();
    // The checks come as JSON text (10,000 checks: serialising objects cost more than reading them).
    // Identical summaries asked at once share one read that starts after they arrived (the
    // reader runs one read at a time: 200 clients of the landing page queued behind each other).
    // The times are parsed, not resolved, so `start=1h` asked twice is the same key.
    const checks = await coalesceSummaries(JSON.stringify(input), () =>
      service.summaryJson(summaryQuery(input, options.logger)),
    );
    const duration = Math.round(performance.now() - started);
    // checkSummaryResponseSchema describes this text; summary-reader.int.test.ts parses it.
    return reply
      .type('application/json; charset=utf-8')
      .send(
        Buffer.concat([
          Buffer.from(`{"duration":${duration},"runnerName":${JSON.stringify(runnerName)},"checks_summary":`),
          checks,
          Buffer.from('}'),
        ]),
      );
  };

  typed.get(
    '/api/canary/api/summary',
    { preValidation: readCanaries, schema: { querystring: checkSummaryQuerySchema } },
    async (request, reply) => summaryHandler(request.query, reply),
  );
  typed.post(
    '/api/canary/api/summary',
    {
      preValidation: readCanaries,
      // The body may be left out (Fastify gives null for an empty one); its fields win over the query's.
      schema: { querystring: checkSummaryQuerySchema, body: checkSummaryQuerySchema.nullish() },
    },
    async (request, reply) => summaryHandler({ ...request.query, ...request.body }, reply),
  );

  typed.get(
    '/api/canary/api',
    { preValidation: readCanaries, schema: { querystring: checkStatusesQuerySchema } },
    async (request) => {
      const { check, includeMessages, ...input } = request.query;
      const query = summaryQuery(input, options.logger);
      if (check) query.checkIds = [check];
      return {
        checks: await service.checksWithStatuses({ ...query, includeMessages: includeMessages ?? false }),
      };
    },
  );

  typed.get(
    '/api/canary/api/graph',
    { preValidation: readCanaries, schema: { querystring: checkGraphQuerySchema } },
    async (request) => {
      const { check, count, ...input } = request.query;
      const { start, end } = summaryQuery(input, options.logger);
      const graph = await service.graph({ checkId: check, start, end, count });
      if (!graph) throw new HttpError(404, `check ${check} not found`);
      return graph;
    },
  );

  typed.post(
    '/api/canary/run/check/:id',
    { preValidation: [readCanaries, requireRunNow], schema: { params: runCheckParamsSchema } },
    async (request) => {
      return await service.runNow(request.params.id);
    },
  );
}
