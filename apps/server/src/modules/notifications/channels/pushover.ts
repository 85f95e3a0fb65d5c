import { DeliveryError, decoded, param, type Channel } from './channel.js';

/**
 * Pushover: `pushover://shoutrrr:TOKEN@USER/?devices=a,b` posts the form fields token, user,
 * title, message (and device) to https://api.pushover.net/1/messages.json
 * (https://pushover.net/api#messages).
 */
export const pushoverChannel: Channel = {
  name: 'pushover',
  schemes: ['pushover'],
  async send(target, message, context) {
    const token = decoded(target.password);
    const user = decoded(target.hostname);
    if (!token || !user) throw new DeliveryError('pushover: the service URL needs a token and a user key');
    const form = new URLSearchParams({ token, user, message: message.body || message.title });
    if (message.title) form.set('title', message.title);
    const devices = param(target, 'devices');
    if (devices) form.set('device', devices);
    await context.http({
      url: 'https://api.pushover.net/1/messages.json',
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  },
};
