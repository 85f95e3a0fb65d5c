import type { Pool } from '../../platform/db/pool.js';
import type { SecretBox } from '../../platform/secrets.js';
import {
  createResourceScheduleSync,
  type JobsService,
  type JobsLogger,
  type ResourceScheduleSync,
} from '../../platform/jobs/index.js';
import { validateParameters } from './parameters.js';
import { createRun } from './runs.js';
import { parametersOf, type PlaybookRecord } from './store.js';

interface PlaybookScheduleRow extends PlaybookRecord {
  updated_at: Date;
  deleted_at: Date | null;
}

export const DEFAULT_PLAYBOOK_SCHEDULE_POLL_MS = 10_000;

export function playbookScheduleName(id: string): string {
  return `playbook:${id}`;
}

/** The first `on.schedule[].schedule` of a playbook (the ecosystem's list; one schedule each here). */
export function scheduleOfPlaybook(spec: Record<string, unknown>): string | null {
  const on = spec.on as { schedule?: unknown } | undefined;
  const list = Array.isArray(on?.schedule) ? (on.schedule as { schedule?: unknown }[]) : [];
  const first = list.find((entry) => typeof entry?.schedule === 'string' && entry.schedule.trim() !== '');
  return first ? String(first.schedule) : null;
}

/**
 * Schedule triggers: each live playbook with `on.schedule` gets one schedule on the platform's
 * scheduler (claimed by one process per tick); a tick starts a run with the parameters' defaults.
 */
export function startPlaybookSchedules(options: {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: JobsLogger;
  pollIntervalMs?: number;
  /** Seals secret parameters of the runs it starts. */
  secrets?: SecretBox;
}): ResourceScheduleSync {
  const { pool, secrets } = options;
  return createResourceScheduleSync<PlaybookScheduleRow>({
    jobs: options.jobs,
    logger: options.logger,
    kind: 'playbook',
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_PLAYBOOK_SCHEDULE_POLL_MS,
    load: async (knownIds) =>
      (
        await pool.query<PlaybookScheduleRow>(
          `SELECT id, name, namespace, title, description, spec, updated_at, deleted_at FROM playbooks
            WHERE (deleted_at IS NULL AND spec -> 'on' ? 'schedule') OR id = ANY($1::uuid[])`,
          [knownIds],
        )
      ).rows,
    idOf: (row) => row.id,
    updatedAtOf: (row) => row.updated_at,
    scheduleName: playbookScheduleName,
    decide: async (row) =>
      row.deleted_at ? { schedule: null, forget: true } : { schedule: scheduleOfPlaybook(row.spec) },
    definition: (row) => ({
      jobName: `playbook schedule ${row.name}`,
      resource: { type: 'playbook', id: row.id },
      handler: async ({ job, scheduledAt }) => {
        const current = await pool.query<PlaybookRecord>(
          'SELECT id, name, namespace, title, description, spec FROM playbooks WHERE id = $1 AND deleted_at IS NULL',
          [row.id],
        );
        const playbook = current.rows[0];
        if (!playbook) return;
        const run = await createRun(pool, {
          playbook,
          target: {},
          parameters: validateParameters(parametersOf(playbook.spec), {}),
          request: {
            trigger: 'schedule',
            schedule: scheduleOfPlaybook(playbook.spec),
            scheduled_at: scheduledAt.toISOString(),
          },
          createdBy: null,
          secrets,
        });
        job.setDetail('summary', { run_id: run.id });
        job.incrementSuccess();
      },
    }),
  });
}
