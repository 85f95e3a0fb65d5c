import nodemailer from 'nodemailer';
import type { Logger } from '../../platform/logger.js';
import type { AuthConfig } from './auth-config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Whether SMTP_URL is set; without it nothing can be sent and flows say so. */
  readonly configured: boolean;
  /** Sends one message; false (and a log line) when it could not. */
  send(mail: OutgoingMail): Promise<boolean>;
}

/** Mail over the operator's SMTP server (SMTP_URL, SMTP_FROM). */
export function createMailer(config: AuthConfig, logger: Logger | undefined): Mailer {
  const smtp = config.smtp;
  if (!smtp) {
    return {
      configured: false,
      async send(mail) {
        logger?.error(
          { subject: mail.subject },
          'cannot send email: SMTP_URL is not set (set SMTP_URL, e.g. smtp://user:pass@host:587, and SMTP_FROM)',
        );
        return false;
      },
    };
  }
  const transport = nodemailer.createTransport(smtp.url);
  return {
    configured: true,
    async send(mail) {
      try {
        await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
        return true;
      } catch (error) {
        logger?.error({ err: error, subject: mail.subject }, 'cannot send email through SMTP_URL');
        return false;
      }
    },
  };
}
