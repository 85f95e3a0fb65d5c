/** A check type of the spec type picker (settings §2.4): its spec key, label and whether it has a form. */
export interface SpecType {
  /** The canary spec key holding this type's checks (`http`, `tcp`, …); 'custom' for none. */
  key: string;
  label: string;
  /** Types with a form open on the Form tab; the others open code-only (settings §4). */
  hasForm: boolean;
}

/** The types the picker offers: the eight with forms first, then code-only ones, then Custom. */
export const SPEC_TYPES: readonly SpecType[] = [
  { key: 'http', label: 'HTTP', hasForm: true },
  { key: 'tcp', label: 'TCP', hasForm: true },
  { key: 'icmp', label: 'ICMP', hasForm: true },
  { key: 'redis', label: 'Redis', hasForm: true },
  { key: 'exec', label: 'Exec', hasForm: true },
  { key: 'folder', label: 'Folder', hasForm: true },
  { key: 'alertmanager', label: 'AlertManager', hasForm: true },
  { key: 'elasticsearch', label: 'Elasticsearch', hasForm: true },
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
]);

export function specTypeByKey(key: string): SpecType | undefined {
  return SPEC_TYPES.find((type) => type.key === key);
}

/**
 * The type an existing spec opens with (settings §4): its first key other than the schedule (and
 * the other canary-wide settings); a key the picker does not offer, or none at all, is Custom.
 */
export function detectSpecType(spec: unknown): SpecType {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return CUSTOM_SPEC_TYPE;
  const first = Object.keys(spec).find((key) => !CANARY_SETTINGS_KEYS.has(key));
  return (first && specTypeByKey(first)) || CUSTOM_SPEC_TYPE;
}

/** The check type keys a spec uses, for the list page. */
export function checkTypesOf(spec: unknown): string[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return [];
  return Object.keys(spec).filter((key) => !CANARY_SETTINGS_KEYS.has(key));
}
