import { evaluateCel } from '../../expressions/index.js';
import type { Pool } from '../../platform/db/pool.js';
import type { EventHandler, JobsLogger } from '../../platform/jobs/index.js';
import type { SecretBox } from '../../platform/secrets.js';
import { validateParameters } from './parameters.js';
import { createRun } from './runs.js';
import {
  loadResource,
  parametersOf,
  renderParameters,
  templateVariables,
  type LoadedResource,
  type PlaybookRecord,
  type RunTarget,
  type TargetKind,
} from './store.js';

/**
 * The subscriber name of playbook event triggers in `event_queue_subscriptions` (migration 0210):
 * `check.failed` reaches this module as `playbook.trigger.check.failed`, once per subscribed
 * playbook, with `subscription_owner` = the playbook's id.
 */
export const PLAYBOOK_TRIGGER_SUBSCRIBER = 'playbook.trigger';

/** `on.<key>` of a playbook spec, the event-name prefix it listens to, and the resource bound. */
export const EVENT_TRIGGER_KINDS = [
  { key: 'canary', prefix: 'check', target: 'checks' },
  { key: 'config', prefix: 'config', target: 'configs' },
  { key: 'component', prefix: 'component', target: 'components' },
] as const satisfies readonly { key: string; prefix: string; target: TargetKind }[];

interface EventTriggerSpec {
  event?: unknown;
  filter?: unknown;
  labels?: unknown;
}

function triggersOf(spec: Record<string, unknown>, key: string): EventTriggerSpec[] {
  const on = spec.on;
  if (!on || typeof on !== 'object' || Array.isArray(on)) return [];
  const list = (on as Record<string, unknown>)[key];
  return Array.isArray(list)
    ? (list.filter((entry) => entry && typeof entry === 'object') as EventTriggerSpec[])
    : [];
}

/** Whether a trigger's `labels` all equal the resource's labels. */
function labelsMatch(required: unknown, labels: Record<string, string>): boolean {
  if (!required || typeof required !== 'object' || Array.isArray(required)) return true;
  return Object.entries(required as Record<string, unknown>).every(
    ([key, value]) => labels[key] === String(value),
  );
}

/**
 * Whether one `on` entry takes the event: its event name, its `labels` and its CEL `filter` over
 * the resource (`check`, `config`, `component`) and the event (`event.name`, `event.properties`).
 * A filter that does not evaluate to true (or fails to evaluate) does not take it.
 */
export function triggerMatches(
  trigger: EventTriggerSpec,
  eventSuffix: string,
  resource: LoadedResource | undefined,
  variables: Record<string, unknown>,
  logger?: JobsLogger,
): boolean {
  if (trigger.event !== eventSuffix) return false;
  if (!labelsMatch(trigger.labels, resource?.labels ?? {})) return false;
  const filter = typeof trigger.filter === 'string' ? trigger.filter.trim() : '';
  if (filter === '') return true;
  try {
    const value = evaluateCel(filter, variables);
    return value === true || value === 'true';
  } catch (error) {
    logger?.warn({ filter, err: (error as Error).message }, 'playbook trigger: filter failed to evaluate');
    return false;
  }
}

/** Loads the resource of an event; a deleted one (config.deleted) is still bound by id. */
export async function resourceOfEvent(
  pool: Pool,
  kind: TargetKind,
  id: string,
): Promise<LoadedResource | undefined> {
  const live = await loadResource(pool, kind, id);
  if (live) return live;
  const table = kind === 'configs' ? 'config_items' : kind;
  const { rows } = await pool.query<{ id: string; name: string | null; type: string | null }>(
    `SELECT id, name, type FROM ${table} WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name ?? '',
    namespace: null,
    type: row.type,
    labels: {},
    value: { id: row.id, name: row.name, type: row.type, deleted: true },
  };
}

/**
 * Consumes `playbook.trigger.<event>` copies: loads the subscribing playbook, binds the event's
 * resource (check, config or component), evaluates its `on` entries and starts one run when one
 * matches. The run is keyed by (playbook, event id) in the database, so a retried or redelivered
 * copy never starts a second run.
 */
export function createEventTriggerHandler(deps: {
  pool: Pool;
  logger: JobsLogger;
  secrets?: SecretBox;
}): EventHandler {
  const { pool, logger } = deps;
  return async (event) => {
    const props = event.properties as Record<string, unknown>;
    const playbookId = typeof props.subscription_owner === 'string' ? props.subscription_owner : '';
    const eventName = typeof props.event_name === 'string' ? props.event_name : '';
    const eventId = typeof props.event_id === 'string' ? props.event_id : event.id;
    const kind = EVENT_TRIGGER_KINDS.find((candidate) => eventName.startsWith(`${candidate.prefix}.`));
    if (playbookId === '' || !kind) return;
    const { rows } = await pool.query<PlaybookRecord>(
      'SELECT id, name, namespace, title, description, spec FROM playbooks WHERE id = $1 AND deleted_at IS NULL',
      [playbookId],
    );
    const playbook = rows[0];
    if (!playbook) return;
    const resourceId = String(props.check_id ?? props.id ?? '');
    const resource = /^[0-9a-f-]{36}$/i.test(resourceId)
      ? await resourceOfEvent(pool, kind.target, resourceId)
      : undefined;
    const variables = {
      ...templateVariables(kind.target, resource),
      event: { name: eventName, id: eventId, properties: props },
    };
    const suffix = eventName.slice(kind.prefix.length + 1);
    const matched = triggersOf(playbook.spec, kind.key).find((trigger) =>
      triggerMatches(trigger, suffix, resource, variables, logger),
    );
    if (!matched) return;
    const target: RunTarget = {};
    if (resource) {
      if (kind.target === 'checks') target.check_id = resource.id;
      if (kind.target === 'configs') target.config_id = resource.id;
      if (kind.target === 'components') target.component_id = resource.id;
    }
    let parameters: Record<string, unknown>;
    try {
      parameters = validateParameters(renderParameters(parametersOf(playbook.spec), variables), {});
    } catch (error) {
      // A required parameter without a default: no run can start from an event; retrying won't help.
      logger.warn(
        { playbook: playbook.id, event: eventName, err: (error as Error).message },
        'playbook trigger: the parameters have no valid defaults; no run started',
      );
      return;
    }
    const run = await createRun(pool, {
      playbook,
      target,
      parameters,
      request: {
        trigger: 'event',
        event: eventName,
        event_id: eventId,
        ...(typeof matched.filter === 'string' && matched.filter !== '' ? { filter: matched.filter } : {}),
      },
      createdBy: null,
      secrets: deps.secrets,
      oncePerEvent: true,
    });
    if (run)
      logger.info({ playbook: playbook.id, run: run.id, event: eventName }, 'playbook triggered by an event');
  };
}
