import { DeliveryError, decoded, json, segments, type Channel } from './channel.js';

/**
 * Pushbullet: `pushbullet://TOKEN[/TARGET…]` creates a note push per target (a device id, a
 * `#channel` tag or an email; none = all the user's devices) with the `Access-Token` header
 * (https://docs.pushbullet.com/#create-push).
 */
export const pushbulletChannel: Channel = {
  name: 'pushbullet',
  schemes: ['pushbullet'],
  async send(target, message, context) {
    const token = decoded(target.hostname);
    if (!token) throw new DeliveryError('pushbullet: the service URL names no token');
    const targets = segments(target).concat(target.hash ? [decodeURIComponent(target.hash)] : []);
    const base = { type: 'note', title: message.title, body: message.body };
    const bodies =
      targets.length === 0
        ? [base]
        : targets.map((entry) =>
            entry.startsWith('#')
              ? { ...base, channel_tag: entry.slice(1) }
              : entry.includes('@')
                ? { ...base, email: entry }
                : { ...base, device_iden: entry },
          );
    for (const body of bodies) {
      await context.http(json('https://api.pushbullet.com/v2/pushes', body, { 'Access-Token': token }));
    }
  },
};
