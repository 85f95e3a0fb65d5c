import {
  PERMISSION_ACTIONS,
  PLAYBOOK_PERMISSION_ACTIONS,
  type PermissionResourceTab,
  type PermissionSubjectType,
  type RelationRow,
} from '@opsdeck/contracts';

export type PermissionSummary = RelationRow<'permissions_summary'>;

/**
 * The notifications a Global 'notification' permission covers (docs/adr/0037, 0046): empty
 * fields cover every notification (`object: notification`); any field makes the row an object
 * selector `{notifications: [{name, namespace, labelSelector}]}`.
 */
export interface NotificationSelectorValues {
  /** A name, `*` globs allowed. */
  name: string;
  namespace: string;
  /** Kubernetes equality selector: `team=a,env!=dev`. */
  labelSelector: string;
}

/**
 * A resource the tabs cannot show (a canary or check target, selectors of other kinds written
 * through YAML or the API): shown as a fixed display and left as it is saved.
 */
export interface FixedResource {
  label: string;
  /** Whether the resource is playbooks, which also allow the playbook verbs. */
  playbook: boolean;
}

/** The form of the Add/Edit Permission modal (settings §2.2). */
export interface PermissionFormValues {
  subjectType: PermissionSubjectType;
  /** Team, person, notification or playbook id; the role name for subject type group. */
  subjectId: string;
  resourceTab: PermissionResourceTab;
  /** The target id (config, component, connection, playbook), or the object for Global. */
  target: string;
  /** The Global 'notification' selector fields (`NotificationSelectorValues`). */
  notificationName: string;
  notificationNamespace: string;
  notificationLabels: string;
  fixedResource: FixedResource | null;
  action: string;
  deny: boolean;
  /** 'key=value' pairs separated by commas. */
  tags: string;
  agents: string[];
  description: string;
}

export const EMPTY_NOTIFICATION_SELECTOR: NotificationSelectorValues = {
  name: '',
  namespace: '',
  labelSelector: '',
};

export const EMPTY_PERMISSION_FORM: PermissionFormValues = {
  subjectType: 'team',
  subjectId: '',
  resourceTab: 'Global',
  target: '',
  notificationName: '',
  notificationNamespace: '',
  notificationLabels: '',
  fixedResource: null,
  action: 'read',
  deny: false,
  tags: '',
  agents: [],
  description: '',
};

/** A resource set by the page that opens the form (settings §2.2: shown fixed, not as tabs). */
export interface PermissionResourcePreset {
  tab: PermissionResourceTab;
  /** The target id, or the object for Global. */
  target: string;
  /** What the fixed display shows. */
  label: string;
}

/** Settings §3: every resource allows the CRUD actions; playbook resources also the playbook verbs. */
export function actionsFor(
  values: Pick<PermissionFormValues, 'resourceTab' | 'target' | 'fixedResource'>,
): string[] {
  const playbook = values.fixedResource
    ? values.fixedResource.playbook
    : values.resourceTab === 'Playbook' || (values.resourceTab === 'Global' && values.target === 'playbooks');
  return [...PERMISSION_ACTIONS, ...(playbook ? PLAYBOOK_PERMISSION_ACTIONS : [])];
}

type TargetColumn = 'config_id' | 'component_id' | 'connection_id' | 'playbook_id';

const TARGET_COLUMN: Record<Exclude<PermissionResourceTab, 'Global'>, TargetColumn> = {
  Catalog: 'config_id',
  Component: 'component_id',
  Connection: 'connection_id',
  Playbook: 'playbook_id',
};

/** The list filter of the permissions of one preset resource. */
export function presetFilter(preset: PermissionResourcePreset): { column: string; value: string } {
  return preset.tab === 'Global'
    ? { column: 'object', value: preset.target }
    : { column: TARGET_COLUMN[preset.tab], value: preset.target };
}

