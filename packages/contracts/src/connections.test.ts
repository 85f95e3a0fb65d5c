import { describe, expect, it } from 'vitest';
import {
  buildServiceUrl,
  CONNECTION_TYPES,
  connectionFromForm,
  connectionHealthColour,
  connectionToForm,
  connectionTypeOf,
  defaultConnectionFormValues,
  missingConnectionField,
  parseServiceUrl,
  type ConnectionFormValues,
} from './connections.js';

// One filled form per notification type, with characters a URL must escape.
const SAMPLES: Record<string, ConnectionFormValues> = {
  discord: { webhookId: '123456', token: 'tok/en+1' },
  email: {
    host: 'smtp.example.com',
    port: '2525',
    username: 'mailer',
    password: 'p@ss:word',
    fromAddress: 'ops@example.com',
    fromName: 'Ops Deck',
    encryption: 'ExplicitTLS',
    auth: 'Plain',
    insecure_tls: true,
  },
  googlechat: { apiKey: 'AIza key', token: 't&k', webhookName: 'AAAAspace' },
  ifttt: { webhookId: 'hook-id' },
  mattermost: { username: 'bot', host: 'chat.example.com', token: 'mm-token', channel: 'alerts' },
  matrix: { username: 'alice', password: 'secret', host: 'matrix.example.org', insecure_tls: true },
  ntfy: { username: 'u', password: 'p', host: 'ntfy.sh', topic: 'opsdeck', insecure_tls: false },
  opsgenie: { host: 'api.eu.opsgenie.com', port: '443', apiKey: 'og-key' },
  pushbullet: { token: 'pb-token', targets: 'device1,#channel,me@example.com' },
  pushover: { username: 'user-key', token: 'app-token' },
  rocketchat: {
    username: 'bot',
    host: 'rocket.example.com',
    port: '3000',
    aToken: 'tokenA',
    bToken: 'tokenB',
    channel: 'general',
  },
  slack: { channel: 'C0123', botToken: 'xoxb-1234-abcd', botName: 'Ops Deck' },
  teams: { group: 'g1', tenant: 't1', altId: 'a1', groupOwner: 'o1', host: 'example.webhook.office.com' },
  telegram: { token: '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', chats: '@ops,12345' },
  zulip: { botMail: 'bot@zulip.example.com', botApiKey: 'zk', host: 'zulip.example.com' },
  generic_webhook: {
    webhookUrl: 'https://hooks.example.com/api/notify?team=ops',
    contentType: 'application/json',
    requestMethod: 'GET',
    messageKey: 'text',
    titleKey: 'subject',
    insecure_tls: true,
  },
};

const notifications = CONNECTION_TYPES.filter((type) => type.category === 'notification');

