import { z } from 'zod';

// Connections (spec settings §3): the catalogue of connection types with their fields, required
// flags and defaults, the value sources of a secret-style field, the notification types' service
// URLs (built on submit, parsed back when the form reopens), and the API's request and answer
// shapes (`/api/connections`, `POST /api/connection/test/{id}`).

/** Where a form field is stored on the connection. */
export type ConnectionFieldTarget =
  'url' | 'username' | 'password' | 'certificate' | 'insecure_tls' | 'properties';

export interface ConnectionField {
  /** The form's key; for `properties` also the property's name. */
  key: string;
  label: string;
  target: ConnectionFieldTarget;
  input: 'text' | 'secret' | 'number' | 'boolean' | 'select' | 'textarea';
  required?: boolean;
  default?: string | boolean;
  options?: readonly string[];
  /** Shown only when another field has one of these values (Git's authentication). */
  when?: { key: string; values: readonly string[] };
}

export interface ConnectionType {
  /** The ecosystem's type name, stored in `connections.type`. */
  type: string;
  label: string;
  category: 'connection' | 'notification';
  /** Left out of the type picker (JMeter). */
  hidden?: boolean;
  fields: readonly ConnectionField[];
}

// Field helpers: one line per field in the table below.
const url = (required = false, label = 'URL'): ConnectionField => ({
  key: 'url',
  label,
  target: 'url',
  input: 'secret',
  required,
});
const username = (required = false, label = 'Username'): ConnectionField => ({
  key: 'username',
  label,
  target: 'username',
  input: 'secret',
  required,
});
const password = (required = false, label = 'Password'): ConnectionField => ({
  key: 'password',
  label,
  target: 'password',
  input: 'secret',
  required,
});
const certificate = (required = false): ConnectionField => ({
  key: 'certificate',
  label: 'Certificate',
  target: 'certificate',
  input: 'secret',
  required,
});
const insecureTls: ConnectionField = {
  key: 'insecure_tls',
  label: 'Insecure TLS',
  target: 'insecure_tls',
  input: 'boolean',
  default: false,
};
const prop = (
  key: string,
  label: string,
  extra: Partial<Omit<ConnectionField, 'key' | 'label' | 'target'>> = {},
): ConnectionField => ({ key, label, target: 'properties', input: 'text', ...extra });

const connection = (
  type: string,
  label: string,
  fields: ConnectionField[],
  hidden = false,
): ConnectionType => ({
  type,
  label,
  category: 'connection',
  fields,
  ...(hidden ? { hidden } : {}),
});
const notification = (type: string, label: string, fields: ConnectionField[]): ConnectionType => ({
  type,
  label,
  category: 'notification',
  fields,
});

const awsFields = (): ConnectionField[] => [
  prop('region', 'Region'),
  prop('profile', 'Profile'),
  username(false, 'Access Key'),
  password(false, 'Secret Key'),
  insecureTls,
];

export const EMAIL_ENCRYPTIONS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;
export const EMAIL_AUTHS = ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'] as const;
export const GIT_AUTHENTICATIONS = ['Basic', 'SSH'] as const;
export const WEBHOOK_METHODS = ['POST', 'GET'] as const;

