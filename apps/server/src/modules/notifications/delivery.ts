import { createHash } from 'node:crypto';
import { evaluateCel, renderTemplate } from '../../expressions/index.js';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { enqueueEvent, type QueuedEvent } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ModuleServices } from '../../server-module.js';
import type { ConnectionResolver } from '../resources/index.js';
import {
  channelFor,
  DeliveryError,
  type ChannelContext,
  type HttpRequest,
  type HttpResponse,
  type RenderedMessage,
} from './channels/index.js';
import { parseDurationMs } from './durations.js';
import {
  defaultTemplates,
  FALLBACK_EVENT,
  loadEventEnvironment,
  NOTIFICATION_EVENT_PREFIX,
  notificationEventName,
  stillHolds,
  type EventEnvironment,
} from './event-context.js';
import { findSilence } from './silences.js';
import { resolveRecipients, type Recipient, type RecipientSpec } from './recipients.js';

/** How many times the event queue runs a delivery before its failures are final. */
export const DELIVERY_MAX_ATTEMPTS = 4;
/** The default `groupByInterval`: events of one group within it make one message. */
export const DEFAULT_GROUP_BY_INTERVAL = '1h';
/** How long a group's message waits for more events of its group before it is sent. */
export const DEFAULT_GROUP_WAIT_MS = 30_000;
/** The delayed send of a group's one message (enqueued by the group's first event). */
export const GROUP_SEND_EVENT = 'notification.group.send';
/** At most this many grouped resources are listed in a group's message; the rest are counted. */
export const GROUP_MESSAGE_MAX_RESOURCES = 50;

export interface DeliveryDependencies {
  pool: Pool;
  logger: Logger;
  resolveConnection: ConnectionResolver;
  http: (request: HttpRequest, provider: string) => Promise<HttpResponse>;
  smtp?: { url: string; from: string };
  maxAttempts?: number;
  /** Seals the secret parameters of the runs playbook recipients start. */
  secrets?: SecretBox;
  /** The playbooks module's service (absent where that module does not run workers). */
  startPlaybookRun?: ModuleServices['startPlaybookRunForNotification'];
  /** How long a group's first event waits for others before its one message goes; default 30 s. */
  groupWaitMs?: number;
}

interface Inhibition {
  direction?: 'outgoing' | 'incoming' | 'all';
  from?: string[];
  to?: string[];
}

interface RuleRow {
  id: string;
  name: string;
  namespace: string;
  events: string[];
  title: string | null;
  template: string | null;
  filter: string | null;
  repeat_interval: string | null;
  wait_for: string | null;
  group_by: string[] | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown;
  spec: {
    to?: RecipientSpec;
    fallback?: RecipientSpec & { delay?: string };
    groupByInterval?: string;
    inhibitions?: Inhibition[];
  } | null;
}

export interface EventIdentity {
  /** The original event's id (the idempotency key's middle part). */
  eventId: string;
  /** `check.failed`, `config.updated`, … */
  sourceEvent: string;
}

function keyOf(ruleId: string, eventId: string, part: string): string {
  return createHash('sha256').update(`${ruleId}\u0000${eventId}\u0000${part}`).digest('hex');
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Renders a rule's title and body (or the event's defaults) against the event environment. */
export function renderMessage(
  rule: Pick<RuleRow, 'title' | 'template'>,
  sourceEvent: string,
  env: EventEnvironment,
): RenderedMessage {
  const defaults = defaultTemplates(sourceEvent);
  return {
    title: renderTemplate(rule.title ?? defaults.title, env.variables).trim(),
    body: renderTemplate(rule.template ?? defaults.body, env.variables).trim(),
  };
}

