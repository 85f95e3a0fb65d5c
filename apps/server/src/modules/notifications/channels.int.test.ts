import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpCapture } from '../auth/test-fixtures/smtp-capture.js';
import { channelFor, type RenderedMessage } from './channels/index.js';
import { createHttpSender } from './http-sender.js';
import { startHttpPeer, type CapturedRequest } from './test-fixtures/http-peer.js';

/**
 * Every HTTP channel against a real local HTTP server standing in for the provider: the request
 * must be the one the provider's public API documents (method, path, headers, body). Hosted
 * providers' origins are sent to the peer with the sender's originOverrides; self-hosted ones
 * (Mattermost, Rocket.Chat, ntfy, Zulip, Matrix, webhooks) name the peer as their host.
 */
let peer: Awaited<ReturnType<typeof startHttpPeer>>;
let answer = (request: CapturedRequest) => ({ status: 200, body: '{"ok":true}' as string, request });
const message: RenderedMessage = {
  title: 'Check api has failed',
  body: 'Check **api** has failed.\n\nError: 503',
};

beforeAll(async () => {
  peer = await startHttpPeer((request) => answer(request));
});
afterAll(async () => peer?.close());
beforeEach(() => {
  peer.requests.length = 0;
  answer = (request) => ({ status: 200, body: '{"ok":true}', request });
});

async function send(serviceUrl: string): Promise<CapturedRequest[]> {
  const hosted = [
    'https://hooks.slack.com',
    'https://slack.com',
    'https://discord.com',
    'https://chat.googleapis.com',
    'https://api.telegram.org',
    'https://api.pushover.net',
    'https://api.pushbullet.com',
    'https://api.opsgenie.com',
    'https://maker.ifttt.com',
    'https://outlook.webhook.office.com',
  ];
  const http = createHttpSender({
    originOverrides: Object.fromEntries(hosted.map((origin) => [origin, peer.origin])),
  });
  const url = new URL(serviceUrl);
  const channel = channelFor(url);
  if (!channel) throw new Error(`no channel for ${serviceUrl}`);
  await channel.send(url, message, { http: (request) => http(request, channel.name) });
  return peer.requests;
}

const text = `${message.title}\n\n${message.body}`;

