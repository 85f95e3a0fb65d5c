export {
  EVENT_QUEUE_CHANNEL,
  enqueueEvent,
  enqueueEvents,
  requeueFailedEvents,
  type ConsumerOptions,
  type EnqueueOptions,
  type EventContext,
  type EventHandler,
  type EventProperties,
  type EventToEnqueue,
  type QueuedEvent,
} from './event-queue.js';
export { MAX_STORED_ERRORS, type JobDetailKey, type JobRun, type StartJobOptions } from './job-history.js';
export { applyJobsRetention, registerJobsMaintenance, type RetentionOptions } from './maintenance.js';
export { createJobsService, type JobsService, type JobsServiceOptions } from './jobs-service.js';
export {
  createResourceScheduleSync,
  type ResourceScheduleDecision,
  type ResourceScheduleSync,
  type ResourceScheduleSyncOptions,
} from './resource-schedules.js';
export { InvalidScheduleError, parseSchedule } from './schedule-expression.js';
export { DEFAULT_SCHEDULE_TIMEOUT_MS, type ScheduleContext, type ScheduleDefinition } from './schedules.js';
export type { JobsLogger, Queryable } from './support.js';
export {
  listEventSubscriptions,
  setEventSubscriptions,
  type EventSubscription,
} from './event-queue-subscriptions.js';
export {
  discardFailedEvents,
  eventQueueStatus,
  listFailedEvents,
  type EventQueueNameStatus,
  type FailedEvent,
} from './event-queue-status.js';
