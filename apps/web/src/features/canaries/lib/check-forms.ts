import { parse as parseYaml } from 'yaml';
import { specTypeByKey } from './spec-types';

/** Settings §5 and §8: the messages of required and numeric fields. */
export const REQUIRED_MESSAGE = 'This field is required';
export const NUMBER_MESSAGE = 'This field must be a number';
export const LABELS_MESSAGE = 'Labels must be a JSON object';
export const SPEC_MESSAGE = 'Spec must be a YAML object';

/** The schedule a new health check starts with. */
export const DEFAULT_SCHEDULE = '@every 5m';

/** Settings §9: HTTP response-code options and methods. */
export const HTTP_RESPONSE_CODES = [200, 201, 202, 204, 301, 302, 401, 404, 500, 502, 503] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

export type CheckFieldKind = 'text' | 'password' | 'textarea' | 'number' | 'select' | 'flag' | 'codes';

/** One input of a check form, bound to a key of the type's first check. */
export interface CheckField {
  /** The check's key; a dotted path reaches into a block (`sftpConnection.host`). */
  key: string;
  label: string;
  kind: CheckFieldKind;
  required?: boolean;
  /** Required only when this holds for the check (the SFTP fields once an SFTP host is used). */
  requiredWhen?(check: Readonly<Record<string, unknown>>): boolean;
  placeholder?: string;
  /** Written with the field's block when the block is created (SFTP port 22). */
  defaultValue?: string;
  /** A heading the form shows before the first field of its section ('SFTP'). */
  section?: string;
  /** Choices of a select; '' means the key is left out. For 'flag', 'true' stores `true`. */
  options?: readonly { value: string; label: string }[];
  /** The field applies only when this holds for the check (the HTTP body is hidden for GET and DELETE). */
  visible?(check: Readonly<Record<string, unknown>>): boolean;
}

export type CheckObject = Record<string, unknown>;
export type CanarySpec = Record<string, unknown>;

const NAME: CheckField = { key: 'name', label: 'Check name', kind: 'text', required: true };
const DESCRIPTION: CheckField = { key: 'description', label: 'Description', kind: 'text' };
const THRESHOLD: CheckField = { key: 'thresholdMillis', label: 'Threshold (ms)', kind: 'number' };

/** The folder check's count and age rules (folder and SFTP forms). */
const FOLDER_RULES: readonly CheckField[] = [
  { key: 'minCount', label: 'Min count', kind: 'number' },
  { key: 'maxCount', label: 'Max count', kind: 'number' },
  { key: 'minAge', label: 'Min age', kind: 'text', placeholder: '1h' },
  { key: 'maxAge', label: 'Max age', kind: 'text', placeholder: '24h' },
];

/** Default SFTP port (settings: 'Default ports: SFTP 22'). */
export const SFTP_DEFAULT_PORT = '22';

/**
 * The SFTP connection fields under `prefix` ('sftpConnection.' for a folder check, '' for the
 * `sftp` type): Host, Username and Password required when `used` holds, Port default 22.
 */
function sftpFields(
  prefix: string,
  used: (check: Readonly<CheckObject>) => boolean,
  section?: string,
): CheckField[] {
  return [
    {
      key: `${prefix}host`,
      label: 'Host',
      kind: 'text',
      requiredWhen: used,
      placeholder: 'sftp.example.com',
      section,
    },
    {
      key: `${prefix}port`,
      label: 'Port',
      kind: 'number',
      placeholder: SFTP_DEFAULT_PORT,
      defaultValue: SFTP_DEFAULT_PORT,
    },
    { key: `${prefix}username`, label: 'Username', kind: 'text', requiredWhen: used },
    { key: `${prefix}password`, label: 'Password', kind: 'password', requiredWhen: used },
  ];
}

const methodOf = (check: Readonly<CheckObject>) =>
  typeof check.method === 'string' && check.method ? check.method.toUpperCase() : 'GET';

/**
 * The form fields per check type (ecosystem field names). Settings §5: every form needs the check
 * name; HTTP a URL, TCP an endpoint, ICMP a host, Redis an address, Elasticsearch URL, index and
 * query, Exec a script, Folder a path, AlertManager a host.
 */