// Spec settings §3's two tables, transcribed: each type's fields in order, `*` required,
// `=value` a default. Git's Username/Password show for Basic, its SSH Key for SSH.
const SPEC_CATALOGUE: Record<string, string[]> = {
  Anthropic: ['Model', 'Base URL', 'API Key*'],
  OpenAI: ['URL', 'Model', 'API Key*'],
  Ollama: ['URL*', 'Model', 'API Key*'],
  Postgres: ['URL*', 'Username*', 'Password*'],
  MySQL: ['URL*', 'Username*', 'Password*'],
  'SQL Server': ['URL*', 'Username*', 'Password*'],
  HTTP: ['URL', 'Username', 'Password*', 'Insecure TLS'],
  Elasticsearch: ['URL', 'Username', 'Password*', 'Insecure TLS'],
  Mongo: ['URL', 'Username', 'Password*', 'Insecure TLS'],
  LDAP: ['URL', 'Username', 'Password*', 'Insecure TLS'],
  Prometheus: ['URL*', 'Username', 'Password', 'Insecure TLS'],
  Redis: ['Database*=0', 'URL*', 'Username', 'Password', 'Insecure TLS'],
  Windows: ['Username*', 'Password*', 'Domain'],
  'Google Cloud': ['Endpoint*', 'Certificate*'],
  'Google Cloud Storage': ['Endpoint*', 'Certificate*'],
  SFTP: ['Host*', 'Username*', 'Password*', 'Port=22'],
  AWS: ['Region', 'Profile', 'Access Key', 'Secret Key', 'Insecure TLS'],
  'AWS S3': ['Region', 'Profile', 'Access Key', 'Secret Key', 'Insecure TLS', 'Bucket*'],
  Kubernetes: ['Certificate'],
  'Azure Devops': ['Organization', 'Personal Access Token'],
  Azure: ['Client ID*', 'Client Secret*', 'Tenant ID*'],
  GitHub: ['Personal Access Token'],
  Gitlab: ['Personal Access Token'],
  Restic: ['Password*', 'Repository URL*', 'AWS Connection Name*', 'Access Key*', 'Secret Key*'],
  SMB: ['Server', 'Port=445', 'Share', 'Username', 'Password'],
  JMeter: ['Host', 'Port'],
  Dynatrace: ['Host*', 'API Key*', 'Scheme*'],
  Git: ['URL', 'Authentication=Basic', 'Username', 'Password', 'SSH Key', 'Ref=main'],
  Folder: ['Path'],
  Discord: ['Webhook ID', 'Token'],
  Email: [
    'Host',
    'Port=587',
    'Username',
    'Password',
    'From Address*',
    'From Name*',
    'Encryption method=Auto',
    'SMTP authentication=Unknown',
    'Insecure TLS',
  ],
  'Google Chat': ['Key', 'Token', 'Webhook Name'],
  IFTTT: ['Webhook ID'],
  Mattermost: ['Username', 'Host', 'Token', 'Channel'],
  Matrix: ['User', 'Password or token', 'Host', 'Insecure TLS'],
  Ntfy: ['Username', 'Password', 'Host=ntfy.sh', 'Topic', 'Insecure TLS'],
  // The spec writes the host default as '{host}': the service's public API host.
  OpsGenie: ['Host=api.opsgenie.com', 'Port=443', 'API Key'],
  Pushbullet: ['Token', 'Targets'],
  Pushover: ['User', 'Token'],
  Rocketchat: ['Username', 'Host', 'Port', 'Token A', 'Token B', 'Channel'],
  Slack: ['Channel', 'Bot Token', 'Bot Name'],
  Teams: ['Group', 'Tenant', 'AltID', 'GroupOwner', 'Host=outlook.office.com'],
  Telegram: ['Token', 'Chats'],
  'Zulip Chat': ['BotMail', 'BotKey', 'Host'],
  'Generic Webhook': [
    'URL',
    'ContentType=application/json',
    'Request Method=POST',
    'Message Key=message',
    'Title Key=title',
    'Insecure TLS',
  ],
};

