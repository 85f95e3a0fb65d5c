import {
  SILENCE_PREVIEW_DEFAULT_DAYS,
  SILENCE_PREVIEW_LIMIT,
  type NotificationSilencePreviewRequest,
  type NotificationSilencePreviewResponse,
  type NotificationSilenceSelector,
} from '@opsdeck/contracts';
import { evaluateCel } from '../../expressions/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { matchesSelector, type SelectableResource } from '../incidents/index.js';
import { loadEventEnvironment, type EventEnvironment } from './event-context.js';

/** What a silence matches with: the columns of `notification_silences` that decide it. */
export interface SilenceMatcher {
  filter: string | null;
  recursive: boolean;
  check_id: string | null;
  config_id: string | null;
  component_id: string | null;
  canary_id: string | null;
  selectors: NotificationSilenceSelector[] | null;
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Labels (or tags) as stored in jsonb: text values kept, numbers and booleans as text. */
function textMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => ['string', 'number', 'boolean'].includes(typeof entry))
      .map(([key, entry]) => [key, String(entry)]),
  );
}

/** The event's resource as selectors see it (checks, config items and components only). */
function selectableOf(env: EventEnvironment): SelectableResource | null {
  if (!env.resourceId || !['check', 'config', 'component'].includes(env.resourceType)) return null;
  const resource = (env.variables[env.resourceType] ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: env.resourceId,
    name: text(resource.name) ?? '',
    namespace: text(resource.namespace),
    type: text(resource.type),
    labels: { ...textMap(resource.tags), ...textMap(resource.labels) },
    fields: {
      status: text(resource.status),
      health: text(resource.health),
      config_class: text(resource.config_class),
      canary_id: text(resource.canary_id),
    },
  };
}

/**
 * Whether a silence covers the event: its resource (the resource itself, a check of the silenced
 * canary, or with `recursive` a descendant) or one of its selectors must match when it names any,
 * and its CEL filter must hold when it has one. A filter that fails to evaluate matches nothing.
 */
export function silenceMatches(silence: SilenceMatcher, env: EventEnvironment): boolean {
  const ids = [silence.check_id, silence.config_id, silence.component_id, silence.canary_id].filter(
    (id): id is string => Boolean(id),
  );
  const selectors = silence.selectors ?? [];
  if (ids.length > 0 || selectors.length > 0) {
    const check = env.variables.check as { canary_id?: string } | undefined;
    const byResource =
      ids.length > 0 &&
      ((env.resourceId !== null && ids.includes(env.resourceId)) ||
        (silence.canary_id !== null &&
          env.resourceType === 'check' &&
          check?.canary_id === silence.canary_id) ||
        (silence.recursive && env.path.some((ancestor) => ids.includes(ancestor))));
    const resource = byResource ? null : selectableOf(env);
    const bySelector = resource !== null && selectors.some((selector) => matchesSelector(selector, resource));
    if (!byResource && !bySelector) return false;
  }
  if (silence.filter) {
    try {
      return truthy(evaluateCel(silence.filter, env.variables));
    } catch {
      return false;
    }
  }
  return true;
}

/** The first active silence covering the event (its id), if any. */
export async function findSilence(pool: Pool, env: EventEnvironment): Promise<string | undefined> {
  const { rows } = await pool.query<SilenceMatcher & { id: string }>(
    `SELECT id, filter, recursive, check_id, config_id, component_id, canary_id, selectors
       FROM notification_silences
      WHERE deleted_at IS NULL AND "from" <= now() AND (until IS NULL OR until > now())
      ORDER BY created_at`,
  );
  return rows.find((silence) => silenceMatches(silence, env))?.id;
}

/** How many of the newest history rows a preview looks at, and how many distinct events it loads. */
const PREVIEW_SCANNED_ROWS = 5000;
const PREVIEW_DISTINCT_EVENTS = 1000;

/**
 * What a silence would have matched in the last days (the preview of /notifications/silences/add):
 * each distinct (event, resource) of the recent send history is loaded as delivery loads it and
 * matched with the same rules delivery uses.
 */
export async function previewSilence(
  pool: Pool,
  request: NotificationSilencePreviewRequest,
): Promise<NotificationSilencePreviewResponse> {
  const days = request.days ?? SILENCE_PREVIEW_DEFAULT_DAYS;
  const silence: SilenceMatcher = {
    filter: request.filter?.trim() || null,
    recursive: request.recursive ?? false,
    check_id: request.check_id ?? null,
    config_id: request.config_id ?? null,
    component_id: request.component_id ?? null,
    canary_id: request.canary_id ?? null,
    selectors: request.selectors ?? null,
  };
  const { rows: events } = await pool.query<{ source_event: string; resource_id: string; ids: string[] }>(
    `SELECT source_event, resource_id, array_agg(id) AS ids
       FROM (SELECT id, source_event, resource_id, created_at FROM notification_send_history
              WHERE created_at > now() - $1 * interval '1 day' AND resource_id IS NOT NULL AND source_event IS NOT NULL
              ORDER BY created_at DESC LIMIT ${PREVIEW_SCANNED_ROWS}) recent
      GROUP BY source_event, resource_id
      ORDER BY max(created_at) DESC LIMIT ${PREVIEW_DISTINCT_EVENTS}`,
    [days],
  );
  const matched: string[] = [];
  for (const event of events) {
    const env = await loadEventEnvironment(pool, event.source_event, { id: event.resource_id });
    if (silenceMatches(silence, env)) matched.push(...event.ids);
  }
  if (matched.length === 0) return { days, total: 0, notifications: [], resources: [] };
  const [page, resources] = await Promise.all([
    pool.query<Record<string, unknown>>(
      `SELECT * FROM notification_send_history_summary WHERE id = ANY($1::uuid[])
        ORDER BY created_at DESC, id LIMIT ${SILENCE_PREVIEW_LIMIT}`,
      [matched],
    ),
    pool.query<{ id: string; name: string; resource_type: string; type: string | null; count: number }>(
      `SELECT resource_id AS id,
              coalesce(max(resource ->> 'name'), (SELECT title FROM incidents WHERE resource_type = 'incident' AND id = resource_id),
                       resource_id::text) AS name,
              resource_type, max(resource ->> 'type') AS type, count(*)::int AS count
         FROM notification_send_history_summary WHERE id = ANY($1::uuid[])
        GROUP BY resource_id, resource_type ORDER BY count(*) DESC, 2 LIMIT ${SILENCE_PREVIEW_LIMIT}`,
      [matched],
    ),
  ]);
  return {
    days,
    total: matched.length,
    notifications: page.rows.map((row) => ({
      ...row,
      first_observed: (row.first_observed as Date).toISOString(),
      created_at: (row.created_at as Date).toISOString(),
    })) as NotificationSilencePreviewResponse['notifications'],
    resources: resources.rows,
  };
}
