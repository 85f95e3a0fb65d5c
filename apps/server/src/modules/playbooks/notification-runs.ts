import { actionCovers } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import type { NotificationPlaybookRun } from '../../server-module.js';
import { resourceOfEvent } from './event-triggers.js';
import { validateParameters } from './parameters.js';
import { createRun } from './runs.js';
import {
  parametersOf,
  renderParameters,
  templateVariables,
  type PlaybookRecord,
  type RunTarget,
  type TargetKind,
} from './store.js';

/** Why a notification's playbook recipient started no run (recorded on its send history row). */
class PlaybookRunRefused extends Error {}

const TARGET_OF: Record<string, TargetKind> = { check: 'checks', config: 'configs', component: 'components' };

/**
 * Spec settings §2.2/§3: a notification is a permission subject, and a playbook recipient runs
 * only with `playbook:run` granted to that notification, on this playbook or on all playbooks; a
 * Deny wins. Rows narrowed by selectors or tags are not evaluated here and grant nothing.
 */
async function notificationMayRun(pool: Pool, request: NotificationPlaybookRun, playbookId: string) {
  const { rows } = await pool.query<{ action: string; deny: boolean }>(
    `SELECT p.action, p.deny FROM permissions p
      WHERE p.deleted_at IS NULL AND (p.until IS NULL OR p.until > now())
        AND (p.notification_id = $1
             OR (p.subject_type = 'notification' AND p.notification_id IS NULL AND p.subject IN ($1::text, $2)))
        AND (p.playbook_id = $3
             OR (p.playbook_id IS NULL AND p.config_id IS NULL AND p.component_id IS NULL AND p.canary_id IS NULL
                 AND p.check_id IS NULL AND p.connection_id IS NULL AND p.object IN ('playbooks', '*')))
        AND (p.object_selector IS NULL OR p.object_selector IN ('null'::jsonb, '{}'::jsonb))
        AND (p.tags IS NULL OR p.tags = '{}'::jsonb)
        AND coalesce(cardinality(p.agents), 0) = 0`,
    [request.notificationId, request.notificationName, playbookId],
  );
  if (rows.some((row) => row.deny && actionCovers(row.action, 'playbook:run', 'deny'))) return false;
  return rows.some((row) => !row.deny && actionCovers(row.action, 'playbook:run', 'allow'));
}

/**
 * Starts the run a notification's playbook recipient asks for, once per event (a redelivery finds
 * the run it started), bound to the event's check, config item or component, with the playbook's
 * parameter defaults rendered against that resource and the event. Answers the run's id.
 */
export async function startPlaybookRunForNotification(
  pool: Pool,
  request: NotificationPlaybookRun,
): Promise<{ runId: string } | { refused: string }> {
  try {
    return await startRun(pool, request);
  } catch (error) {
    if (error instanceof PlaybookRunRefused) return { refused: error.message };
    throw error;
  }
}

async function startRun(pool: Pool, request: NotificationPlaybookRun): Promise<{ runId: string }> {
  const [namespace, name] = request.playbook.includes('/')
    ? request.playbook.split('/', 2)
    : ['default', request.playbook];
  const { rows } = await pool.query<PlaybookRecord>(
    `SELECT id, name, namespace, title, description, spec FROM playbooks
      WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
    [namespace, name],
  );
  const playbook = rows[0];
  if (!playbook) throw new PlaybookRunRefused(`playbook ${namespace}/${name} was not found`);
  if (!(await notificationMayRun(pool, request, playbook.id))) {
    throw new PlaybookRunRefused(
      `the notification has no playbook:run permission on playbook ${namespace}/${name}`,
    );
  }
  const kind = request.resourceType ? TARGET_OF[request.resourceType] : undefined;
  const resource =
    kind && request.resourceId && /^[0-9a-f-]{36}$/i.test(request.resourceId)
      ? await resourceOfEvent(pool, kind, request.resourceId)
      : undefined;
  const target: RunTarget = {};
  if (kind && resource) {
    if (kind === 'checks') target.check_id = resource.id;
    if (kind === 'configs') target.config_id = resource.id;
    if (kind === 'components') target.component_id = resource.id;
  }
  const variables = {
    ...(kind ? templateVariables(kind, resource) : {}),
    event: { name: request.eventName, id: request.eventId },
  };
  let parameters: Record<string, unknown>;
  try {
    parameters = validateParameters(renderParameters(parametersOf(playbook.spec), variables), {});
  } catch (error) {
    throw new PlaybookRunRefused(
      `playbook ${namespace}/${name} cannot start from an event: ${(error as Error).message}`,
    );
  }
  const run = await createRun(pool, {
    playbook,
    target,
    parameters,
    request: {
      trigger: 'notification',
      notification_id: request.notificationId,
      event: request.eventName,
      event_id: request.eventId,
    },
    createdBy: null,
    secrets: request.secrets,
    oncePerEvent: true,
  });
  if (run) return { runId: run.id };
  // This event already started this playbook (a redelivery, or the playbook's own event trigger).
  const existing = await pool.query<{ id: string }>(
    `SELECT id FROM playbook_runs WHERE playbook_id = $1 AND request ->> 'event_id' = $2 LIMIT 1`,
    [playbook.id, request.eventId],
  );
  return { runId: existing.rows[0]!.id };
}
