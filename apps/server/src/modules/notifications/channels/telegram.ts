import { DeliveryError, decoded, json, joined, param, type Channel } from './channel.js';

/**
 * Telegram bot: `telegram://TOKEN@telegram?chats=CHAT1,CHAT2` calls sendMessage once per chat
 * (https://core.telegram.org/bots/api#sendmessage): POST https://api.telegram.org/bot{TOKEN}/sendMessage.
 */
export const telegramChannel: Channel = {
  name: 'telegram',
  schemes: ['telegram'],
  async send(target, message, context) {
    const token = [decoded(target.username), decoded(target.password)].filter(Boolean).join(':');
    const chats = (param(target, 'chats') ?? param(target, 'channels') ?? '')
      .split(',')
      .map((chat) => chat.trim())
      .filter(Boolean);
    if (!token || chats.length === 0)
      throw new DeliveryError('telegram: the service URL needs a token and chats');
    for (const chat of chats) {
      await context.http(
        json(`https://api.telegram.org/bot${token}/sendMessage`, { chat_id: chat, text: joined(message) }),
      );
    }
  },
};