/** Every connection type of spec settings §3, in the order of the spec's tables. */
export const CONNECTION_TYPES: readonly ConnectionType[] = [
  connection('anthropic', 'Anthropic', [
    prop('model', 'Model'),
    url(false, 'Base URL'),
    password(true, 'API Key'),
  ]),
  connection('openai', 'OpenAI', [url(), prop('model', 'Model'), password(true, 'API Key')]),
  connection('ollama', 'Ollama', [url(true), prop('model', 'Model'), password(true, 'API Key')]),
  connection('postgres', 'Postgres', [url(true), username(true), password(true)]),
  connection('mysql', 'MySQL', [url(true), username(true), password(true)]),
  connection('sql_server', 'SQL Server', [url(true), username(true), password(true)]),
  connection('http', 'HTTP', [url(), username(), password(true), insecureTls]),
  connection('elasticsearch', 'Elasticsearch', [url(), username(), password(true), insecureTls]),
  connection('mongo', 'Mongo', [url(), username(), password(true), insecureTls]),
  connection('ldap', 'LDAP', [url(), username(), password(true), insecureTls]),
  connection('prometheus', 'Prometheus', [url(true), username(), password(), insecureTls]),
  connection('redis', 'Redis', [
    prop('db', 'Database', { required: true, input: 'number', default: '0' }),
    url(true),
    username(),
    password(),
    insecureTls,
  ]),
  connection('windows', 'Windows', [username(true), password(true), prop('domain', 'Domain')]),
  connection('google_cloud', 'Google Cloud', [url(true, 'Endpoint'), certificate(true)]),
  connection('gcs', 'Google Cloud Storage', [url(true, 'Endpoint'), certificate(true)]),
  connection('sftp', 'SFTP', [
    prop('host', 'Host', { required: true }),
    username(true),
    password(true),
    prop('port', 'Port', { input: 'number', default: '22' }),
  ]),
  connection('aws', 'AWS', awsFields()),
  connection('s3', 'AWS S3', [...awsFields(), prop('bucket', 'Bucket', { required: true })]),
  connection('kubernetes', 'Kubernetes', [certificate()]),
  connection('azure_devops', 'Azure Devops', [
    prop('organization', 'Organization'),
    password(false, 'Personal Access Token'),
  ]),
  connection('azure', 'Azure', [
    username(true, 'Client ID'),
    password(true, 'Client Secret'),
    prop('tenant', 'Tenant ID', { required: true }),
  ]),
  connection('github', 'GitHub', [password(false, 'Personal Access Token')]),
  connection('gitlab', 'Gitlab', [password(false, 'Personal Access Token')]),
  connection('restic', 'Restic', [
    password(true),
    url(true, 'Repository URL'),
    prop('awsConnectionName', 'AWS Connection Name', { required: true }),
    prop('accessKey', 'Access Key', { required: true, input: 'secret' }),
    prop('secretKey', 'Secret Key', { required: true, input: 'secret' }),
  ]),
  connection('smb', 'SMB', [
    prop('server', 'Server'),
    prop('port', 'Port', { input: 'number', default: '445' }),
    prop('share', 'Share'),
    username(),
    password(),
  ]),
  connection('jmeter', 'JMeter', [prop('host', 'Host'), prop('port', 'Port', { input: 'number' })], true),
  connection('dynatrace', 'Dynatrace', [
    prop('host', 'Host', { required: true }),
    password(true, 'API Key'),
    prop('scheme', 'Scheme', { required: true }),
  ]),
  connection('git', 'Git', [
    url(),
    prop('authentication', 'Authentication', {
      input: 'select',
      options: GIT_AUTHENTICATIONS,
      default: 'Basic',
    }),
    { ...username(), when: { key: 'authentication', values: ['Basic'] } },
    { ...password(), when: { key: 'authentication', values: ['Basic'] } },
    {
      ...certificate(),
      label: 'SSH Key',
      input: 'textarea',
      when: { key: 'authentication', values: ['SSH'] },
    },
    prop('ref', 'Ref', { default: 'main' }),
  ]),
  connection('folder', 'Folder', [prop('path', 'Path')]),

  notification('discord', 'Discord', [
    prop('webhookId', 'Webhook ID'),
    prop('token', 'Token', { input: 'secret' }),
  ]),
  notification('email', 'Email', [
    prop('host', 'Host'),
    prop('port', 'Port', { input: 'number', default: '587' }),
    username(),
    password(),
    prop('fromAddress', 'From Address', { required: true }),
    prop('fromName', 'From Name', { required: true }),
    prop('encryption', 'Encryption method', { input: 'select', options: EMAIL_ENCRYPTIONS, default: 'Auto' }),
    prop('auth', 'SMTP authentication', { input: 'select', options: EMAIL_AUTHS, default: 'Unknown' }),
    insecureTls,
  ]),
  notification('googlechat', 'Google Chat', [
    prop('apiKey', 'Key', { input: 'secret' }),
    prop('token', 'Token', { input: 'secret' }),
    prop('webhookName', 'Webhook Name'),
  ]),
  notification('ifttt', 'IFTTT', [prop('webhookId', 'Webhook ID')]),
  notification('mattermost', 'Mattermost', [
    username(),
    prop('host', 'Host'),
    prop('token', 'Token', { input: 'secret' }),
    prop('channel', 'Channel'),
  ]),
  notification('matrix', 'Matrix', [
    username(false, 'User'),
    password(false, 'Password or token'),
    prop('host', 'Host'),
    insecureTls,
  ]),
  notification('ntfy', 'Ntfy', [
    username(),
    password(),
    prop('host', 'Host', { default: 'ntfy.sh' }),
    prop('topic', 'Topic'),
    insecureTls,
  ]),
  notification('opsgenie', 'OpsGenie', [
    prop('host', 'Host', { default: 'api.opsgenie.com' }),
    prop('port', 'Port', { input: 'number', default: '443' }),
    prop('apiKey', 'API Key', { input: 'secret' }),
  ]),
  notification('pushbullet', 'Pushbullet', [
    prop('token', 'Token', { input: 'secret' }),
    prop('targets', 'Targets'),
  ]),
  notification('pushover', 'Pushover', [
    username(false, 'User'),
    prop('token', 'Token', { input: 'secret' }),
  ]),
  notification('rocketchat', 'Rocketchat', [
    username(),
    prop('host', 'Host'),
    prop('port', 'Port', { input: 'number' }),
    prop('aToken', 'Token A', { input: 'secret' }),
    prop('bToken', 'Token B', { input: 'secret' }),
    prop('channel', 'Channel'),
  ]),
  notification('slack', 'Slack', [
    prop('channel', 'Channel'),
    prop('botToken', 'Bot Token', { input: 'secret' }),
    prop('botName', 'Bot Name'),
  ]),
  notification('teams', 'Teams', [
    prop('group', 'Group'),
    prop('tenant', 'Tenant'),
    prop('altId', 'AltID'),
    prop('groupOwner', 'GroupOwner'),
    prop('host', 'Host', { default: 'outlook.office.com' }),
  ]),
  notification('telegram', 'Telegram', [prop('token', 'Token', { input: 'secret' }), prop('chats', 'Chats')]),
  notification('zulip', 'Zulip Chat', [
    prop('botMail', 'BotMail'),
    prop('botApiKey', 'BotKey', { input: 'secret' }),
    prop('host', 'Host'),
  ]),
  notification('generic_webhook', 'Generic Webhook', [
    prop('webhookUrl', 'URL'),
    prop('contentType', 'ContentType', { default: 'application/json' }),
    prop('requestMethod', 'Request Method', { input: 'select', options: WEBHOOK_METHODS, default: 'POST' }),
    prop('messageKey', 'Message Key', { default: 'message' }),
    prop('titleKey', 'Title Key', { default: 'title' }),
    insecureTls,
  ]),
];