function groupValue(field: string, env: EventEnvironment): string {
  const resource = (env.variables[env.resourceType === 'playbook_run' ? 'playbook_run' : env.resourceType] ??
    {}) as Record<string, unknown>;
  const [prefix, name] = field.includes(':') ? field.split(':', 2) : ['', field];
  if (prefix === 'tag') return String((resource.tags as Record<string, unknown> | undefined)?.[name] ?? '');
  if (prefix === 'label')
    return String((resource.labels as Record<string, unknown> | undefined)?.[name] ?? '');
  let value: unknown = name.startsWith('resource.') ? resource : env.variables;
  for (const part of (name.startsWith('resource.') ? name.slice('resource.'.length) : name).split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

/** The notification event's handler: one event, every rule that subscribes to it. */
export async function deliverEvent(event: QueuedEvent, deps: DeliveryDependencies): Promise<void> {
  if (event.name === FALLBACK_EVENT) {
    await deliverFallback(event, deps);
    return;
  }
  if (event.name === GROUP_SEND_EVENT) {
    await deliverGroup(event, deps);
    return;
  }
  const queueName = event.name.slice(NOTIFICATION_EVENT_PREFIX.length);
  let properties = event.properties;
  const sourceEvent = notificationEventName(queueName, properties);
  // Responder events are about their incident.
  if (queueName !== sourceEvent && sourceEvent.startsWith('incident.') && properties.incident_id) {
    properties = { ...properties, id: properties.incident_id };
  }
  const identity: EventIdentity = {
    sourceEvent,
    eventId: String(properties.origin_event_id ?? properties.event_id ?? event.id),
  };
  // A copy of the fan-out (ADR 0021) is for its subscribing notification only; a copy made by the
  // old trigger (0130, still queued after an upgrade) is for every notification of its name.
  const owner = typeof properties.subscription_owner === 'string' ? properties.subscription_owner : null;
  const { rows: rules } = await deps.pool.query<RuleRow>(
    `SELECT id, name, namespace, events, title, template, filter, repeat_interval, wait_for, group_by,
            person_id, team_id, custom_services, spec
       FROM notifications WHERE deleted_at IS NULL AND $1 = ANY(events) AND ($2::uuid IS NULL OR id = $2)
      ORDER BY created_at`,
    [sourceEvent, owner],
  );
  if (rules.length === 0) return;
  const env = await loadEventEnvironment(deps.pool, sourceEvent, properties);
  const failures: string[] = [];
  for (const rule of rules) {
    try {
      await deliverRule(rule, env, identity, event, deps);
    } catch (error) {
      if (!(error instanceof RetryLater)) throw error;
      failures.push(error.message);
    }
  }
  if (failures.length > 0) throw new DeliveryError(failures.join('; '));
}

class RetryLater extends Error {}

async function recordRuleOutcome(
  db: Pool | PoolClient,
  rule: RuleRow,
  identity: EventIdentity,
  env: EventEnvironment,
  status: string,
  extra: { error?: string; silencedBy?: string; parentId?: string; groupKey?: string } = {},
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notification_send_history
       (notification_id, status, source_event, resource_id, resource_type, error, silenced_by, parent_id,
        idempotency_key, group_key, event_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    [
      rule.id,
      status,
      identity.sourceEvent,
      env.resourceId,
      env.resourceType,
      extra.error ?? null,
      extra.silencedBy ?? null,
      extra.parentId ?? null,
      keyOf(rule.id, identity.eventId, `rule:${status}`),
      extra.groupKey ?? null,
      identity.eventId,
    ],
  );
  return rows[0]?.id;
}

async function setRuleError(pool: Pool, ruleId: string, error: string | null): Promise<void> {
  await pool.query(
    `UPDATE notifications SET error = $2, error_at = CASE WHEN $2::text IS NULL THEN error_at ELSE now() END
      WHERE id = $1 AND error IS DISTINCT FROM $2`,
    [ruleId, error],
  );
}

async function deliverRule(
  rule: RuleRow,
  env: EventEnvironment,
  identity: EventIdentity,
  event: QueuedEvent,
  deps: DeliveryDependencies,
): Promise<void> {
  const { pool } = deps;
  if (rule.filter) {
    let result: unknown;
    try {
      result = evaluateCel(rule.filter, env.variables);
    } catch (error) {
      await setRuleError(pool, rule.id, `filter: ${(error as Error).message}`);
      return;
    }
    if (!truthy(result)) return;
  }
  // 1. Silences.
  const silencedBy = await findSilence(pool, env);
  if (silencedBy) {
    await recordRuleOutcome(pool, rule, identity, env, 'silenced', { silencedBy });
    return;
  }
  // 2. repeatInterval: nothing about this resource and event was sent by this rule within it.
  const repeatMs = parseDurationMs(rule.repeat_interval);
  if (repeatMs && env.resourceId) {
    const { rows } = await pool.query(
      `SELECT 1 FROM notification_send_history
        WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3 AND status = 'sent'
          AND event_id IS DISTINCT FROM $4 AND created_at > now() - $5 * interval '1 millisecond' LIMIT 1`,
      [rule.id, env.resourceId, identity.sourceEvent, identity.eventId, repeatMs],
    );
    if (rows.length > 0) {
      await recordRuleOutcome(pool, rule, identity, env, 'repeat-interval');
      return;
    }
  }
  // 3. waitFor: wait, then send only if the resource is still in the event's state.
  const waitMs = parseDurationMs(rule.wait_for);
  if (waitMs && !event.properties.waited_for) {
    const recorded = await recordRuleOutcome(pool, rule, identity, env, 'pending');
    // A retry of this event (for another rule) must not schedule a second re-check.
    if (!recorded) return;
    await enqueueEvent(
      pool,
      event.name,
      { ...event.properties, waited_for: rule.id, origin_event_id: identity.eventId },
      { delayMs: waitMs },
    );
    return;
  }
  if (waitMs) {
    if (event.properties.waited_for !== rule.id) return;
    const holds = stillHolds(identity.sourceEvent, env.health);
    await pool.query(
      `UPDATE notification_send_history SET status = $2, updated_at = now() WHERE idempotency_key = $1`,
      [keyOf(rule.id, identity.eventId, 'rule:pending'), holds ? 'waited' : 'skipped'],
    );
    if (!holds) return;
  }
  // 4. Inhibitions: a recent message about an ancestor of a listed type suppresses this one.
  for (const inhibition of rule.spec?.inhibitions ?? []) {
    if (env.path.length === 0 || !(inhibition.to ?? []).includes(env.resourceKind ?? '')) continue;
    const { rows } = await pool.query(
      `SELECT 1 FROM notification_send_history s
         JOIN (SELECT id, type FROM config_items UNION ALL SELECT id, type FROM components) r ON r.id = s.resource_id
        WHERE s.notification_id = $1 AND s.status = 'sent' AND s.resource_id = ANY($2::uuid[])
          AND r.type = ANY($3::text[]) AND s.created_at > now() - interval '1 hour' LIMIT 1`,
      [rule.id, env.path, inhibition.from ?? []],
    );
    if (rows.length > 0) {
      await recordRuleOutcome(pool, rule, identity, env, 'inhibited');
      return;
    }
  }
  let message: RenderedMessage;
  try {
    message = renderMessage(rule, identity.sourceEvent, env);
  } catch (error) {
    await setRuleError(pool, rule.id, `template: ${(error as Error).message}`);
    await recordRuleOutcome(pool, rule, identity, env, 'failed', {
      error: `template: ${(error as Error).message}`,
    });
    return;
  }
  const recipients = await resolveRecipients(
    pool,
    {
      to: rule.spec?.to,
      person_id: rule.person_id,
      team_id: rule.team_id,
      custom_services: rule.custom_services,
    },
    deps.resolveConnection,
  );
  if (recipients.length === 0) {
    await setRuleError(pool, rule.id, 'the notification has no recipient');
    return;
  }
  // 5. groupBy: the first event of a group within groupByInterval is sent; later ones join it.
  let groupKey: string | undefined;
  if (rule.group_by && rule.group_by.length > 0) {
    groupKey = `${identity.sourceEvent}|${rule.group_by.map((field) => groupValue(field, env)).join('|')}`;
    const intervalMs =
      parseDurationMs(rule.spec?.groupByInterval) ?? parseDurationMs(DEFAULT_GROUP_BY_INTERVAL)!;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${rule.id}|${groupKey}`]);
      const { rows } = await client.query<{ id: string }>(
        `SELECT id FROM notification_send_history
          WHERE notification_id = $1 AND group_key = $2 AND parent_id IS NULL AND status <> 'grouped'
            AND event_id IS DISTINCT FROM $3 AND created_at > now() - $4 * interval '1 millisecond'
          ORDER BY created_at LIMIT 1`,
        [rule.id, groupKey, identity.eventId, intervalMs],
      );
      if (rows[0]) {
        const inserted = await recordRuleOutcome(client, rule, identity, env, 'grouped', {
          parentId: rows[0].id,
          groupKey,
        });
        if (inserted) {
          await client.query(
            'UPDATE notification_send_history SET count = count + 1, updated_at = now() WHERE id = $1',
            [rows[0].id],
          );
        }
        await client.query('COMMIT');
        return;
      }
      // The group's first event: its message waits for the group to fill, then lists them all.
      await insertPending(client, rule, identity, env, recipients, message, groupKey);
      await enqueueEvent(
        client,
        GROUP_SEND_EVENT,
        {
          notification_id: rule.id,
          source_event: identity.sourceEvent,
          origin_event_id: identity.eventId,
          group_key: groupKey,
          properties: event.properties,
        },
        { delayMs: deps.groupWaitMs ?? DEFAULT_GROUP_WAIT_MS },
      );
      await client.query('COMMIT');
      return;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  } else {
    await insertPending(pool, rule, identity, env, recipients, message, undefined);
  }
  await sendWithFallback(rule, identity, recipients, message, event, event.properties, deps);
}

/** 6. Sends to the rule's recipients; after a final failure, schedules the fallback. */
async function sendWithFallback(
  rule: RuleRow,
  identity: EventIdentity,
  recipients: Recipient[],
  message: RenderedMessage,
  event: QueuedEvent,
  eventProperties: Record<string, unknown>,
  deps: DeliveryDependencies,
): Promise<void> {
  const { pool } = deps;
  const final = event.attempts >= (deps.maxAttempts ?? DELIVERY_MAX_ATTEMPTS);
  const failed = await sendToRecipients(rule, identity, recipients, message, final, deps, 'to');
  const retrying = failed.filter((entry) => !entry.final);
  if (retrying.length > 0) {
    throw new RetryLater(
      `${rule.namespace}/${rule.name}: ${retrying.map((entry) => entry.error).join('; ')}`,
    );
  }
  const fallback = rule.spec?.fallback;
  if (failed.length > 0 && fallback) {
    await enqueueEvent(
      pool,
      FALLBACK_EVENT,
      {
        notification_id: rule.id,
        source_event: identity.sourceEvent,
        origin_event_id: identity.eventId,
        parent_id: failed[0].historyId,
        properties: eventProperties,
      },
      { delayMs: parseDurationMs(fallback.delay) ?? 0 },
    );
  }
}

async function insertPending(
  db: Pool | PoolClient,
  rule: RuleRow,
  identity: EventIdentity,
  env: EventEnvironment,
  recipients: Recipient[],
  message: RenderedMessage,
  groupKey: string | undefined,
  part = 'to',
  parentId: string | null = null,
): Promise<void> {
  for (const recipient of recipients) {
    await db.query(
      `INSERT INTO notification_send_history
         (notification_id, status, source_event, resource_id, resource_type, body, title, recipient,
          person_id, team_id, connection_id, idempotency_key, group_key, event_id, parent_id)
       VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (idempotency_key) DO NOTHING`,
      [
        rule.id,
        identity.sourceEvent,
        env.resourceId,
        env.resourceType,
        message.body,
        message.title,
        recipient.label,
        recipient.personId ?? null,
        recipient.teamId ?? null,
        recipient.connectionId ?? null,
        keyOf(rule.id, identity.eventId, `${part}:${recipient.key}`),
        groupKey ?? null,
        identity.eventId,
        parentId,
      ],
    );
  }
}

async function sendToRecipients(
  rule: Pick<RuleRow, 'id' | 'namespace' | 'name'>,
  identity: EventIdentity,
  recipients: Recipient[],
  message: RenderedMessage,
  final: boolean,
  deps: DeliveryDependencies,
  part: string,
): Promise<{ historyId: string; error: string; final: boolean }[]> {
  const failed: { historyId: string; error: string; final: boolean }[] = [];
  for (const recipient of recipients) {
    const key = keyOf(rule.id, identity.eventId, `${part}:${recipient.key}`);
    const { rows } = await deps.pool.query<{
      id: string;
      status: string;
      resource_id: string | null;
      resource_type: string | null;
    }>(
      'SELECT id, status, resource_id, resource_type FROM notification_send_history WHERE idempotency_key = $1',
      [key],
    );
    const row = rows[0];
    if (!row || row.status === 'sent' || row.status === 'failed') continue;
    const started = Date.now();
    let error: string | undefined;
    let refused = false;
    try {
      if (recipient.problem) throw new DeliveryError(recipient.problem);
      if (recipient.playbook) {
        // A playbook recipient starts a run (once per event) instead of sending a message.
        if (!deps.startPlaybookRun) {
          refused = true;
          throw new DeliveryError('playbooks do not run in this process');
        }
        const started = await deps.startPlaybookRun(deps.pool, {
          playbook: recipient.playbook,
          notificationId: rule.id,
          notificationName: `${rule.namespace}/${rule.name}`,
          eventId: identity.eventId,
          eventName: identity.sourceEvent,
          resourceType: row.resource_type,
          resourceId: row.resource_id,
          secrets: deps.secrets,
        });
        if ('refused' in started) {
          refused = true;
          throw new DeliveryError(started.refused);
        }
        await deps.pool.query('UPDATE notification_send_history SET playbook_run_id = $2 WHERE id = $1', [
          row.id,
          started.runId,
        ]);
      } else {
        if (!recipient.url) throw new DeliveryError('no destination');
        const channel = channelFor(recipient.url);
        if (!channel) throw new DeliveryError(`no channel for ${recipient.url.protocol}// URLs`);
        const context: ChannelContext = {
          http: (request) => deps.http({ ...request, insecureTls: recipient.insecureTls }, channel.name),
          smtp: deps.smtp,
        };
        await channel.send(recipient.url, message, context);
      }
    } catch (caught) {
      error =
        caught instanceof DeliveryError ? caught.message : `unexpected error: ${(caught as Error).message}`;
    }
    // A recipient that cannot be resolved will not resolve on a retry either.
    const status =
      error === undefined ? 'sent' : final || recipient.problem || refused ? 'failed' : 'retrying';
    await deps.pool.query(
      `UPDATE notification_send_history
          SET status = $2, error = $3, duration_millis = $4, updated_at = now(),
              attempts = attempts || jsonb_build_array(jsonb_build_object('at', now(), 'status', $2::text, 'error', $3::text))
        WHERE id = $1`,
      [row.id, status, error ?? null, Date.now() - started],
    );
    await setRuleError(deps.pool, rule.id, error ?? null);
    if (error !== undefined) {
      deps.logger.warn(
        { notification: rule.id, recipient: recipient.label, status, error },
        'notification delivery failed',
      );
      failed.push({ historyId: row.id, error, final: status === 'failed' });
    }
  }
  return failed;
}

