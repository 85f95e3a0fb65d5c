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

describe('the connection type catalogue', () => {
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
