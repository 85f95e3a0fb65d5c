import { DeliveryError, decoded, originOf, segments, type Channel } from './channel.js';

/**
 * ntfy: `ntfy://[USER:PASSWORD@]HOST/TOPIC` publishes with a POST of the message body to
 * https://HOST/TOPIC and the title in the `Title` header (https://docs.ntfy.sh/publish/).
 * The host defaults to ntfy.sh.
 */
export const ntfyChannel: Channel = {
  name: 'ntfy',
  schemes: ['ntfy'],
  async send(target, message, context) {
    const [topic] = segments(target);
    if (!topic) throw new DeliveryError('ntfy: the service URL names no topic');
    const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8' };
    if (message.title) headers.Title = message.title.replace(/[\r\n]+/g, ' ');
    const user = decoded(target.username);
    const password = decoded(target.password);
    if (user || password)
      headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    await context.http({
      url: `${originOf(target, 'ntfy.sh')}/${encodeURIComponent(topic)}`,
      method: 'POST',
      headers,
      body: message.body,
    });
  },
};