describe('notification channels speak their provider APIs', () => {
  it('Slack incoming webhook', async () => {
    const [request] = await send('slack://hook:T000-B000-XXXX@webhook');
    expect(request).toMatchObject({ method: 'POST', path: '/services/T000/B000/XXXX' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ text });
  });

  it('Slack chat.postMessage with a bot token, refusing ok:false', async () => {
    const [request] = await send('slack://xoxb:123-456-abc@C0123');
    expect(request).toMatchObject({ method: 'POST', path: '/api/chat.postMessage' });
    expect(request.headers.authorization).toBe('Bearer xoxb-123-456-abc');
    expect(JSON.parse(request.body)).toEqual({ channel: 'C0123', text });
    answer = (req) => ({ status: 200, body: '{"ok":false,"error":"channel_not_found"}', request: req });
    await expect(send('slack://xoxb:123-456-abc@C0123')).rejects.toThrow('slack: channel_not_found');
  });

  it('Discord execute webhook', async () => {
    const [request] = await send('discord://tok3n@98765');
    expect(request).toMatchObject({ method: 'POST', path: '/api/webhooks/98765/tok3n' });
    expect(JSON.parse(request.body)).toEqual({ content: text });
  });

  it('Teams MessageCard', async () => {
    const [request] = await send('teams://grp@tenant/alt/owner?host=outlook.webhook.office.com');
    expect(request).toMatchObject({
      method: 'POST',
      path: '/webhookb2/grp@tenant/IncomingWebhook/alt/owner',
    });
    expect(JSON.parse(request.body)).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: message.title,
      title: message.title,
      text: message.body,
    });
  });

  it('Mattermost incoming webhook on the named host', async () => {
    const [request] = await send(`mattermost://opsdeck@${peer.host}/hooktoken/alerts?disabletls=yes`);
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/hooktoken' });
    expect(JSON.parse(request.body)).toEqual({ text, username: 'opsdeck', channel: 'alerts' });
  });

  it('Google Chat webhook', async () => {
    const [request] = await send('googlechat://chat.googleapis.com/v1/spaces/AAA/messages?key=k1&token=t1');
    expect(request).toMatchObject({ method: 'POST', path: '/v1/spaces/AAA/messages?key=k1&token=t1' });
    expect(request.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(request.body)).toEqual({ text });
  });

  it('Telegram sendMessage per chat', async () => {
    const requests = await send('telegram://123:ABC@telegram?chats=@ops,42');
    expect(requests.map((request) => [request.method, request.path, JSON.parse(request.body)])).toEqual([
      ['POST', '/bot123:ABC/sendMessage', { chat_id: '@ops', text }],
      ['POST', '/bot123:ABC/sendMessage', { chat_id: '42', text }],
    ]);
  });

  it('ntfy publish with title header and basic auth', async () => {
    const [request] = await send(`ntfy://me:pw@${peer.host}/alerts?scheme=http`);
    expect(request).toMatchObject({ method: 'POST', path: '/alerts', body: message.body });
    expect(request.headers.title).toBe(message.title);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('me:pw').toString('base64')}`);
  });

  it('Pushover messages.json form', async () => {
    const [request] = await send('pushover://shoutrrr:apptoken@userkey/?devices=phone');
    expect(request).toMatchObject({ method: 'POST', path: '/1/messages.json' });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      token: 'apptoken',
      user: 'userkey',
      message: message.body,
      title: message.title,
      device: 'phone',
    });
  });

  it('Pushbullet note pushes with Access-Token', async () => {
    const requests = await send('pushbullet://accesstoken/device1/#ops');
    expect(requests.map((request) => request.headers['access-token'])).toEqual([
      'accesstoken',
      'accesstoken',
    ]);
    expect(requests.map((request) => [request.path, JSON.parse(request.body)])).toEqual([
      ['/v2/pushes', { type: 'note', title: message.title, body: message.body, device_iden: 'device1' }],
      ['/v2/pushes', { type: 'note', title: message.title, body: message.body, channel_tag: 'ops' }],
    ]);
  });

  it('OpsGenie create alert with GenieKey', async () => {
    const [request] = await send('opsgenie://api.opsgenie.com/apikey123');
    expect(request).toMatchObject({ method: 'POST', path: '/v2/alerts' });
    expect(request.headers.authorization).toBe('GenieKey apikey123');
    expect(JSON.parse(request.body)).toEqual({ message: message.title, description: message.body });
  });

  it('Rocket.Chat incoming webhook', async () => {
    const [request] = await send(`rocketchat://bot@${peer.host}/tokA/tokB/ops?disabletls=yes`);
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/tokA/tokB' });
    expect(JSON.parse(request.body)).toEqual({ text, alias: 'bot', channel: 'ops' });
  });

  it('Zulip stream message with basic auth', async () => {
    const [request] = await send(
      `zulip://bot%40zulip.example:key1@${peer.host}/?stream=ops&topic=alerts&disabletls=yes`,
    );
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/messages' });
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from('bot@zulip.example:key1').toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      type: 'stream',
      to: 'ops',
      topic: 'alerts',
      content: message.body,
    });
  });

  it('Matrix login then m.room.message', async () => {
    answer = (request) => ({
      status: 200,
      body: request.path.endsWith('/login') ? '{"access_token":"syt_abc"}' : '{"event_id":"$1"}',
      request,
    });
    const requests = await send(`matrix://bot:secret@${peer.host}/?rooms=!room:example.org&disabletls=yes`);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/_matrix/client/v3/login' });
    expect(JSON.parse(requests[0].body)).toEqual({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: 'bot' },
      password: 'secret',
    });
    expect(requests[1].method).toBe('PUT');
    expect(requests[1].path).toMatch(
      /^\/_matrix\/client\/v3\/rooms\/!room%3Aexample\.org\/send\/m\.room\.message\/[0-9a-f-]{36}$/,
    );
    expect(requests[1].headers.authorization).toBe('Bearer syt_abc');
    expect(JSON.parse(requests[1].body)).toEqual({ msgtype: 'm.text', body: text });
  });

  it('IFTTT maker webhook per event', async () => {
    const [request] = await send('ifttt://makerkey/?events=opsdeck_alert');
    expect(request).toMatchObject({ method: 'POST', path: '/trigger/opsdeck_alert/with/key/makerkey' });
    expect(JSON.parse(request.body)).toEqual({ value1: message.title, value2: message.body });
  });

  it('Generic webhook: keys, method, headers and content type', async () => {
    const [plain] = await send(`${peer.origin}/hook?x=1`);
    expect(plain).toMatchObject({ method: 'POST', path: '/hook?x=1' });
    expect(JSON.parse(plain.body)).toEqual({ title: message.title, message: message.body });
    peer.requests.length = 0;
    const [custom] = await send(
      `generic://${peer.host}/in?disabletls=yes&messagekey=text&titlekey=subject&@X-Api-Key=k9&$source=opsdeck`,
    );
    expect(custom).toMatchObject({ method: 'POST', path: '/in' });
    expect(custom.headers['x-api-key']).toBe('k9');
    expect(JSON.parse(custom.body)).toEqual({
      source: 'opsdeck',
      subject: message.title,
      text: message.body,
    });
    peer.requests.length = 0;
    const [get] = await send(`generic://${peer.host}/get?disabletls=yes&method=GET`);
    expect(get.method).toBe('GET');
    expect(Object.fromEntries(new URL(get.path, peer.origin).searchParams)).toEqual({
      title: message.title,
      message: message.body,
    });
  });

  it('a refused request fails with the status and without the URL', async () => {
    answer = (request) => ({ status: 403, body: 'invalid_token', request });
    const error = await send('discord://secret-token@1').catch((caught: Error) => caught);
    expect(String(error)).toContain('discord: HTTP 403: invalid_token');
    expect(String(error)).not.toContain('secret-token');
  });
});

describe('email channel', () => {
  it('sends through an Email connection service URL to a real SMTP server', async () => {
    const smtp = await startSmtpCapture();
    try {
      const url = new URL(`${smtp.url}/?from=alerts@example.test&fromname=Opsdeck&to=ops@example.test`);
      await channelFor(url)!.send(url, message, { http: () => Promise.reject(new Error('no http')) });
      const [mail] = await smtp.waitFor(1);
      expect(mail.to).toEqual(['ops@example.test']);
      expect(mail.raw).toMatch(/^Subject: Check api has failed$/m);
      expect(mail.raw).toMatch(/^From: "?Opsdeck"? <alerts@example.test>$/m);
      expect(mail.text).toContain('Error: 503');
    } finally {
      await smtp.close();
    }
  });
});
