import { DeliveryError, decoded, json, joined, originOf, segments, type Channel } from './channel.js';

/**
 * Mattermost incoming webhook: `mattermost://[USERNAME@]HOST[:PORT]/TOKEN[/CHANNEL]` posts
 * `{text, username, channel}` to https://HOST/hooks/TOKEN
 * (https://developers.mattermost.com/integrate/webhooks/incoming/).
 */
export const mattermostChannel: Channel = {
  name: 'mattermost',
  schemes: ['mattermost'],
  async send(target, message, context) {
    const [token, channel] = segments(target);
    if (!token) throw new DeliveryError('mattermost: the service URL names no webhook token');
    const username = decoded(target.username);
    await context.http(
      json(`${originOf(target)}/hooks/${encodeURIComponent(token)}`, {
        text: joined(message),
        ...(username ? { username } : {}),
        ...(channel ? { channel } : {}),
      }),
    );
  },
};