export const CHECK_FORMS: Readonly<Record<string, readonly CheckField[]>> = {
  http: [
    NAME,
    { key: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'https://example.com/health' },
    {
      key: 'method',
      label: 'Method',
      kind: 'select',
      options: HTTP_METHODS.map((method) => ({ value: method === 'GET' ? '' : method, label: method })),
    },
    {
      key: 'body',
      label: 'Body',
      kind: 'textarea',
      visible: (check) => !['GET', 'DELETE'].includes(methodOf(check)),
    },
    {
      key: 'templateBody',
      label: 'Body format',
      kind: 'flag',
      options: [
        { value: '', label: 'Text' },
        { value: 'true', label: 'Go Template' },
      ],
      visible: (check) => !['GET', 'DELETE'].includes(methodOf(check)),
    },
    { key: 'responseCodes', label: 'Response codes', kind: 'codes' },
    THRESHOLD,
    DESCRIPTION,
  ],
  tcp: [
    NAME,
    { key: 'endpoint', label: 'Endpoint', kind: 'text', required: true, placeholder: 'host:port' },
    THRESHOLD,
    DESCRIPTION,
  ],
  icmp: [
    NAME,
    { key: 'endpoint', label: 'Host', kind: 'text', required: true, placeholder: 'example.com' },
    THRESHOLD,
    { key: 'packetLossThreshold', label: 'Packet loss threshold (%)', kind: 'number' },
    DESCRIPTION,
  ],
  redis: [
    NAME,
    { key: 'addr', label: 'Address', kind: 'text', required: true, placeholder: 'localhost:6379' },
    // Settings §9: Redis database default 0.
    { key: 'db', label: 'Database', kind: 'number', placeholder: '0' },
    DESCRIPTION,
  ],
  exec: [NAME, { key: 'script', label: 'Script', kind: 'textarea', required: true }, DESCRIPTION],
  folder: [
    NAME,
    { key: 'path', label: 'Path', kind: 'text', required: true, placeholder: '/var/log/app' },
    ...FOLDER_RULES,
    DESCRIPTION,
    // Settings connection types: 'SFTP | Host, Username, Password required; Port default 22'.
    // Left empty, the folder is local; once any is filled, the folder is on that SFTP server.
    ...sftpFields('sftpConnection.', (check) => isPlainObject(check.sftpConnection), 'SFTP'),
  ],
  // The ecosystem's `sftp:` type: the same folder check with the connection written inline.
  sftp: [
    NAME,
    ...sftpFields('', () => true),
    { key: 'path', label: 'Path', kind: 'text', required: true, placeholder: '/upload' },
    ...FOLDER_RULES,
    DESCRIPTION,
  ],
  alertmanager: [
    NAME,
    // The ecosystem's alertmanager check reads its host from `url`.
    { key: 'url', label: 'Host', kind: 'text', required: true, placeholder: 'http://alertmanager:9093' },
    DESCRIPTION,
  ],
  elasticsearch: [
    NAME,
    { key: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'http://elasticsearch:9200' },
    { key: 'index', label: 'Index', kind: 'text', required: true },
    { key: 'query', label: 'Query', kind: 'textarea', required: true },
    { key: 'results', label: 'Results', kind: 'number' },
    DESCRIPTION,
  ],
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first check of a type, which the form edits ({} when there is none). */
export function firstCheck(spec: Readonly<CanarySpec>, typeKey: string): CheckObject {
  const list = spec[typeKey];
  return Array.isArray(list) && isPlainObject(list[0]) ? list[0] : {};
}

/** How many checks of a type the spec holds (the form edits the first; the Code tab shows all). */
export function checkCount(spec: Readonly<CanarySpec>, typeKey: string): number {
  const list = spec[typeKey];
  return Array.isArray(list) ? list.length : 0;
}

/** The form value of a field: text for inputs, the chosen codes for the response codes. */
/** The value at a field's key; a dotted key reads inside blocks. */
export function valueAt(check: Readonly<CheckObject>, key: string): unknown {
  let value: unknown = check;
  for (const part of key.split('.')) value = isPlainObject(value) ? value[part] : undefined;
  return value;
}

/** The check with `value` at a dotted key (undefined removes it, and a block left empty). */
function withValueAt(
  check: Readonly<CheckObject>,
  key: string,
  value: unknown,
  onCreate?: (block: CheckObject) => void,
): CheckObject {
  const [head, ...rest] = key.split('.');
  const next: CheckObject = { ...check };
  if (rest.length === 0) {
    if (value === undefined) delete next[head];
    else next[head] = value;
    return next;
  }
  const existing = isPlainObject(check[head]) ? check[head] : undefined;
  if (!existing && value === undefined) return next;
  const block = existing ? { ...existing } : {};
  if (!existing) onCreate?.(block);
  const inner = withValueAt(block, rest.join('.'), value);
  if (Object.keys(inner).length === 0) delete next[head];
  else next[head] = inner;
  return next;
}

export function fieldValue(check: Readonly<CheckObject>, field: CheckField): string | string[] {
  const value = valueAt(check, field.key);
  if (field.kind === 'codes') return Array.isArray(value) ? value.map(String) : [];
  if (field.kind === 'flag') return value === true || value === 'true' ? 'true' : '';
  if (field.kind === 'select' && typeof value === 'string') {
    const known = field.options?.find((option) => option.value.toUpperCase() === value.toUpperCase());
    return known ? known.value : value;
  }
  if (value === undefined || value === null) return '';
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

const INTEGER = /^-?\d+$/;

/** The spec value a form input stands for; undefined removes the key. */
function specValue(field: CheckField, input: string | readonly string[]): unknown {
  if (field.kind === 'codes') {
    const codes = (Array.isArray(input) ? input : [input]).map(Number).filter(Number.isInteger);
    return codes.length > 0 ? [...new Set(codes)].sort((a, b) => a - b) : undefined;
  }
  const text = typeof input === 'string' ? input : input.join(',');
  if (field.kind === 'flag') return text === 'true' ? true : undefined;
  if (field.kind === 'number') {
    const trimmed = text.trim();
    if (!trimmed) return undefined;
    // Settings §5: numeric fields are stored as integers; anything else is kept for the message.
    return INTEGER.test(trimmed) ? Number(trimmed) : text;
  }
  if (field.kind === 'text' || field.kind === 'select') return text.trim() === '' ? undefined : text;
  if (field.kind === 'password') return text === '' ? undefined : text;
  return text === '' ? undefined : text;
}

/**
 * The spec with one field of the type's first check changed. Other checks, other keys of the
 * check and the rest of the spec are kept as they were (Form and Code edit the same document).
 */
export function setCheckField(
  spec: Readonly<CanarySpec>,
  typeKey: string,
  field: CheckField,
  input: string | readonly string[],
): CanarySpec {
  const list = Array.isArray(spec[typeKey]) ? [...(spec[typeKey] as unknown[])] : [];
  const value = specValue(field, input);
  // A block created by this edit gets its fields' defaults (the SFTP port).
  const dot = field.key.lastIndexOf('.');
  const blockPath = dot < 0 ? '' : field.key.slice(0, dot + 1);
  const onCreate = (block: CheckObject) => {
    for (const sibling of CHECK_FORMS[typeKey] ?? []) {
      if (sibling.defaultValue === undefined || sibling === field) continue;
      const name = sibling.key.slice(blockPath.length);
      if (!sibling.key.startsWith(blockPath) || name.includes('.')) continue;
      block[name] = specValue(sibling, sibling.defaultValue);
    }
  };
  let check = withValueAt(firstCheck(spec, typeKey), field.key, value, onCreate);
  // A block left holding only the defaults this form wrote goes (clearing the SFTP host makes
  // the folder local again).
  if (blockPath) {
    const blockKey = blockPath.slice(0, -1);
    const block = valueAt(check, blockKey);
    const defaults = (CHECK_FORMS[typeKey] ?? []).filter(
      (sibling) => sibling.defaultValue !== undefined && sibling.key.startsWith(blockPath),
    );
    if (
      isPlainObject(block) &&
      Object.entries(block).every(([name, stored]) =>
        defaults.some(
          (sibling) =>
            sibling.key === `${blockPath}${name}` && stored === specValue(sibling, sibling.defaultValue!),
        ),
      )
    )
      check = withValueAt(check, blockKey, undefined);
  }
  list[0] = check;
  return { ...spec, [typeKey]: list };
}

/** The spec with the canary's schedule changed ('' removes it). */
export function setSchedule(spec: Readonly<CanarySpec>, schedule: string): CanarySpec {
  const next = { ...spec };
  if (schedule.trim()) next.schedule = schedule.trim();
  else delete next.schedule;
  return next;
}

const isEmptyCheckList = (value: unknown) =>
  Array.isArray(value) && value.every((entry) => isPlainObject(entry) && Object.keys(entry).length === 0);

/**
 * The spec after choosing a type in the picker: untouched empty check lists of other types go,
 * and the chosen type gets a check to fill in when it has none. Custom leaves the spec alone.
 */
export function chooseSpecType(spec: Readonly<CanarySpec>, typeKey: string): CanarySpec {
  if (typeKey === 'custom') return { ...spec };
  const next: CanarySpec = {};
  for (const [key, value] of Object.entries(spec))
    if (key === typeKey || !specTypeByKey(key) || !isEmptyCheckList(value)) next[key] = value;
  if (!Array.isArray(next[typeKey]) || (next[typeKey] as unknown[]).length === 0) {
    // A new check starts with its fields' defaults (the SFTP port).
    const check: CheckObject = {};
    for (const field of CHECK_FORMS[typeKey] ?? [])
      if (field.defaultValue !== undefined && !field.key.includes('.'))
        check[field.key] = specValue(field, field.defaultValue);
    next[typeKey] = [check];
  }
  return next;
}

/** The spec a new health check starts with. */
export const newCanarySpec = (): CanarySpec => ({ schedule: DEFAULT_SCHEDULE });

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return false;
}

/**
 * Settings §5: the type's required fields, and numbers that are not whole numbers, by field key.
 * A Redis check may give its address as `url` instead of `addr`.
 */
export function validateCheck(spec: Readonly<CanarySpec>, typeKey: string): Record<string, string> {
  const fields = CHECK_FORMS[typeKey];
  if (!fields) return {};
  const check = firstCheck(spec, typeKey);
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (field.visible && !field.visible(check)) continue;
    const value = valueAt(check, field.key);
    const required = field.required || (field.requiredWhen?.(check) ?? false);
    if (required && isBlank(value)) {
      if (typeKey === 'redis' && field.key === 'addr' && !isBlank(check.url)) continue;
      errors[field.key] = REQUIRED_MESSAGE;
    } else if (field.kind === 'number' && !isBlank(value) && !INTEGER.test(String(value).trim())) {
      errors[field.key] = NUMBER_MESSAGE;
    }
  }
  return errors;
}

