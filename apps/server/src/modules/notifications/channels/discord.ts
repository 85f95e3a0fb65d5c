import { DeliveryError, decoded, json, joined, type Channel } from './channel.js';

/**
 * Discord: `discord://TOKEN@WEBHOOK_ID` executes the webhook
 * (https://discord.com/developers/docs/resources/webhook#execute-webhook):
 * POST /api/webhooks/{id}/{token} with `content` (at most 2000 characters).
 */
export const discordChannel: Channel = {
  name: 'discord',
  schemes: ['discord'],
  async send(target, message, context) {
    const token = decoded(target.username);
    const id = decoded(target.hostname);
    if (!token || !id) throw new DeliveryError('discord: the service URL needs a token and a webhook id');
    await context.http(
      json(`https://discord.com/api/webhooks/${encodeURIComponent(id)}/${encodeURIComponent(token)}`, {
        content: joined(message).slice(0, 2000),
      }),
    );
  },
};
