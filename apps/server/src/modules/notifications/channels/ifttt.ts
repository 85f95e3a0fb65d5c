import { DeliveryError, decoded, json, param, type Channel } from './channel.js';

/**
 * IFTTT Webhooks: `ifttt://WEBHOOK_KEY/?events=EVENT1,EVENT2` triggers each event
 * (https://ifttt.com/maker_webhooks): POST https://maker.ifttt.com/trigger/{event}/with/key/{key}
 * with value1 = title, value2 = message, value3 from the `value3` parameter.
 */
export const iftttChannel: Channel = {
  name: 'ifttt',
  schemes: ['ifttt'],
  async send(target, message, context) {
    const key = decoded(target.hostname);
    const events = (param(target, 'events') ?? '')
      .split(',')
      .map((event) => event.trim())
      .filter(Boolean);
    if (!key || events.length === 0)
      throw new DeliveryError('ifttt: the service URL needs a webhook key and events');
    const value3 = param(target, 'value3');
    for (const event of events) {
      await context.http(
        json(
          `https://maker.ifttt.com/trigger/${encodeURIComponent(event)}/with/key/${encodeURIComponent(key)}`,
          {
            value1: message.title,
            value2: message.body,
            ...(value3 ? { value3 } : {}),
          },
        ),
      );
    }
  },
};
