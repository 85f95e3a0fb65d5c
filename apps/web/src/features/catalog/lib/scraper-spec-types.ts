import { isMap, isSeq, parseDocument } from 'yaml';

/** A field of a scraper type's form: where it sits in the first entry, and how it is edited. */
export interface ScraperFormField {
  /** Key in the entry (`spec.<type>[0].<key>`). */
  key: string;
  label: string;
  /** 'lines': a list of strings, one per line. */
  input: 'text' | 'textarea' | 'lines' | 'select';
  options?: readonly string[];
  placeholder?: string;
}

export interface ScraperSpecType {
  /** The spec key (`file`, `http`, ...); `custom` names none. */
  key: string;
  label: string;
  /** A starting spec for a new scraper of this type. */
  template: string;
  /** Types with a form open on the Form tab; the others are code-only. */
  fields?: readonly ScraperFormField[];
}

const COMMON_FIELDS: readonly ScraperFormField[] = [
  { key: 'type', label: 'Config type', input: 'text', placeholder: 'Example::File' },
  { key: 'class', label: 'Class', input: 'text', placeholder: 'Example' },
  { key: 'id', label: 'ID (JSONPath)', input: 'text', placeholder: '$.id' },
  { key: 'name', label: 'Name (JSONPath)', input: 'text', placeholder: '$.name' },
  { key: 'items', label: 'Items (JSONPath)', input: 'text', placeholder: '$.items[*]' },
];

const entry = (key: string, lines: string[]) =>
  `schedule: "@every 30m"\n${key}:\n  - ${lines.join('\n    ')}\n`;

/**
 * Settings §3 "Catalog scraper types", plus exec. File, HTTP, SQL and Exec (what this server
 * scrapes) have a form beside the code; the others are code-only.
 */
export const SCRAPER_SPEC_TYPES: readonly ScraperSpecType[] = [
  { key: 'kubernetes', label: 'Kubernetes', template: entry('kubernetes', ['clusterName: local']) },
  { key: 'azure', label: 'Azure', template: entry('azure', ['subscriptionID: ""']) },
  {
    key: 'kubernetesFile',
    label: 'Kubernetes File',
    template: entry('kubernetesFile', ['selector:', '  kind: Pod', 'files:', '  - path: [/etc/config.yaml]']),
  },
  {
    key: 'sql',
    label: 'SQL',
    template: entry('sql', [
      'type: Database::Row',
      'id: $.id',
      'name: $.name',
      'connection: postgres://user:password@localhost:5432/db',
      'query: SELECT id, name FROM items',
    ]),
    fields: [
      ...COMMON_FIELDS,
      { key: 'connection', label: 'Connection', input: 'text', placeholder: 'postgres://… or mysql://…' },
      { key: 'query', label: 'Query', input: 'textarea', placeholder: 'SELECT …' },
    ],
  },
  { key: 'trivy', label: 'Trivy', template: entry('trivy', ['version: "0.40.0"']) },
  { key: 'aws', label: 'AWS', template: entry('aws', ['region: [eu-west-1]']) },
  {
    key: 'file',
    label: 'File',
    template: entry('file', [
      'type: Example::File',
      'id: $.name',
      'name: $.name',
      'paths:',
      '  - ./example.json',
    ]),
    fields: [
      ...COMMON_FIELDS,
      { key: 'paths', label: 'Paths (one per line, globs allowed)', input: 'lines' },
      { key: 'format', label: 'Format', input: 'select', options: ['', 'json', 'yaml', 'plain'] },
    ],
  },
  {
    key: 'githubActions',
    label: 'Github Actions',
    template: entry('githubActions', ['owner: ""', 'repository: ""']),
  },
  {
    key: 'http',
    label: 'HTTP',
    template: entry('http', [
      'type: Example::Http',
      'id: $.id',
      'name: $.name',
      'url: http://localhost:8080/items',
    ]),
    fields: [
      ...COMMON_FIELDS,
      { key: 'url', label: 'URL', input: 'text', placeholder: 'https://…' },
      { key: 'method', label: 'Method', input: 'select', options: ['', 'GET', 'POST', 'PUT', 'PATCH'] },
    ],
  },
  { key: 'azureDevops', label: 'Azure DevOps', template: entry('azureDevops', ['organization: ""']) },
  {
    key: 'exec',
    label: 'Exec',
    template: entry('exec', [
      'type: Example::Script',
      'id: $.id',
      'name: $.name',
      'script: |',
      '  echo \'[{"id": "1", "name": "one"}]\'',
    ]),
    fields: [...COMMON_FIELDS, { key: 'script', label: 'Script (bash, prints JSON)', input: 'textarea' }],
  },
  { key: 'custom', label: 'Custom', template: 'schedule: "@every 30m"\n' },
];