const TYPES_BY_NAME = new Map(CONNECTION_TYPES.map((entry) => [entry.type, entry]));

/** The catalogue entry of a type (the ecosystem's spelling; case-insensitive). */
export function connectionTypeOf(type: string): ConnectionType | undefined {
  return TYPES_BY_NAME.get(type) ?? TYPES_BY_NAME.get(type.toLowerCase());
}

/** Every form has Name (required) and Namespace (required, default 'default'). */
export const CONNECTION_DEFAULT_NAMESPACE = 'default';

// ---------------------------------------------------------------------------------------------
// Value sources

const keyRefSchema = z.object({
  name: z.string().min(1, 'a secret or config map name is required'),
  key: z.string().min(1, 'a key is required'),
});

/** A secret-style value: static text, or `valueFrom` a Secret's or a ConfigMap's key. */
export const connectionValueSchema = z.union([
  z.string(),
  z.object({
    valueFrom: z.union([
      z.object({ secretKeyRef: keyRefSchema }).strict(),
      z.object({ configMapKeyRef: keyRefSchema }).strict(),
    ]),
  }),
]);
export type ConnectionValue = z.infer<typeof connectionValueSchema>;

export const VALUE_SOURCES = ['Static', 'Config Map', 'Secret'] as const;
export type ValueSourceKind = (typeof VALUE_SOURCES)[number];

