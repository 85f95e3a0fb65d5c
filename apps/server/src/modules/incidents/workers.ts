import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import { incidentRuleHandlers } from './incident-rules.js';
import {
  CHECK_FAILED_EVENT,
  CHECK_PASSED_EVENT,
  RULE_EVALUATE_EVENT,
  RULE_RECOVER_EVENT,
} from './rule-types.js';

export interface IncidentWorkersOptions {
  pool: Pool;
  /** startJob: each rule evaluation is written to job history. */
  jobs: Pick<JobsService, 'events' | 'startJob'>;
  logger: Logger;
}

export interface IncidentWorkers {
  /** Removes this module's consumers (in-flight handlers finish with the jobs service). */
  stop(): void;
}

/** The events this module consumes; each name may have only one consumer in the jobs service. */
export const INCIDENT_WORKER_EVENTS = [
  CHECK_FAILED_EVENT,
  CHECK_PASSED_EVENT,
  RULE_EVALUATE_EVENT,
  RULE_RECOVER_EVENT,
] as const;

/** Registers the incident-rules consumers on the jobs service's event queue. */
export function startIncidentWorkers(options: IncidentWorkersOptions): IncidentWorkers {
  const logger = options.logger.child({ component: 'incidents' });
  for (const name of INCIDENT_WORKER_EVENTS) {
    const handler = incidentRuleHandlers[name];
    options.jobs.events.on(name, (event, context) =>
      handler(event, {
        ...context,
        pool: options.pool,
        logger,
        startJob: (job) => options.jobs.startJob(job),
      }),
    );
  }
  return {
    stop: () => {
      for (const name of INCIDENT_WORKER_EVENTS) options.jobs.events.off(name);
    },
  };
}
