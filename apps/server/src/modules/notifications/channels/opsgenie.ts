import { DeliveryError, segments, type Channel, json } from './channel.js';

/**
 * OpsGenie: `opsgenie://HOST[:PORT]/API_KEY` creates an alert
 * (https://docs.opsgenie.com/docs/alert-api#create-alert): POST https://HOST/v2/alerts with
 * `Authorization: GenieKey API_KEY`, `message` (at most 130 characters) and `description`.
 * The host defaults to api.opsgenie.com.
 */
export const opsgenieChannel: Channel = {
  name: 'opsgenie',
  schemes: ['opsgenie'],
  async send(target, message, context) {
    const parts = segments(target);
    const apiKey = parts.at(-1);
    if (!apiKey) throw new DeliveryError('opsgenie: the service URL names no API key');
    const host = target.host || 'api.opsgenie.com';
    await context.http(
      json(
        `https://${host}/v2/alerts`,
        { message: (message.title || message.body).slice(0, 130), description: message.body },
        { Authorization: `GenieKey ${apiKey}` },
      ),
    );
  },
};
