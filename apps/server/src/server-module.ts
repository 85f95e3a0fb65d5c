import type { FastifyInstance } from 'fastify';
import type { OpsdeckConfig } from './config.js';
import type { DataApiAllowlist, DataApiAllowlistInput, RowChecker } from './data-api/index.js';
import type { Pool } from './platform/db/pool.js';
import type { JobsService } from './platform/jobs/index.js';
import type { Logger } from './platform/logger.js';
import type { SecretBox } from './platform/secrets.js';
import type { Metrics } from './platform/telemetry/metrics.js';
import type { ResourceKind } from './resource-kinds/index.js';

/**
 * What a module gives the server, in one place: `modules/<area>/module.ts` exports one value of
 * this type and `src/modules.ts` lists it once. app.ts and workers.ts know no module by name:
 * they register every module's relations, kinds, routes and workers from the list.
 *
 * A module reaches another only through that module's `index.js` (lint enforces it); the
 * composition here is the only place that sees them all.
 */
export interface ServerModule {
  /** The folder name under `modules/`. */
  readonly name: string;
  /**
   * The data-API relations this module owns (its tables and views, with read SQL for views that
   * aggregate rows a caller may not see) and the functions it exposes. Merged with every other
   * module's into the one allowlist; a relation listed by two modules is a start-up error.
   */
  readonly dataApi?: DataApiAllowlistInput;
  /** Checks on rows written through the data API, for this module's relations (or any). */
  readonly dataApiRowChecks?: RowChecker;
  /** The resource kinds (YAML `kind:`) whose table this module owns, in listing order. */
  readonly kinds?: readonly ResourceKind[];
  /**
   * Registers the module's HTTP routes. Called after the auth plugin (every /api route has a
   * caller) and the data API, in the order of `src/modules.ts`.
   */
  readonly routes?: (app: FastifyInstance, context: ModuleContext) => Promise<void>;
  /**
   * Starts the module's schedules and event-queue consumers in a process that runs workers
   * (WORKERS is not false). Stopped in reverse order at shutdown.
   */
  readonly startWorkers?: (context: WorkerContext) => Promise<ModuleWorkers>;
  /**
   * Services this module's workers offer other modules' workers where importing its index would
   * make an import cycle (the composition hands them over in `WorkerContext.services`).
   */
  readonly services?: Partial<ModuleServices>;
  /** Runs before /metrics is answered (drop series of things deleted meanwhile). */
  readonly beforeMetricsScrape?: (context: ModuleContext) => Promise<void>;
}

export interface ModuleWorkers {
  stop(): Promise<void> | void;
}

/** What every module's routes get from the composition. */
export interface ModuleContext {
  pool: Pool;
  logger: Logger;
  /** Seals secrets at rest and opens them for a run. */
  secrets: SecretBox;
  /** Records job history for work a route starts (Run Now). */
  jobs: Pick<JobsService, 'startJob'>;
  metrics: Metrics;
  /** The app's configuration (the parts modules read). */
  config: Pick<OpsdeckConfig, 'auth'> & Partial<Pick<OpsdeckConfig, 'tls'>>;
  /** The one data-API allowlist, merged from every module's relations. */
  dataApi: DataApiAllowlist;
}

/** What every module's workers get from the composition. */
export interface WorkerContext {
  pool: Pool;
  /** The module's own child logger (`component: <module name>`). */
  logger: Logger;
  jobs: JobsService;
  metrics: Metrics;
  secrets?: SecretBox;
  /** Every module's `services`, merged. */
  services?: Partial<ModuleServices>;
}

/** What a notification's playbook recipient asks the playbooks module for. */
export interface NotificationPlaybookRun {
  /** The recipient's `playbook`: `namespace/name`, or a name in the `default` namespace. */
  playbook: string;
  notificationId: string;
  /** The notification as `namespace/name` (a permission subject may name it so). */
  notificationName: string;
  eventId: string;
  eventName: string;
  /** The event's resource: `check`, `config` or `component` bind the run to it. */
  resourceType: string | null;
  resourceId: string | null;
  secrets?: SecretBox;
}

/** Cross-module worker services, by name (see `ServerModule.services`). */
export interface ModuleServices {
  /**
   * playbooks: starts (once per event) the run a notification's playbook recipient asks for, or
   * says why it may not (no such playbook, no playbook:run for the notification, bad parameters).
   */
  startPlaybookRunForNotification(
    pool: Pool,
    request: NotificationPlaybookRun,
  ): Promise<{ runId: string } | { refused: string }>;
}
