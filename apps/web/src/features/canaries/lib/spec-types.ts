/** A check type of the spec type picker (settings §2.4): its spec key, label and whether it has a form. */
export interface SpecType {
  /** The canary spec key holding this type's checks (`http`, `tcp`, …); 'custom' for none. */
  key: string;
  label: string;
  /** Types with a form open on the Form tab; the others open code-only (settings §4). */
  hasForm: boolean;
}

/** The types the picker offers: those with forms first, then code-only ones, then Custom. */
export const SPEC_TYPES: readonly SpecType[] = [
  { key: 'http', label: 'HTTP', hasForm: true },
  { key: 'tcp', label: 'TCP', hasForm: true },
  { key: 'icmp', label: 'ICMP', hasForm: true },
  { key: 'redis', label: 'Redis', hasForm: true },
  { key: 'exec', label: 'Exec', hasForm: true },
  { key: 'folder', label: 'Folder', hasForm: true },
  { key: 'alertmanager', label: 'AlertManager', hasForm: true },
  { key: 'elasticsearch', label: 'Elasticsearch', hasForm: true },
  { key: 'sftp', label: 'SFTP', hasForm: true },
  { key: 'dns', label: 'DNS', hasForm: false },
  { key: 'postgres', label: 'Postgres', hasForm: false },
  { key: 'mysql', label: 'MySQL', hasForm: false },
  { key: 'prometheus', label: 'Prometheus', hasForm: false },
  { key: 'ldap', label: 'LDAP', hasForm: false },
  { key: 'webhook', label: 'Webhook', hasForm: false },
  { key: 'custom', label: 'Custom', hasForm: false },
];

export const CUSTOM_SPEC_TYPE = SPEC_TYPES[SPEC_TYPES.length - 1];

/** Canary-wide settings: spec keys that configure the canary rather than name a check type. */
const CANARY_SETTINGS_KEYS = new Set([
  'schedule',
  'interval',
  'replicas',
  'severity',
  'owner',
  'icon',
  'labels',
  'env',
  'resultMode',
  'retries',
  'agentSelector',
]);

export function specTypeByKey(key: string): SpecType | undefined {
  return SPEC_TYPES.find((type) => type.key === key);
}

/** Whether a spec value lists at least one check (a list with entries, or webhook's single object). */
function holdsChecks(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null;
}

/**
 * The type an existing spec opens with (settings §4): a check type it actually holds, whatever
 * order its keys come in (the server stores specs as jsonb, which reorders keys). Keys of
 * canary-wide settings and empty check lists are skipped. `preferred` (the type of the check the
 * editor was opened from) wins when the spec holds checks of it; otherwise, of several types, the
 * first in the picker's order. A type the picker does not offer, or none, is Custom.
 */
export function detectSpecType(spec: unknown, preferred?: string): SpecType {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return CUSTOM_SPEC_TYPE;
  const entries = Object.entries(spec as Record<string, unknown>).filter(
    ([key]) => !CANARY_SETTINGS_KEYS.has(key),
  );
  const used = entries.filter(([, value]) => holdsChecks(value)).map(([key]) => key);
  // A spec whose only type has an empty list (a type just picked) opens on that type.
  const candidates = used.length > 0 ? used : entries.map(([key]) => key);
  if (candidates.length === 0) return CUSTOM_SPEC_TYPE;
  if (preferred && candidates.includes(preferred)) return specTypeByKey(preferred) ?? CUSTOM_SPEC_TYPE;
  if (candidates.some((key) => !specTypeByKey(key))) return CUSTOM_SPEC_TYPE;
  return SPEC_TYPES.find((type) => candidates.includes(type.key)) ?? CUSTOM_SPEC_TYPE;
}

/** The check type keys a spec uses, for the list page. */
export function checkTypesOf(spec: unknown): string[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return [];
  return Object.keys(spec).filter((key) => !CANARY_SETTINGS_KEYS.has(key));
}
