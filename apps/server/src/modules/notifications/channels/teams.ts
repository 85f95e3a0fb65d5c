import { DeliveryError, decoded, json, param, segments, type Channel } from './channel.js';

/**
 * Microsoft Teams incoming webhook: `teams://GROUP@TENANT/ALT_ID/GROUP_OWNER?host=HOST` posts a
 * MessageCard to https://HOST/webhookb2/GROUP@TENANT/IncomingWebhook/ALT_ID/GROUP_OWNER
 * (https://learn.microsoft.com/en-us/outlook/actionable-messages/message-card-reference).
 */
export const teamsChannel: Channel = {
  name: 'teams',
  schemes: ['teams'],
  async send(target, message, context) {
    const group = decoded(target.username);
    const tenant = decoded(target.hostname);
    const [altId, groupOwner] = segments(target);
    const host = param(target, 'host');
    if (!group || !tenant || !altId || !groupOwner || !host) {
      throw new DeliveryError('teams: the service URL needs group, tenant, altId, groupOwner and host');
    }
    await context.http(
      json(`https://${host}/webhookb2/${group}@${tenant}/IncomingWebhook/${altId}/${groupOwner}`, {
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        summary: message.title || message.body.slice(0, 80),
        title: message.title,
        text: message.body,
      }),
    );
  },
};
