import { DeliveryError, json, joined, param, type Channel } from './channel.js';

/**
 * Google Chat incoming webhook: `googlechat://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN`
 * posts `{text}` to the same https URL (https://developers.google.com/workspace/chat/quickstart/webhooks).
 */
export const googleChatChannel: Channel = {
  name: 'googlechat',
  schemes: ['googlechat'],
  async send(target, message, context) {
    const key = param(target, 'key');
    const token = param(target, 'token');
    if (!key || !token) throw new DeliveryError('googlechat: the service URL needs key and token');
    const host = target.host || 'chat.googleapis.com';
    const url = `https://${host}${target.pathname}?key=${encodeURIComponent(key)}&token=${encodeURIComponent(token)}`;
    await context.http(
      json(url, { text: joined(message) }, { 'Content-Type': 'application/json; charset=UTF-8' }),
    );
  },
};