/** Spec keys that are settings, not a source (settings §4 "Spec editor"). */
const NOT_A_TYPE = new Set(['schedule', 'retention', 'full', 'logLevel', 'properties']);

/** Aliases the server scrapes as one of the form types. */
const ALIASES: Record<string, string> = { postgres: 'sql', mysql: 'sql' };

/**
 * The spec type of an existing spec: its first key other than schedule and retention (and the
 * other settings); custom when none is known.
 */
export function detectScraperSpecType(spec: unknown): ScraperSpecType {
  const custom = SCRAPER_SPEC_TYPES.find((type) => type.key === 'custom')!;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return custom;
  const first = Object.keys(spec).find((key) => !NOT_A_TYPE.has(key));
  if (!first) return custom;
  const key = ALIASES[first] ?? first;
  return SCRAPER_SPEC_TYPES.find((type) => type.key === key) ?? custom;
}

/** What the form shows: schedule and the first entry's fields, or why it cannot. */
export type ScraperFormValues =
  | { ok: true; entryKey: string; schedule: string; values: Record<string, string> }
  | { ok: false; message: string };

function text(value: unknown, input: ScraperFormField['input']): string {
  if (input === 'lines')
    return Array.isArray(value) ? value.map(String).join('\n') : typeof value === 'string' ? value : '';
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The spec key the form edits: the type's own, or the alias the YAML uses (postgres for sql). */
function entryKeyOf(json: Record<string, unknown>, type: ScraperSpecType): string {
  if (type.key in json) return type.key;
  const alias = Object.entries(ALIASES).find(([name, target]) => target === type.key && name in json);
  return alias ? alias[0] : type.key;
}

/** Reads the form's values from the YAML (the one source of truth: Form and Code stay in sync). */
export function readScraperForm(yamlText: string, type: ScraperSpecType): ScraperFormValues {
  const document = parseDocument(yamlText);
  if (document.errors.length > 0)
    return { ok: false, message: 'The YAML does not parse: fix it in the Code tab.' };
  const json: unknown = document.toJS() ?? {};
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, message: 'The spec must be a YAML mapping: fix it in the Code tab.' };
  const record = json as Record<string, unknown>;
  const entryKey = entryKeyOf(record, type);
  const list = record[entryKey];
  const first: unknown = Array.isArray(list) ? list[0] : list;
  const entry =
    first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : {};
  const values: Record<string, string> = {};
  for (const field of type.fields ?? []) values[field.key] = text(entry[field.key], field.input);
  return { ok: true, entryKey, schedule: typeof record.schedule === 'string' ? record.schedule : '', values };
}

/**
 * The YAML with one form field changed in place (comments and the other fields kept); an empty
 * value removes the key. `field` undefined edits `schedule`.
 */
export function writeScraperForm(
  yamlText: string,
  type: ScraperSpecType,
  field: ScraperFormField | undefined,
  value: string,
): string {
  const document = parseDocument(yamlText);
  if (document.errors.length > 0) return yamlText;
  // The form only shows for a mapping or an empty document (set/setIn create the mapping).
  if (document.contents !== null && !isMap(document.contents)) return yamlText;
  if (!field) {
    if (value) document.set('schedule', value);
    else document.delete('schedule');
    return document.toString();
  }
  const record = (document.toJS() ?? {}) as Record<string, unknown>;
  const entryKey = entryKeyOf(record, type);
  const list = document.get(entryKey);
  if (!isSeq(list)) document.set(entryKey, document.createNode([{}]));
  else if (list.items.length === 0) list.add(document.createNode({}));
  const path = [entryKey, 0, field.key];
  let parsed: unknown = value;
  if (field.input === 'lines')
    parsed = value
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const empty = parsed === '' || (Array.isArray(parsed) && parsed.length === 0);
  if (empty) document.deleteIn(path);
  else document.setIn(path, parsed);
  return document.toString();
}