/** Parses the labels box: a JSON object of text values (blank is no labels). */
export function parseLabels(text: string): Record<string, string> | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value) || Object.values(value).some((entry) => typeof entry !== 'string'))
      return undefined;
    return value as Record<string, string>;
  } catch {
    return undefined;
  }
}

/** Parses the spec text: a YAML object (blank is an empty spec). */
export function parseSpec(text: string): CanarySpec | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = parseYaml(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface EditorInput {
  name: string;
  labelsText: string;
  specText: string;
  /** The chosen spec type, whose form fields are checked too. */
  typeKey: string | undefined;
}

export interface EditorProblems {
  name?: string;
  labels?: string;
  spec?: string;
  /** The check form's problems by field key. */
  check: Record<string, string>;
}

export type EditorResult =
  | { ok: true; name: string; labels: Record<string, string>; spec: CanarySpec }
  | { ok: false; problems: EditorProblems };

/** Everything that must hold before Save sends the health check to the server. */
export function readEditor(input: EditorInput): EditorResult {
  const problems: EditorProblems = { check: {} };
  const name = input.name.trim();
  if (!name) problems.name = REQUIRED_MESSAGE;
  const labels = parseLabels(input.labelsText);
  if (!labels) problems.labels = LABELS_MESSAGE;
  const spec = parseSpec(input.specText);
  if (!spec) problems.spec = SPEC_MESSAGE;
  else if (input.typeKey) problems.check = validateCheck(spec, input.typeKey);
  if (problems.name || problems.labels || problems.spec || Object.keys(problems.check).length > 0)
    return { ok: false, problems };
  return { ok: true, name, labels: labels ?? {}, spec: spec ?? {} };
}