interface GroupedResource {
  resource_type: string | null;
  resource: { name?: string; type?: string } | null;
  resource_id: string | null;
}

/** The body of a group's message: the first event's body, then every resource of the group. */
export function groupMessage(message: RenderedMessage, grouped: GroupedResource[]): RenderedMessage {
  const lines = grouped.slice(0, GROUP_MESSAGE_MAX_RESOURCES).map((row) => {
    const name = row.resource?.name ?? row.resource_id ?? 'unknown';
    const kind = [row.resource_type, row.resource?.type].filter(Boolean).join(' ');
    return `- ${name}${kind ? ` (${kind})` : ''}`;
  });
  if (grouped.length > GROUP_MESSAGE_MAX_RESOURCES) {
    lines.push(`- and ${grouped.length - GROUP_MESSAGE_MAX_RESOURCES} more`);
  }
  return {
    title: grouped.length > 1 ? `${message.title} (and ${grouped.length - 1} more)` : message.title,
    body: `${message.body}\n\n${grouped.length} ${grouped.length === 1 ? 'resource' : 'resources'} in this group:\n${lines.join('\n')}`,
  };
}

/**
 * A group's one message, sent when its wait is over: the first event's rendered message, listing
 * every resource whose event joined the group meanwhile. Events joining later within
 * groupByInterval are only counted on it.
 */
