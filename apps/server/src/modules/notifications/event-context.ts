import type { Queryable } from '../../platform/jobs/index.js';

/**
 * The prefix of the copies the platform's fan-out (ADR 0021, migration 0290) makes of every event a
 * live notification subscribes to: `notification.<queue event name>`, one per notification.
 */
export const NOTIFICATION_EVENT_PREFIX = 'notification.';

/**
 * The notification event name (the ecosystem's terms) of a queued event: the incidents module
 * raises `incident.status_updated` and `responder.created|commented` (migration 0031).
 */
export function notificationEventName(queueName: string, properties: Record<string, unknown>): string {
  if (queueName === 'incident.status_updated') {
    const status = typeof properties.status === 'string' && properties.status ? properties.status : 'unknown';
    return `incident.status.${status}`;
  }
  if (queueName === 'responder.created') return 'incident.responder.added';
  if (queueName === 'responder.commented') return 'incident.comment.added';
  return queueName;
}
/** A delayed fallback delivery (enqueued by a final failure of a rule with `fallback`). */
export const FALLBACK_EVENT = 'notification.fallback';

export type ResourceType = 'check' | 'config' | 'component' | 'incident' | 'playbook_run';

/** What templates and CEL filters see: `.check`, `.canary`, `.config`, `.component`, … and `.event`. */
export interface EventEnvironment {
  variables: Record<string, unknown>;
  resourceType: ResourceType;
  resourceId: string | null;
  /** The resource's current health in the event's terms, to re-check after waitFor. */
  health: string | null;
  /** Ancestor ids (config items and components), for recursive silences and inhibitions. */
  path: string[];
  resourceKind: string | null;
}

function resourceTypeOf(eventName: string): ResourceType {
  if (eventName.startsWith('check.')) return 'check';
  if (eventName.startsWith('config.')) return 'config';
  if (eventName.startsWith('component.')) return 'component';
  if (eventName.startsWith('incident.')) return 'incident';
  return 'playbook_run';
}

function idsOfPath(path: unknown): string[] {
  if (typeof path !== 'string') return [];
  return path.split(/[.,/]/).filter((part) => /^[0-9a-f-]{36}$/i.test(part));
}

