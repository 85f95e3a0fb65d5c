import type { Pool } from '../../platform/db/pool.js';
import type { SecretBox } from '../../platform/secrets.js';
import { createConnectionResolver, createValueFromResolver } from '../resources/index.js';
import { channelFor, DeliveryError } from './channels/index.js';
import { createHttpSender } from './http-sender.js';
import { resolveRecipients, type RecipientSpec } from './recipients.js';

export interface DirectMessage {
  /** A notification connection (`connection://namespace/name`), a service URL, or email addresses. */
  to: Pick<RecipientSpec, 'connection' | 'url' | 'email' | 'person' | 'team' | 'properties'>;
  title: string;
  body: string;
}

export interface DirectSendOptions {
  pool: Pool;
  secrets?: SecretBox;
  /** The system SMTP server; default SMTP_URL and SMTP_FROM. */
  smtp?: { url: string; from: string };
  signal?: AbortSignal;
}

/** Where a message went, without credentials. */
export interface DirectSendResult {
  recipient: string;
  status: 'sent' | 'failed';
  error?: string;
}

/**
 * Sends one message through the notifications module's channels, outside any Notification rule
 * (the playbook `notification` action): the recipient is resolved like a rule's `to` (connection,
 * service URL, email, person, team) and delivered at once. Answers one result per recipient;
 * errors never carry the target URL (it holds tokens).
 */
export async function sendDirectMessage(
  message: DirectMessage,
  options: DirectSendOptions,
): Promise<DirectSendResult[]> {
  const { pool, secrets } = options;
  const smtp =
    options.smtp ??
    (process.env.SMTP_URL
      ? { url: process.env.SMTP_URL, from: process.env.SMTP_FROM ?? 'Opsdeck <no-reply@opsdeck.local>' }
      : undefined);
  const http = createHttpSender();
  const recipients = await resolveRecipients(
    pool,
    { to: message.to },
    createConnectionResolver(pool, secrets, createValueFromResolver(pool, secrets)),
  );
  const results: DirectSendResult[] = [];
  for (const recipient of recipients) {
    try {
      if (recipient.problem) throw new DeliveryError(recipient.problem);
      if (recipient.playbook) throw new DeliveryError('a playbook recipient receives no message');
      if (!recipient.url) throw new DeliveryError('no destination');
      const channel = channelFor(recipient.url);
      if (!channel) throw new DeliveryError(`no channel for ${recipient.url.protocol}// URLs`);
      await channel.send(
        recipient.url,
        { title: message.title, body: message.body },
        {
          http: (request) => http({ ...request, insecureTls: recipient.insecureTls }, channel.name),
          smtp,
          signal: options.signal,
        },
      );
      results.push({ recipient: recipient.label, status: 'sent' });
    } catch (error) {
      const text =
        error instanceof DeliveryError ? error.message : `unexpected error: ${(error as Error).message}`;
      results.push({ recipient: recipient.label, status: 'failed', error: text });
    }
  }
  return results;
}