async function deliverGroup(event: QueuedEvent, deps: DeliveryDependencies): Promise<void> {
  const props = event.properties as {
    notification_id: string;
    source_event: string;
    origin_event_id: string;
    group_key: string;
    properties: Record<string, unknown>;
  };
  const { rows } = await deps.pool.query<RuleRow>(
    `SELECT id, name, namespace, events, title, template, filter, repeat_interval, wait_for, group_by,
            person_id, team_id, custom_services, spec FROM notifications WHERE id = $1 AND deleted_at IS NULL`,
    [props.notification_id],
  );
  const rule = rows[0];
  if (!rule) return;
  const identity: EventIdentity = { eventId: props.origin_event_id, sourceEvent: props.source_event };
  const recipients = await resolveRecipients(
    deps.pool,
    {
      to: rule.spec?.to,
      person_id: rule.person_id,
      team_id: rule.team_id,
      custom_services: rule.custom_services,
    },
    deps.resolveConnection,
  );
  // The leader's rows hold the message rendered when the group began; the list is built from the
  // leader and every row that joined it (in the order they came).
  const { rows: members } = await deps.pool.query<
    GroupedResource & { body: string | null; title: string | null }
  >(
    `WITH leader AS (
       SELECT id, title, body, resource_type, resource_id FROM notification_send_history
        WHERE notification_id = $1 AND event_id = $2 AND group_key = $3 AND parent_id IS NULL AND status <> 'grouped')
     SELECT s.resource_type, s.resource_id, s.resource, l.title, l.body
       FROM (SELECT DISTINCT ON (coalesce(resource_id::text, id::text)) * FROM (
               SELECT sm.*, 0 AS position FROM notification_send_history_summary sm
                WHERE sm.id = (SELECT id FROM leader ORDER BY id LIMIT 1)
               UNION ALL
               SELECT sm.*, 1 FROM notification_send_history_summary sm
                WHERE sm.parent_id IN (SELECT id FROM leader) AND sm.status = 'grouped') x
             ORDER BY coalesce(resource_id::text, id::text), position, created_at) s
       CROSS JOIN (SELECT title, body FROM leader ORDER BY id LIMIT 1) l
      ORDER BY s.created_at, s.id`,
    [rule.id, identity.eventId, props.group_key],
  );
  if (members.length === 0) return;
  const message = groupMessage({ title: members[0].title ?? '', body: members[0].body ?? '' }, members);
  await deps.pool.query(
    `UPDATE notification_send_history SET title = $4, body = $5, updated_at = now()
      WHERE notification_id = $1 AND event_id = $2 AND group_key = $3 AND parent_id IS NULL
        AND status IN ('pending', 'retrying')`,
    [rule.id, identity.eventId, props.group_key, message.title, message.body],
  );
  await sendWithFallback(rule, identity, recipients, message, event, props.properties, deps);
}

