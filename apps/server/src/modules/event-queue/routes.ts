import {
  EVENT_QUEUE_API_PATH,
  eventQueueFailedQuerySchema,
  eventQueueSelectionSchema,
  type EventQueueActionResponse,
  type EventQueueFailedResponse,
  type EventQueueSummaryResponse,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import {
  discardFailedEvents,
  eventQueueStatus,
  listFailedEvents,
  requeueFailedEvents,
} from '../../platform/jobs/index.js';
import { requirePermission } from '../auth/index.js';

const FEATURE = 'settings.event_queue_status' as const;

/**
 * The settings Event Queue page (issue 27): reads need read on `database` (where the role matrix
 * places `event_queue_summary`), retry and discard need write on it; both honour the
 * `event_queue_status` feature flag. Events' properties are shown to readers: producers never put
 * secrets in them (they carry ids and statuses).
 */
export async function eventQueueRoutes(app: FastifyInstance, opts: { pool: Pool }): Promise<void> {
  const { pool } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const read = requirePermission('database', 'read', { feature: FEATURE });
  const write = requirePermission('database', 'write', { feature: FEATURE });

  typed.get(
    `${EVENT_QUEUE_API_PATH}/summary`,
    { preHandler: read },
    async (): Promise<EventQueueSummaryResponse> => ({ names: await eventQueueStatus(pool) }),
  );

  typed.get(
    `${EVENT_QUEUE_API_PATH}/failed`,
    { schema: { querystring: eventQueueFailedQuerySchema }, preHandler: read },
    async (request): Promise<EventQueueFailedResponse> => listFailedEvents(pool, request.query),
  );

  typed.post(
    `${EVENT_QUEUE_API_PATH}/retry`,
    { schema: { body: eventQueueSelectionSchema }, preHandler: write },
    async (request): Promise<EventQueueActionResponse> => ({
      count: await requeueFailedEvents(pool, request.body),
    }),
  );

  typed.post(
    `${EVENT_QUEUE_API_PATH}/discard`,
    { schema: { body: eventQueueSelectionSchema }, preHandler: write },
    async (request): Promise<EventQueueActionResponse> => ({
      count: await discardFailedEvents(pool, request.body),
    }),
  );
}
