import { DeliveryError, decoded, originOf, param, type Channel } from './channel.js';

/**
 * Zulip: `zulip://BOT_MAIL:BOT_KEY@HOST/?stream=NAME&topic=TOPIC` sends a stream message
 * (https://zulip.com/api/send-message): POST https://HOST/api/v1/messages, HTTP basic auth with
 * the bot's email and key, form fields type, to, topic, content.
 */
export const zulipChannel: Channel = {
  name: 'zulip',
  schemes: ['zulip'],
  async send(target, message, context) {
    const mail = decoded(target.username);
    const key = decoded(target.password);
    const stream = param(target, 'stream');
    if (!mail || !key || !stream)
      throw new DeliveryError('zulip: the service URL needs bot mail, bot key and stream');
    const form = new URLSearchParams({
      type: 'stream',
      to: stream,
      topic: (param(target, 'topic') ?? message.title) || 'Opsdeck',
      content: message.body,
    });
    await context.http({
      url: `${originOf(target)}/api/v1/messages`,
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${mail}:${key}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
  },
};