describe('the connection type catalogue', () => {
  it("has exactly the spec's types, fields, required flags and defaults, in the spec's order", () => {
    const actual = Object.fromEntries(
      CONNECTION_TYPES.map((type) => [
        type.label,
        type.fields.map(
          (field) =>
            `${field.label}${field.required ? '*' : ''}${
              typeof field.default === 'string' ? `=${field.default}` : ''
            }`,
        ),
      ]),
    );
    expect(actual).toEqual(SPEC_CATALOGUE);
    expect(Object.keys(actual)).toEqual(Object.keys(SPEC_CATALOGUE));
    // Only JMeter is left out of the type picker; the notification table's types are notifications.
    expect(CONNECTION_TYPES.filter((type) => type.hidden).map((type) => type.label)).toEqual(['JMeter']);
    expect(
      CONNECTION_TYPES.filter((type) => type.category === 'notification').map((type) => type.label)[0],
    ).toBe('Discord');
    expect(connectionTypeOf('email')?.fields.find((field) => field.key === 'encryption')?.options).toEqual([
      'None',
      'ExplicitTLS',
      'ImplicitTLS',
      'Auto',
    ]);
    expect(connectionTypeOf('email')?.fields.find((field) => field.key === 'auth')?.options).toEqual([
      'None',
      'Plain',
      'CRAMMD5',
      'Unknown',
      'OAuth2',
    ]);
    expect(
      connectionTypeOf('generic_webhook')?.fields.find((field) => field.key === 'requestMethod')?.options,
    ).toEqual(['POST', 'GET']);
  });

  it('has the spec defaults', () => {
    const defaults = (type: string) => defaultConnectionFormValues(connectionTypeOf(type)!);
    expect(defaults('email')).toMatchObject({ port: '587', encryption: 'Auto', auth: 'Unknown' });
    expect(defaults('sftp')).toMatchObject({ port: '22' });
    expect(defaults('smb')).toMatchObject({ port: '445' });
    expect(defaults('ntfy')).toMatchObject({ host: 'ntfy.sh' });
    expect(defaults('git')).toMatchObject({ ref: 'main' });
    expect(defaults('opsgenie')).toMatchObject({ port: '443' });
    expect(defaults('generic_webhook')).toMatchObject({
      contentType: 'application/json',
      requestMethod: 'POST',
      messageKey: 'message',
      titleKey: 'title',
    });
    expect(connectionTypeOf('jmeter')?.hidden).toBe(true);
  });

  it('reads a Generic Webhook saved without its optional URL back without one', () => {
    const type = connectionTypeOf('generic_webhook')!;
    const values = defaultConnectionFormValues(type);
    expect(missingConnectionField(type, values)).toBeUndefined();
    const input = connectionFromForm({ name: 'hook', namespace: 'default', type: type.type, values });
    expect(input.url).toBe(
      'generic://?contenttype=application%2Fjson&requestmethod=POST&messagekey=message&titlekey=title',
    );
    expect(connectionToForm({ ...input, namespace: 'default', url: input.url }).values).toEqual(values);
  });

  it('names the first missing required field by its storage path', () => {
    const s3 = connectionTypeOf('s3')!;
    expect(missingConnectionField(s3, defaultConnectionFormValues(s3))).toEqual({
      field: 'properties.bucket',
      key: 'bucket',
      message: 'Bucket is required',
    });
    const postgres = connectionTypeOf('postgres')!;
    expect(missingConnectionField(postgres, { url: 'postgres://h/db', username: 'u' })?.field).toBe(
      'password',
    );
    expect(missingConnectionField(postgres, { url: 'x', username: 'u', password: 'p' })).toBeUndefined();
  });

  it('gives the health colours of the spec', () => {
    expect(connectionHealthColour('healthy')).toBe('green');
    expect(connectionHealthColour('unhealthy')).toBe('red');
    expect(connectionHealthColour('warning')).toBe('yellow');
    expect(connectionHealthColour(null)).toBe('gray');
  });
});

describe('notification service URLs', () => {
  it('has a sample for every notification type', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(notifications.map((type) => type.type).sort());
  });

  for (const type of notifications) {
    it(`${type.label}: the form's values survive build, submit and reopen`, () => {
      const values = { ...defaultConnectionFormValues(type), ...SAMPLES[type.type] };
      const url = buildServiceUrl(type.type, values);
      expect(url).toMatch(/^[a-z+]+:\/\//);
      // Parsing gives back every field the URL carries.
      for (const [key, value] of Object.entries(parseServiceUrl(type.type, url)))
        expect({ key, value }).toEqual({ key, value: values[key] });
      // Through the submitted connection and back into the form: every value.
      const submitted = connectionFromForm({ name: 'n', namespace: 'default', type: type.type, values });
      expect(submitted.url).toBe(url);
      const reopened = connectionToForm({
        ...submitted,
        namespace: 'default',
        properties: submitted.properties ?? {},
      });
      expect(reopened.values).toEqual(values);
    });
  }

  it('builds the ecosystem URLs', () => {
    expect(buildServiceUrl('discord', SAMPLES.discord)).toBe('discord://tok%2Fen%2B1@123456');
    expect(buildServiceUrl('email', SAMPLES.email)).toBe(
      'smtp://$(username):$(password)@smtp.example.com:2525/?FromAddress=ops%40example.com&FromName=Ops%20Deck&Encryption=ExplicitTLS&Auth=Plain&SkipTLSVerify=yes',
    );
    expect(buildServiceUrl('slack', SAMPLES.slack)).toBe('slack://xoxb-1234-abcd@C0123?botname=Ops%20Deck');
    expect(buildServiceUrl('generic_webhook', SAMPLES.generic_webhook)).toBe(
      'generic+https://hooks.example.com/api/notify?team=ops&contenttype=application%2Fjson&requestmethod=GET&messagekey=text&titlekey=subject&disabletls=yes',
    );
  });
});
