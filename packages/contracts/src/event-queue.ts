import { z } from 'zod';

/** The settings page's API (issue 27): the event queue per name, its failed events, retry and discard. */
export const EVENT_QUEUE_API_PATH = '/api/event-queue';

/** One event name of the queue. Ages in seconds; `null` when there is nothing of that kind. */
export const eventQueueNameSummarySchema = z.object({
  name: z.string(),
  /** Waiting to be handled (not claimed now), including retries. */
  pending: z.number().int(),
  /** Claimed by a worker that is handling them now. */
  in_flight: z.number().int(),
  /** Dead-lettered: no attempts left. */
  failed: z.number().int(),
  /** Age of the oldest event not yet handled (pending or in flight). */
  oldest_pending_age_seconds: z.number().nullable(),
  average_attempts: z.number(),
  last_error: z.string().nullable(),
  last_failure: z.string().nullable(),
});
export type EventQueueNameSummary = z.infer<typeof eventQueueNameSummarySchema>;

export const eventQueueSummaryResponseSchema = z.object({ names: z.array(eventQueueNameSummarySchema) });
export type EventQueueSummaryResponse = z.infer<typeof eventQueueSummaryResponseSchema>;

export const eventQueueFailedEventSchema = z.object({
  id: z.string(),
  name: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  last_attempt: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()),
});
export type EventQueueFailedEvent = z.infer<typeof eventQueueFailedEventSchema>;

/** Query of `GET /api/event-queue/failed`. */
export const eventQueueFailedQuerySchema = z.object({
  name: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const eventQueueFailedResponseSchema = z.object({
  events: z.array(eventQueueFailedEventSchema),
  total: z.number().int(),
});
export type EventQueueFailedResponse = z.infer<typeof eventQueueFailedResponseSchema>;

/** Body of `POST /api/event-queue/retry` and `POST /api/event-queue/discard`: failed events by id or by name. */
export const eventQueueSelectionSchema = z
  .object({
    ids: z.array(z.uuid()).min(1).max(1000).optional(),
    name: z.string().min(1).optional(),
  })
  .refine((value) => value.ids !== undefined || value.name !== undefined, {
    message: 'ids or name is required',
    path: ['ids'],
  });
export type EventQueueSelection = z.infer<typeof eventQueueSelectionSchema>;

export const eventQueueActionResponseSchema = z.object({ count: z.number().int() });
export type EventQueueActionResponse = z.infer<typeof eventQueueActionResponseSchema>;