/** The fallback recipients of a rule whose delivery failed for good. */
async function deliverFallback(event: QueuedEvent, deps: DeliveryDependencies): Promise<void> {
  const props = event.properties as {
    notification_id: string;
    source_event: string;
    origin_event_id: string;
    parent_id: string;
    properties: Record<string, unknown>;
  };
  const { rows } = await deps.pool.query<RuleRow>(
    `SELECT id, name, namespace, events, title, template, filter, repeat_interval, wait_for, group_by,
            person_id, team_id, custom_services, spec FROM notifications WHERE id = $1 AND deleted_at IS NULL`,
    [props.notification_id],
  );
  const rule = rows[0];
  const fallback = rule?.spec?.fallback;
  if (!rule || !fallback) return;
  const identity: EventIdentity = { eventId: props.origin_event_id, sourceEvent: props.source_event };
  const env = await loadEventEnvironment(deps.pool, props.source_event, props.properties);
  const message = renderMessage(rule, props.source_event, env);
  const recipients = await resolveRecipients(deps.pool, { to: fallback }, deps.resolveConnection);
  await insertPending(
    deps.pool,
    rule,
    identity,
    env,
    recipients,
    message,
    undefined,
    'fallback',
    props.parent_id,
  );
  const final = event.attempts >= (deps.maxAttempts ?? DELIVERY_MAX_ATTEMPTS);
  const failed = await sendToRecipients(rule, identity, recipients, message, final, deps, 'fallback');
  const retrying = failed.filter((entry) => !entry.final);
  if (retrying.length > 0) throw new DeliveryError(retrying.map((entry) => entry.error).join('; '));
}
