import { DeliveryError, decoded, json, joined, originOf, segments, type Channel } from './channel.js';

/**
 * Rocket.Chat incoming webhook: `rocketchat://[USERNAME@]HOST[:PORT]/TOKEN_A/TOKEN_B[/CHANNEL]`
 * posts `{text, alias, channel}` to https://HOST/hooks/TOKEN_A/TOKEN_B
 * (https://docs.rocket.chat/use-rocket.chat/workspace-administration/integrations).
 */
export const rocketchatChannel: Channel = {
  name: 'rocketchat',
  schemes: ['rocketchat'],
  async send(target, message, context) {
    const [tokenA, tokenB, channel] = segments(target);
    if (!tokenA || !tokenB) throw new DeliveryError('rocketchat: the service URL needs token A and token B');
    const username = decoded(target.username);
    const room = channel ?? (target.hash ? decodeURIComponent(target.hash) : undefined);
    await context.http(
      json(`${originOf(target)}/hooks/${encodeURIComponent(tokenA)}/${encodeURIComponent(tokenB)}`, {
        text: joined(message),
        ...(username ? { alias: username } : {}),
        ...(room ? { channel: room } : {}),
      }),
    );
  },
};
