import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ModuleServices } from '../../server-module.js';
import { createConnectionResolver, createValueFromResolver } from '../resources/index.js';
import { DELIVERY_MAX_ATTEMPTS, deliverEvent, type DeliveryDependencies } from './delivery.js';
import { parseDurationMs } from './durations.js';
import { NOTIFICATION_EVENT_PREFIX } from './event-context.js';
import { createHttpSender } from './http-sender.js';

export interface NotificationWorkersOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'events'>;
  logger: Logger;
  secrets?: SecretBox;
  /** Other modules' worker services (the playbooks module's starts playbook recipients' runs). */
  services?: Partial<ModuleServices>;
  /** The system SMTP server; default SMTP_URL and SMTP_FROM. */
  smtp?: { url: string; from: string };
  /**
   * Provider origins sent elsewhere (a proxy, a regional endpoint, a local peer); default the
   * JSON object in NOTIFICATION_ORIGIN_OVERRIDES, e.g. {"https://api.opsgenie.com":"https://api.eu.opsgenie.com"}.
   */
  originOverrides?: Record<string, string>;
  maxAttempts?: number;
  /** How long a groupBy group's message waits for the group to fill; default NOTIFICATION_GROUP_WAIT or 30s. */
  groupWaitMs?: number;
}

function overridesFromEnv(logger: Logger): Record<string, string> | undefined {
  const text = process.env.NOTIFICATION_ORIGIN_OVERRIDES;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    logger.error('NOTIFICATION_ORIGIN_OVERRIDES is not a JSON object; ignored');
    return undefined;
  }
}

/**
 * Consumes `notification.*`: the copies the platform's fan-out makes for each subscribing
 * notification (migration 0290), the delayed group sends and the fallbacks.
 */
export function startNotificationWorkers(options: NotificationWorkersOptions): { stop(): void } {
  const { pool, logger } = options;
  const smtp =
    options.smtp ??
    (process.env.SMTP_URL
      ? { url: process.env.SMTP_URL, from: process.env.SMTP_FROM ?? 'Opsdeck <no-reply@opsdeck.local>' }
      : undefined);
  const send = createHttpSender({ originOverrides: options.originOverrides ?? overridesFromEnv(logger) });
  const deps: DeliveryDependencies = {
    pool,
    logger,
    smtp,
    http: send,
    resolveConnection: createConnectionResolver(
      pool,
      options.secrets,
      createValueFromResolver(pool, options.secrets),
    ),
    maxAttempts: options.maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
    secrets: options.secrets,
    startPlaybookRun: options.services?.startPlaybookRunForNotification,
    groupWaitMs: options.groupWaitMs ?? parseDurationMs(process.env.NOTIFICATION_GROUP_WAIT) ?? undefined,
  };
  const pattern = `${NOTIFICATION_EVENT_PREFIX}*`;
  options.jobs.events.on(pattern, (event) => deliverEvent(event, deps), {
    maxAttempts: options.maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
  });
  return { stop: () => options.jobs.events.off(pattern) };
}
