import { sendDirectMessage } from '../../notifications/index.js';
import { ActionFailure, type PlaybookActionType } from './types.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/**
 * `notification`: one message (`title`, `message`, both templated) through the notifications
 * module's channels to a notification `connection` or a service `url` (the ecosystem's
 * shoutrrr-style URLs: `smtp://`, `slack://`, `https://` webhooks, ...), with `properties` added
 * to the URL's query. Fails when no recipient got it; the result lists each recipient's outcome.
 */
export const notificationAction: PlaybookActionType = {
  type: 'notification',
  async run(spec, context) {
    const connection = text(spec.connection);
    const url = text(spec.url);
    const title = text(spec.title);
    const message = text(spec.message);
    if (connection === '' && url === '')
      throw new ActionFailure('notification: connection or url is required');
    if (title === '') throw new ActionFailure('notification: title is required');
    if (message === '') throw new ActionFailure('notification: message is required');
    const properties =
      spec.properties && typeof spec.properties === 'object' && !Array.isArray(spec.properties)
        ? Object.fromEntries(Object.entries(spec.properties).map(([key, value]) => [key, text(value)]))
        : undefined;
    const results = await sendDirectMessage(
      {
        to: { ...(connection ? { connection } : {}), ...(url ? { url } : {}), properties },
        title,
        body: message,
      },
      { pool: context.pool, secrets: context.secrets, signal: context.signal },
    );
    const result = { title, recipients: results };
    const failed = results.filter((entry) => entry.status === 'failed');
    if (results.length === 0 || failed.length === results.length) {
      throw new ActionFailure(
        `notification: ${failed.map((entry) => `${entry.recipient}: ${entry.error ?? 'failed'}`).join('; ') || 'no recipient'}`,
        { result },
      );
    }
    return { result };
  },
};
