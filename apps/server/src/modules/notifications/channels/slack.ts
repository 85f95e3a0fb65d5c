import { DeliveryError, decoded, json, joined, segments, type Channel } from './channel.js';

/**
 * Slack. `slack://hook:A-B-C@webhook` posts to the incoming webhook
 * https://hooks.slack.com/services/A/B/C; `slack://xoxb:TOKEN@CHANNEL` (or
 * `slack://[botname@]xoxb-TOKEN/CHANNEL`) calls chat.postMessage with the bot token
 * (https://api.slack.com/methods/chat.postMessage), which answers 200 with `ok: false` on errors.
 */
export const slackChannel: Channel = {
  name: 'slack',
  schemes: ['slack'],
  async send(target, message, context) {
    const user = decoded(target.username);
    const password = decoded(target.password);
    const text = joined(message);
    if (user === 'hook') {
      const path = password.split('-').join('/');
      await context.http(json(`https://hooks.slack.com/services/${path}`, { text }));
      return;
    }
    let token: string;
    let channel: string;
    let botName: string | undefined;
    if (/^xox[a-z]$/.test(user)) {
      token = `${user}-${password}`;
      channel = decoded(target.hostname);
    } else {
      const parts = segments(target);
      token = decoded(target.hostname);
      channel = parts[0] ?? '';
      botName = user || undefined;
    }
    if (!channel) throw new DeliveryError('slack: the service URL names no channel');
    const response = await context.http(
      json(
        'https://slack.com/api/chat.postMessage',
        { channel, text, ...(botName ? { username: botName } : {}) },
        { Authorization: `Bearer ${token}` },
      ),
    );
    let answer: { ok?: boolean; error?: string } = {};
    try {
      answer = JSON.parse(response.text) as typeof answer;
    } catch {
      throw new DeliveryError('slack: the answer was not JSON');
    }
    if (answer.ok !== true) throw new DeliveryError(`slack: ${answer.error ?? 'not ok'}`);
  },
};
