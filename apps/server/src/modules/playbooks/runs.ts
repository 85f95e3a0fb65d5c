import { withTransaction, type Pool } from '../../platform/db/pool.js';
import type { SecretBox } from '../../platform/secrets.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import { scheduleRun } from './runner.js';
import type { PlaybookRecord, RunTarget } from './store.js';

export interface NewRun {
  playbook: PlaybookRecord;
  target: RunTarget;
  parameters: Record<string, unknown>;
  /** What started the run: `{trigger: 'person', person_id}`, `{trigger: 'webhook', ...}`. */
  request: Record<string, unknown>;
  createdBy: string | null;
  /** Seals the values of `secret` parameters at rest (the runner opens them). */
  secrets?: SecretBox;
  /**
   * The request carries an `event_id`: a second run of this playbook for the same event is not
   * created (the unique index of migration 0210); createRun then answers undefined.
   */
  oncePerEvent?: boolean;
}

/** The run's parameter values with those of `secret` parameters sealed. */
function sealedParameters(run: NewRun): Record<string, unknown> {
  const definitions = Array.isArray(run.playbook.spec.parameters)
    ? (run.playbook.spec.parameters as { name?: unknown; type?: unknown }[])
    : [];
  const secret = new Set(
    definitions.filter((parameter) => parameter.type === 'secret').map((parameter) => parameter.name),
  );
  const { secrets } = run;
  if (!secrets || secret.size === 0) return run.parameters;
  return Object.fromEntries(
    Object.entries(run.parameters).map(([name, value]) => [
      name,
      secret.has(name) && typeof value === 'string' && value !== '' ? secrets.seal(value) : value,
    ]),
  );
}

/**
 * Records a run and, unless its playbook needs approval (then it waits in pending_approval),
 * puts it in the queue, in one transaction with its `playbook.run.<status>` event.
 */
export async function createRun(
  pool: Pool,
  run: NewRun & { oncePerEvent: true },
): Promise<{ id: string; scheduled_time: Date } | undefined>;
export async function createRun(pool: Pool, run: NewRun): Promise<{ id: string; scheduled_time: Date }>;
export async function createRun(
  pool: Pool,
  run: NewRun,
): Promise<{ id: string; scheduled_time: Date } | undefined> {
  const needsApproval = Boolean(run.playbook.spec.approval && typeof run.playbook.spec.approval === 'object');
  const status = needsApproval ? 'pending_approval' : 'scheduled';
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; scheduled_time: Date }>(
      `INSERT INTO playbook_runs (playbook_id, status, spec, parameters, request, config_id, component_id, check_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ${
         run.oncePerEvent
           ? `ON CONFLICT (playbook_id, (request ->> 'event_id')) WHERE request ->> 'event_id' IS NOT NULL DO NOTHING`
           : ''
       }
       RETURNING id, scheduled_time`,
      [
        run.playbook.id,
        status,
        run.playbook.spec,
        sealedParameters(run),
        run.request,
        run.target.config_id ?? null,
        run.target.component_id ?? null,
        run.target.check_id ?? null,
        run.createdBy,
      ],
    );
    const created = rows[0];
    if (!created) return undefined;
    await enqueueEvent(client, `playbook.run.${status}`, {
      id: created.id,
      playbook_id: run.playbook.id,
      status,
    });
    if (!needsApproval) await scheduleRun(client, created.id);
    return created;
  });
}
