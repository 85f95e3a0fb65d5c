import {
  PERMISSION_ACTIONS,
  PLAYBOOK_PERMISSION_ACTIONS,
  type PermissionResourceTab,
  type PermissionSubjectType,
  type RelationRow,
} from '@opsdeck/contracts';

export type PermissionSummary = RelationRow<'permissions_summary'>;

/** The form of the Add/Edit Permission modal (settings §2.2). */
export interface PermissionFormValues {
  subjectType: PermissionSubjectType;
  /** Team, person, notification or playbook id; the role name for subject type group. */
  subjectId: string;
  resourceTab: PermissionResourceTab;
  /** The target id (config, component, connection, playbook), or the object for Global. */
  target: string;
  action: string;
  deny: boolean;
  /** 'key=value' pairs separated by commas. */
  tags: string;
  agents: string[];
  description: string;
}

export const EMPTY_PERMISSION_FORM: PermissionFormValues = {
  subjectType: 'team',
  subjectId: '',
  resourceTab: 'Global',
  target: '',
  action: 'read',
  deny: false,
  tags: '',
  agents: [],
  description: '',
};

/** Settings §3: every resource allows the CRUD actions; playbook resources also the playbook verbs. */
export function actionsFor(tab: PermissionResourceTab, target: string): string[] {
  const playbook = tab === 'Playbook' || (tab === 'Global' && target === 'playbooks');
  return [...PERMISSION_ACTIONS, ...(playbook ? PLAYBOOK_PERMISSION_ACTIONS : [])];
}

type TargetColumn = 'config_id' | 'component_id' | 'connection_id' | 'playbook_id';

const TARGET_COLUMN: Record<Exclude<PermissionResourceTab, 'Global'>, TargetColumn> = {
  Catalog: 'config_id',
  Component: 'component_id',
  Connection: 'connection_id',
  Playbook: 'playbook_id',
};

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

/** Subject and Resource are required selections (settings §5); the row the data API stores. */
export function validatePermissionForm(
  values: PermissionFormValues,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: PermissionFormErrors } {
  const errors: PermissionFormErrors = {};
  if (!values.subjectId) errors.subjectId = 'This field is required';
  if (!values.target) errors.target = 'This field is required';
  if (!actionsFor(values.resourceTab, values.target).includes(values.action))
    errors.action = 'Choose an action this resource allows';
  const tags = parseTags(values.tags);
  if (typeof tags === 'string') errors.tags = tags;
  if (Object.keys(errors).length > 0 || typeof tags === 'string') return { ok: false, errors };
  const row: Record<string, unknown> = {
    subject_type: values.subjectType,
    subject: values.subjectId,
    team_id: null,
    person_id: null,
    notification_id: null,
    object: null,
    config_id: null,
    component_id: null,
    connection_id: null,
    playbook_id: null,
    action: values.action,
    deny: values.deny,
    tags: Object.keys(tags).length > 0 ? tags : null,
    agents: values.agents.length > 0 ? values.agents : null,
    description: values.description.trim() || null,
  };
  const subjectColumn = SUBJECT_COLUMN[values.subjectType];
  if (subjectColumn) row[subjectColumn] = values.subjectId;
  if (values.resourceTab === 'Global') row.object = values.target;
  else row[TARGET_COLUMN[values.resourceTab]] = values.target;
  return { ok: true, value: row };
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
    subjectType,
    subjectId: byColumn ?? row.subject ?? '',
    resourceTab: tab,
    target: tab === 'Global' ? (row.object ?? '') : (row[TARGET_COLUMN[tab]] ?? ''),
    action: row.action,
    deny: row.deny,
    tags: formatTags(row.tags),
    agents: row.agents ?? [],
    description: row.description ?? '',
  };
}

/** How the list names a permission's subject. */
export function subjectLabel(row: PermissionSummary): string {
  const name = row.subject_name ?? row.subject ?? '';
  return row.subject_type === 'group' ? `Role: ${name}` : name;
}

/** How the list names a permission's resource. */
export function resourceLabel(row: PermissionSummary): string {
  if (row.config) return `Catalog: ${row.config.name}`;
  if (row.component) return `Component: ${row.component.name}`;
  if (row.connection) return `Connection: ${row.connection.name}`;
  if (row.playbook && row.playbook_id) return `Playbook: ${row.playbook.name}`;
  if (row.canary) return `Canary: ${row.canary.name}`;
  if (row.check) return `Check: ${row.check.name}`;
  return row.object ?? '';
}