export function valueSourceOf(value: ConnectionValue | undefined): ValueSourceKind {
  if (typeof value === 'object') return 'secretKeyRef' in value.valueFrom ? 'Secret' : 'Config Map';
  return 'Static';
}

/** The value kept stored when an update sends it back unchanged. */
export const CONNECTION_MASK = '********';

// ---------------------------------------------------------------------------------------------
// API shapes

const nameSchema = z
  .string({ error: 'name: is required' })
  .trim()
  .min(1, 'name: is required')
  .max(253, 'name: at most 253 characters')
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'name: lowercase letters, digits, "-" and "." only');

/** The body of `POST /api/connections`, `PUT /api/connections/{id}` and `POST /api/connection/test`. */
export const connectionInputSchema = z.object({
  name: nameSchema,
  namespace: z
    .string()
    .trim()
    .min(1, 'namespace: is required')
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'namespace: lowercase letters, digits and "-" only')
    .default(CONNECTION_DEFAULT_NAMESPACE),
  type: z.string().min(1, 'type: is required'),
  url: connectionValueSchema.optional(),
  username: connectionValueSchema.optional(),
  password: connectionValueSchema.optional(),
  certificate: connectionValueSchema.optional(),
  insecure_tls: z.boolean().optional(),
  properties: z.record(z.string(), z.string()).optional(),
});
export type ConnectionInput = z.input<typeof connectionInputSchema>;
export type ConnectionInputParsed = z.output<typeof connectionInputSchema>;

export const connectionIdParamsSchema = z.object({ id: z.uuid('id: must be a UUID') });

export const CONNECTION_TEST_STATUSES = ['healthy', 'unhealthy', 'unknown'] as const;
export const connectionTestStatusSchema = z.enum(CONNECTION_TEST_STATUSES);
export type ConnectionTestStatus = z.infer<typeof connectionTestStatusSchema>;

/** A connection as `/api/connections` answers: secrets masked unless the caller may edit connections. */
export const connectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  url: connectionValueSchema.optional(),
  username: connectionValueSchema.optional(),
  password: connectionValueSchema.optional(),
  certificate: connectionValueSchema.optional(),
  insecure_tls: z.boolean(),
  properties: z.record(z.string(), z.string()),
  source: z.string(),
  created_by: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_test_status: connectionTestStatusSchema.nullable(),
  last_test_at: z.string().nullable(),
  last_test_message: z.string().nullable(),
});
export type Connection = z.infer<typeof connectionSchema>;