/** Loads the event's resource as it is now (a deleted one still loads: its last state). */
export async function loadEventEnvironment(
  db: Queryable,
  eventName: string,
  properties: Record<string, unknown>,
): Promise<EventEnvironment> {
  const resourceType = resourceTypeOf(eventName);
  const id = typeof properties.id === 'string' ? properties.id : null;
  const event = { name: eventName, properties, created_at: properties.event_created_at ?? null };
  const variables: Record<string, unknown> = { event };
  let health: string | null = null;
  let path: string[] = [];
  let resourceKind: string | null = null;
  if (id !== null) {
    if (resourceType === 'check') {
      const { rows } = await db.query(
        `SELECT row_to_json(ck) AS check, row_to_json(ca) AS canary
           FROM checks ck LEFT JOIN canaries ca ON ca.id = ck.canary_id WHERE ck.id = $1`,
        [id],
      );
      const row = rows[0] as
        { check: Record<string, unknown>; canary: Record<string, unknown> | null } | undefined;
      const check = { ...(row?.check ?? { id }), ...pick(properties, ['message', 'error']) };
      delete check.spec;
      variables.check = check;
      variables.canary = row?.canary ? omit(row.canary, ['spec']) : {};
      health = (row?.check.status as string | undefined) ?? null;
      resourceKind = (row?.check.type as string | undefined) ?? null;
    } else if (resourceType === 'config') {
      const { rows } = await db.query(
        `SELECT id, name, namespace, type, config_class, status, health, ready, labels, tags, parent_id, path,
                description, created_at, updated_at, deleted_at FROM config_items WHERE id = $1`,
        [id],
      );
      const config = rows[0] as Record<string, unknown> | undefined;
      variables.config = config ?? { id };
      health = (config?.health as string | undefined) ?? null;
      path = idsOfPath(config?.path);
      resourceKind = (config?.type as string | undefined) ?? null;
    } else if (resourceType === 'component') {
      const { rows } = await db.query(
        `SELECT id, name, namespace, type, status, status_reason, health, labels, parent_id, path, description,
                created_at, updated_at, deleted_at FROM components WHERE id = $1`,
        [id],
      );
      const component = rows[0] as Record<string, unknown> | undefined;
      variables.component = component ?? { id };
      health = (component?.health as string | undefined) ?? null;
      path = idsOfPath(component?.path);
      resourceKind = (component?.type as string | undefined) ?? null;
    } else if (resourceType === 'incident') {
      const { rows } = await db.query(
        `SELECT id, title, description, type, status, severity, created_at, updated_at FROM incidents WHERE id = $1`,
        [id],
      );
      variables.incident = rows[0] ?? { id };
      health = (rows[0] as { status?: string } | undefined)?.status ?? null;
    } else {
      const { rows } = await db.query(
        `SELECT row_to_json(r) AS run, jsonb_build_object('id', p.id, 'name', p.name, 'namespace', p.namespace) AS playbook
           FROM (SELECT id, playbook_id, status, parameters, error, config_id, component_id, check_id,
                        scheduled_time, start_time, end_time, created_at FROM playbook_runs) r
           JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
        [id],
      );
      const row = rows[0] as { run: Record<string, unknown>; playbook: unknown } | undefined;
      variables.playbook_run = row?.run ?? { id };
      variables.playbook = row?.playbook ?? {};
      health = (row?.run.status as string | undefined) ?? null;
    }
  }
  return { variables, resourceType, resourceId: id, health, path, resourceKind };
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((key) => source[key] !== undefined && source[key] !== null).map((key) => [key, source[key]]),
  );
}

function omit(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(source).filter(([key]) => !keys.includes(key)));
}

/**
 * Whether the resource is still in the state the event announced (after waitFor): a failed check
 * still failing, a config still unhealthy, … Events that name no state always hold.
 */
export function stillHolds(eventName: string, health: string | null): boolean {
  if (eventName === 'check.failed') return health !== 'healthy';
  if (eventName === 'check.passed') return health === 'healthy';
  const state = /^(config|component)\.(healthy|unhealthy|warning|degraded|unknown)$/.exec(eventName)?.[2];
  if (state) return health === state;
  return true;
}

/** The title and body templates used when a Notification sets none (Go templates, markdown). */
export function defaultTemplates(eventName: string): { title: string; body: string } {
  if (eventName === 'check.failed' || eventName === 'check.passed') {
    const verb = eventName === 'check.failed' ? 'failed' : 'passed';
    return {
      title: `Check {{.check.name}} has ${verb}`,
      body:
        `Check **{{.check.name}}**{{if .canary.name}} of canary {{.canary.name}}{{end}} has ${verb}.` +
        '{{if .check.error}}\n\nError: {{.check.error}}{{end}}{{if .check.message}}\n\nMessage: {{.check.message}}{{end}}',
    };
  }
  if (eventName.startsWith('config.')) {
    const what = eventName.slice('config.'.length);
    return {
      title: `{{.config.type}} {{.config.name}} is ${what}`,
      body: `Config item **{{.config.name}}** ({{.config.type}}) is ${what}.{{if .config.status}}\n\nStatus: {{.config.status}}{{end}}`,
    };
  }
  if (eventName.startsWith('component.')) {
    const what = eventName.slice('component.'.length);
    return {
      title: `Component {{.component.name}} is ${what}`,
      body: `Component **{{.component.name}}** is ${what}.{{if .component.status_reason}}\n\nReason: {{.component.status_reason}}{{end}}`,
    };
  }
  if (eventName === 'incident.created') {
    return {
      title: 'Incident created: {{.incident.title}}',
      body: 'A {{.incident.severity}} {{.incident.type}} incident was created: **{{.incident.title}}**.{{if .incident.description}}\n\n{{.incident.description}}{{end}}',
    };
  }
  if (eventName.startsWith('incident.')) {
    return {
      title: 'Incident {{.incident.title}} is {{.incident.status}}',
      body: 'Incident **{{.incident.title}}** ({{.incident.severity}}) is now {{.incident.status}}.',
    };
  }
  return {
    title: 'Playbook {{.playbook.name}}: run {{.playbook_run.status}}',
    body: 'Playbook **{{.playbook.name}}** run {{.playbook_run.id}} is {{.playbook_run.status}}.{{if .playbook_run.error}}\n\nError: {{.playbook_run.error}}{{end}}',
  };
}