const SUBJECT_COLUMN: Partial<Record<PermissionSubjectType, 'team_id' | 'person_id' | 'notification_id'>> = {
  team: 'team_id',
  person: 'person_id',
  notification: 'notification_id',
};

export function formatTags(tags: Record<string, string> | null): string {
  return Object.entries(tags ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

export type PermissionFormErrors = Partial<Record<keyof PermissionFormValues, string>>;

function parseTags(text: string): Record<string, string> | string {
  const tags: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [key, ...rest] = pair.split('=');
    if (!key?.trim() || rest.length === 0) return `Tags are key=value pairs separated by commas: '${pair}'`;
    tags[key.trim()] = rest.join('=').trim();
  }
  return tags;
}

/** One term of a Kubernetes equality selector: `k=v`, `k==v`, `k!=v`, `k` or `!k`. */
const LABEL_TERM = /^(?:[^=!\s,]+\s*(?:==?|!=)\s*[^=!,]*|!?[^=!\s(),]+)$/;

/** The notifications selector the fields name, or null when they are all empty (every notification). */
function notificationSelector(values: NotificationSelectorValues): Record<string, string> | null {
  const selector: Record<string, string> = {};
  for (const key of ['name', 'namespace', 'labelSelector'] as const) {
    const value = values[key].trim();
    if (value) selector[key] = value;
  }
  return Object.keys(selector).length > 0 ? selector : null;
}

/** Subject and Resource are required selections (settings §5); the row the data API stores. */
export function validatePermissionForm(
  values: PermissionFormValues,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: PermissionFormErrors } {
  const errors: PermissionFormErrors = {};
  if (!values.subjectId) errors.subjectId = 'This field is required';
  if (!values.fixedResource && !values.target) errors.target = 'This field is required';
  if (!actionsFor(values).includes(values.action)) errors.action = 'Choose an action this resource allows';
  const tags = parseTags(values.tags);
  if (typeof tags === 'string') errors.tags = tags;
  const selectsNotifications = values.resourceTab === 'Global' && values.target === 'notification';
  const selector = selectsNotifications
    ? notificationSelector({
        name: values.notificationName,
        namespace: values.notificationNamespace,
        labelSelector: values.notificationLabels,
      })
    : null;
  const badTerm = (selector?.labelSelector ?? '')
    .split(',')
    .map((term) => term.trim())
    .find((term) => term !== '' && !LABEL_TERM.test(term));
  if (badTerm !== undefined)
    errors.notificationLabels = `'${badTerm}' is not a label selector term: use key=value, key!=value, key or !key`;
  if (Object.keys(errors).length > 0 || typeof tags === 'string') return { ok: false, errors };
  const row: Record<string, unknown> = {
    subject_type: values.subjectType,
    subject: values.subjectId,
    team_id: null,
    person_id: null,
    notification_id: null,
    action: values.action,
    deny: values.deny,
    tags: Object.keys(tags).length > 0 ? tags : null,
    agents: values.agents.length > 0 ? values.agents : null,
    description: values.description.trim() || null,
  };
  const subjectColumn = SUBJECT_COLUMN[values.subjectType];
  if (subjectColumn) row[subjectColumn] = values.subjectId;
  // A fixed resource is left as saved: the row names none of its columns.
  if (values.fixedResource) return { ok: true, value: row };
  Object.assign(row, {
    object: null,
    config_id: null,
    component_id: null,
    connection_id: null,
    playbook_id: null,
    canary_id: null,
    check_id: null,
    object_selector: null,
  });
  if (selector) row.object_selector = { notifications: [selector] };
  else if (values.resourceTab === 'Global') row.object = values.target;
  else row[TARGET_COLUMN[values.resourceTab]] = values.target;
  return { ok: true, value: row };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The form fields of a selector that is exactly one notifications selector of name, namespace and labels. */
function notificationFields(selector: unknown): NotificationSelectorValues | null {
  if (!isRecord(selector)) return null;
  const keys = Object.keys(selector);
  const list = selector.notifications;
  if (keys.length !== 1 || !Array.isArray(list) || list.length !== 1 || !isRecord(list[0])) return null;
  const entry = list[0];
  const known = ['name', 'namespace', 'labelSelector'];
  if (Object.entries(entry).some(([key, value]) => !known.includes(key) || typeof value !== 'string'))
    return null;
  return { ...EMPTY_NOTIFICATION_SELECTOR, ...(entry as Partial<NotificationSelectorValues>) };
}

function hasSelector(selector: unknown): boolean {
  return isRecord(selector) && Object.keys(selector).length > 0;
}

/** The form of a saved permission. */
export function permissionToForm(row: PermissionSummary): PermissionFormValues {
  const subjectType = row.subject_type ?? 'person';
  const byColumn =
    subjectType === 'team'
      ? row.team_id
      : subjectType === 'person'
        ? row.person_id
        : subjectType === 'notification'
          ? row.notification_id
          : null;
  const common = {
    subjectType,
    subjectId: byColumn ?? row.subject ?? '',
    notificationName: '',
    notificationNamespace: '',
    notificationLabels: '',
    fixedResource: null,
    action: row.action,
    deny: row.deny,
    tags: formatTags(row.tags),
    agents: row.agents ?? [],
    description: row.description ?? '',
  };
  const notifications = notificationFields(row.object_selector);
  if (notifications && !row.object) {
    return {
      ...common,
      resourceTab: 'Global',
      target: 'notification',
      notificationName: notifications.name,
      notificationNamespace: notifications.namespace,
      notificationLabels: notifications.labelSelector,
    };
  }
  if (row.canary_id || row.check_id || hasSelector(row.object_selector)) {
    const selector = row.object_selector;
    const playbook = row.object === 'playbooks' || (isRecord(selector) && 'playbooks' in selector);
    return {
      ...common,
      resourceTab: 'Global',
      target: row.object ?? '',
      fixedResource: { label: resourceLabel(row), playbook },
    };
  }
  const tab: PermissionResourceTab = row.config_id
    ? 'Catalog'
    : row.component_id
      ? 'Component'
      : row.connection_id
        ? 'Connection'
        : row.playbook_id
          ? 'Playbook'
          : 'Global';
  return {
    ...common,
    resourceTab: tab,
    target: tab === 'Global' ? (row.object ?? '') : (row[TARGET_COLUMN[tab]] ?? ''),
  };
}

/** How the list names a permission's subject. */
export function subjectLabel(row: PermissionSummary): string {
  const name = row.subject_name ?? row.subject ?? '';
  return row.subject_type === 'group' ? `Role: ${name}` : name;
}

function selectorLabel(selector: unknown): string {
  if (!isRecord(selector)) return '';
  return Object.entries(selector)
    .map(([kind, list]) => {
      const entries = (Array.isArray(list) ? list : [list]).map((entry) =>
        isRecord(entry)
          ? Object.entries(entry)
              .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
              .join(' ')
          : String(entry),
      );
      const kindLabel = kind.charAt(0).toUpperCase() + kind.slice(1);
      return `${kindLabel}: ${entries.join(' | ') || 'all'}`;
    })
    .join('; ');
}

/** How the list names a permission's resource. */
export function resourceLabel(row: PermissionSummary): string {
  if (row.config) return `Catalog: ${row.config.name}`;
  if (row.component) return `Component: ${row.component.name}`;
  if (row.connection) return `Connection: ${row.connection.name}`;
  if (row.playbook && row.playbook_id) return `Playbook: ${row.playbook.name}`;
  if (row.canary) return `Canary: ${row.canary.name}`;
  if (row.check) return `Check: ${row.check.name}`;
  if (hasSelector(row.object_selector)) return selectorLabel(row.object_selector);
  return row.object ?? '';
}