/** What a test says: healthy (it connected), unhealthy (what failed) or unknown (cannot be tested from here). */
export const connectionTestResultSchema = z.object({
  status: connectionTestStatusSchema,
  message: z.string(),
  duration_ms: z.number(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;

/** Spec settings §3: healthy green, unhealthy red, warning yellow, other gray. */
export function connectionHealthColour(
  status: string | null | undefined,
): 'green' | 'red' | 'yellow' | 'gray' {
  if (status === 'healthy') return 'green';
  if (status === 'unhealthy') return 'red';
  if (status === 'warning') return 'yellow';
  return 'gray';
}

// ---------------------------------------------------------------------------------------------
// Form values and their connection

/** The values of a connection form: one per catalogue field (booleans for Insecure TLS). */
export type ConnectionFormValues = Record<string, ConnectionValue | boolean | undefined>;

export interface ConnectionForm {
  name: string;
  namespace: string;
  type: string;
  values: ConnectionFormValues;
}

/** The defaults of a type's form. */
export function defaultConnectionFormValues(type: ConnectionType): ConnectionFormValues {
  const values: ConnectionFormValues = {};
  for (const field of type.fields) {
    if (field.default !== undefined) values[field.key] = field.default;
    else values[field.key] = field.input === 'boolean' ? false : '';
  }
  return values;
}

function isEmpty(value: ConnectionValue | boolean | undefined): boolean {
  return value === undefined || value === '' || value === false;
}

function text(value: ConnectionValue | boolean | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return '';
}

/** The fields a form shows for its current values (Git's authentication picks its fields). */
export function visibleConnectionFields(
  type: ConnectionType,
  values: ConnectionFormValues,
): ConnectionField[] {
  return type.fields.filter(
    (field) => !field.when || field.when.values.includes(text(values[field.when.key] ?? '')),
  );
}

/**
 * The first required field left empty, as `{field, message}` with the field's storage path
 * (`password`, `properties.bucket`), or undefined.
 */
export function missingConnectionField(
  type: ConnectionType,
  values: ConnectionFormValues,
): { field: string; key: string; message: string } | undefined {
  for (const field of visibleConnectionFields(type, values)) {
    if (field.required && isEmpty(values[field.key])) {
      const path = field.target === 'properties' ? `properties.${field.key}` : field.target;
      return { field: path, key: field.key, message: `${field.label} is required` };
    }
  }
  return undefined;
}

/** The connection a form submits: notification types build their service URL. */
export function connectionFromForm(form: ConnectionForm): ConnectionInput {
  const type = connectionTypeOf(form.type);
  const out: ConnectionInput = { name: form.name, namespace: form.namespace, type: form.type };
  if (!type) return out;
  const properties: Record<string, string> = {};
  for (const field of visibleConnectionFields(type, form.values)) {
    const value = form.values[field.key];
    if (field.target === 'insecure_tls') out.insecure_tls = value === true;
    else if (field.target === 'properties') {
      if (!isEmpty(value)) properties[field.key] = text(value);
    } else if (!isEmpty(value) && typeof value !== 'boolean') out[field.target] = value;
  }
  if (type.category === 'notification') {
    out.url = buildServiceUrl(type.type, form.values);
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

/**
 * The form of a stored connection: columns and properties into their fields; a notification
 * type's fields parsed back from its service URL (properties fill what the URL does not carry).
 */
export function connectionToForm(connection: {
  name: string;
  namespace: string;
  type: string;
  url?: ConnectionValue;
  username?: ConnectionValue;
  password?: ConnectionValue;
  certificate?: ConnectionValue;
  insecure_tls?: boolean;
  properties?: Record<string, string>;
}): ConnectionForm {
  const type = connectionTypeOf(connection.type);
  const values: ConnectionFormValues = type ? defaultConnectionFormValues(type) : {};
  const properties = connection.properties ?? {};
  for (const field of type?.fields ?? []) {
    if (field.target === 'insecure_tls') values[field.key] = connection.insecure_tls ?? false;
    else if (field.target === 'properties') {
      if (properties[field.key] !== undefined) values[field.key] = properties[field.key];
    } else if (connection[field.target] !== undefined) values[field.key] = connection[field.target];
  }
  if (
    type?.category === 'notification' &&
    typeof connection.url === 'string' &&
    connection.url !== CONNECTION_MASK
  ) {
    const parsed = parseServiceUrl(type.type, connection.url);
    for (const [key, value] of Object.entries(parsed)) if (value !== undefined) values[key] = value;
  }
  return { name: connection.name, namespace: connection.namespace, type: connection.type, values };
}

// ---------------------------------------------------------------------------------------------
// Notification service URLs (the ecosystem's shoutrrr URLs)

const enc = encodeURIComponent;
const dec = (value: string | undefined): string => (value === undefined ? '' : decodeURIComponent(value));

function query(params: Record<string, string | undefined>): string {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== '');
  if (entries.length === 0) return '';
  return `?${entries.map(([key, value]) => `${key}=${enc(value ?? '')}`).join('&')}`;
}

function yes(value: ConnectionValue | boolean | undefined): string | undefined {
  return value === true ? 'yes' : undefined;
}

interface ParsedUrl {
  scheme: string;
  user: string;
  password: string;
  hasPassword: boolean;
  host: string;
  port: string;
  path: string[];
  params: URLSearchParams;
}

/** Splits `scheme://user:pass@host:port/a/b?x=y` by hand (a shoutrrr URL is not always a valid URL). */
function splitUrl(url: string): ParsedUrl {
  const match = /^([a-z+]+):\/\/([^?]*)(?:\?(.*))?$/i.exec(url);
  const scheme = match?.[1] ?? '';
  const rest = match?.[2] ?? '';
  const params = new URLSearchParams(match?.[3] ?? '');
  const at = rest.lastIndexOf('@', rest.indexOf('/') < 0 ? rest.length : rest.indexOf('/'));
  const userInfo = at >= 0 ? rest.slice(0, at) : '';
  const afterUser = at >= 0 ? rest.slice(at + 1) : rest;
  const slash = afterUser.indexOf('/');
  const hostPort = slash >= 0 ? afterUser.slice(0, slash) : afterUser;
  const path =
    slash >= 0
      ? afterUser
          .slice(slash + 1)
          .split('/')
          .filter((part) => part !== '')
      : [];
  const colon = userInfo.indexOf(':');
  const portMatch = /^(.*?)(?::(\d+))?$/.exec(hostPort);
  return {
    scheme,
    user: dec(colon >= 0 ? userInfo.slice(0, colon) : userInfo),
    password: dec(colon >= 0 ? userInfo.slice(colon + 1) : ''),
    hasPassword: colon >= 0,
    host: dec(portMatch?.[1] ?? hostPort),
    port: portMatch?.[2] ?? '',
    path: path.map(dec),
    params,
  };
}

const param = (parsed: ParsedUrl, key: string): string => parsed.params.get(key) ?? '';

/**
 * The service URL of a notification connection, from its form values. Credentials the URL
 * would carry in clear for Email, Ntfy and Matrix stay in the username/password fields and are
 * written as `$(username)` / `$(password)`, filled in when a notification is sent.
 */
export function buildServiceUrl(type: string, values: ConnectionFormValues): string {
  const v = (key: string) => text(values[key]);
  const e = (key: string) => enc(v(key));
  const hostPort = (host: string, port: string) => `${enc(host)}${port ? `:${port}` : ''}`;
  switch (type) {
    case 'discord':
      return `discord://${e('token')}@${e('webhookId')}`;
    case 'email':
      return `smtp://$(username):$(password)@${hostPort(v('host'), v('port'))}/${query({
        FromAddress: v('fromAddress'),
        FromName: v('fromName'),
        Encryption: v('encryption'),
        Auth: v('auth'),
        SkipTLSVerify: yes(values.insecure_tls),
      })}`;
    case 'googlechat':
      return `googlechat://chat.googleapis.com/v1/spaces/${e('webhookName')}/messages${query({
        key: v('apiKey'),
        token: v('token'),
      })}`;
    case 'ifttt':
      return `ifttt://${e('webhookId')}/`;
    case 'mattermost':
      return `mattermost://${v('username') ? `${e('username')}@` : ''}${e('host')}/${e('token')}${
        v('channel') ? `/${e('channel')}` : ''
      }`;
    case 'matrix':
      return `matrix://$(username):$(password)@${e('host')}/${query({ disableTLS: yes(values.insecure_tls) })}`;
    case 'ntfy':
      return `ntfy://$(username):$(password)@${e('host')}/${e('topic')}${query({
        disabletls: yes(values.insecure_tls),
      })}`;
    case 'opsgenie':
      return `opsgenie://${hostPort(v('host'), v('port'))}/${e('apiKey')}`;
    case 'pushbullet':
      return `pushbullet://${e('token')}${v('targets')
        .split(',')
        .map((target) => target.trim())
        .filter((target) => target !== '')
        .map((target) => `/${enc(target)}`)
        .join('')}`;
    case 'pushover':
      return `pushover://shoutrrr:${e('token')}@${e('username')}/`;
    case 'rocketchat':
      return `rocketchat://${v('username') ? `${e('username')}@` : ''}${hostPort(v('host'), v('port'))}/${e(
        'aToken',
      )}/${e('bToken')}${v('channel') ? `/${e('channel')}` : ''}`;
    case 'slack':
      return `slack://${e('botToken')}@${e('channel')}${query({ botname: v('botName') })}`;
    case 'teams':
      return `teams://${e('group')}@${e('tenant')}/${e('altId')}/${e('groupOwner')}${query({ host: v('host') })}`;
    case 'telegram':
      return `telegram://${e('token')}@telegram/${query({ chats: v('chats') })}`;
    case 'zulip':
      return `zulip://${e('botMail')}:${e('botApiKey')}@${e('host')}/`;
    case 'generic_webhook': {
      const target = v('webhookUrl');
      const secure = target.startsWith('https://');
      const withoutScheme = target.replace(/^https?:\/\//, '');
      const separator = withoutScheme.includes('?') ? '&' : '?';
      const extra = query({
        contenttype: v('contentType'),
        requestmethod: v('requestMethod'),
        messagekey: v('messageKey'),
        titlekey: v('titleKey'),
        disabletls: yes(values.insecure_tls),
      });
      return `generic${secure ? '+https' : ''}://${withoutScheme}${extra ? `${separator}${extra.slice(1)}` : ''}`;
    }
    default:
      return '';
  }
}

/** The form values a notification service URL carries (the inverse of buildServiceUrl). */
export function parseServiceUrl(type: string, url: string): ConnectionFormValues {
  const p = splitUrl(url);
  switch (type) {
    case 'discord':
      return { token: p.user, webhookId: p.host };
    case 'email':
      return {
        host: p.host,
        port: p.port,
        fromAddress: param(p, 'FromAddress'),
        fromName: param(p, 'FromName'),
        encryption: param(p, 'Encryption') || 'Auto',
        auth: param(p, 'Auth') || 'Unknown',
        insecure_tls: param(p, 'SkipTLSVerify') === 'yes',
      };
    case 'googlechat':
      return { webhookName: p.path[2] ?? '', apiKey: param(p, 'key'), token: param(p, 'token') };
    case 'ifttt':
      return { webhookId: p.host };
    case 'mattermost':
      return { username: p.user, host: p.host, token: p.path[0] ?? '', channel: p.path[1] ?? '' };
    case 'matrix':
      return { host: p.host, insecure_tls: param(p, 'disableTLS') === 'yes' };
    case 'ntfy':
      return { host: p.host, topic: p.path[0] ?? '', insecure_tls: param(p, 'disabletls') === 'yes' };
    case 'opsgenie':
      return { host: p.host, port: p.port, apiKey: p.path[0] ?? '' };
    case 'pushbullet':
      return { token: p.host, targets: p.path.join(',') };
    case 'pushover':
      return { token: p.password, username: p.host };
    case 'rocketchat':
      return {
        username: p.user,
        host: p.host,
        port: p.port,
        aToken: p.path[0] ?? '',
        bToken: p.path[1] ?? '',
        channel: p.path[2] ?? '',
      };
    case 'slack':
      return { botToken: p.user, channel: p.host, botName: param(p, 'botname') };
    case 'teams':
      return {
        group: p.user,
        tenant: p.host,
        altId: p.path[0] ?? '',
        groupOwner: p.path[1] ?? '',
        host: param(p, 'host'),
      };
    case 'telegram':
      return { token: p.user, chats: param(p, 'chats') };
    case 'zulip':
      return { botMail: p.user, botApiKey: p.password, host: p.host };
    case 'generic_webhook': {
      const match = /^generic(\+https)?:\/\/([^?]*)(?:\?(.*))?$/.exec(url);
      const params = new URLSearchParams(match?.[3] ?? '');
      const own = ['contenttype', 'requestmethod', 'messagekey', 'titlekey', 'disabletls'];
      const kept = [...params.entries()].filter(([key]) => !own.includes(key));
      const rest = kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
      return {
        // The URL is optional (spec settings §3): none typed reads back as none.
        webhookUrl: match?.[2] ? `${match[1] ? 'https' : 'http'}://${match[2]}${rest}` : '',
        contentType: params.get('contenttype') ?? '',
        requestMethod: params.get('requestmethod') ?? 'POST',
        messageKey: params.get('messagekey') ?? '',
        titleKey: params.get('titlekey') ?? '',
        insecure_tls: params.get('disabletls') === 'yes',
      };
    }
    default:
      return {};
  }
}

/** `POST /api/connection/test`: a connection from the form, before saving; `id` fills values sent back masked. */
export const connectionTestRequestSchema = connectionInputSchema.extend({
  id: z.uuid('id: must be a UUID').optional(),
});
