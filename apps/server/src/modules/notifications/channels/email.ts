import nodemailer from 'nodemailer';
import { DeliveryError, param, type Channel } from './channel.js';

/**
 * Email over SMTP. `smtp://[USER:PASSWORD@]HOST[:PORT]/?from=ADDRESS&fromname=NAME&to=A,B`
 * (an Email connection's service URL) sends through that server; `mailto:ADDRESS` (a person,
 * team member or email recipient) sends through the system SMTP server (SMTP_URL, SMTP_FROM).
 * Subject is the rendered title, the text body the rendered template.
 */
export const emailChannel: Channel = {
  name: 'email',
  schemes: ['smtp', 'smtps', 'mailto'],
  async send(target, message, context) {
    let transportUrl: string;
    let from: string;
    let to: string[];
    if (target.protocol === 'mailto:') {
      if (!context.smtp) throw new DeliveryError('email: SMTP_URL is not set, so no email can be sent');
      transportUrl = context.smtp.url;
      from = context.smtp.from;
      to = [decodeURIComponent(target.pathname)];
    } else {
      const address = param(target, 'from') ?? param(target, 'fromaddress');
      if (!address) throw new DeliveryError('email: the Email connection has no From Address');
      const name = param(target, 'fromname');
      from = name ? `"${name.replace(/"/g, '')}" <${address}>` : address;
      to = (param(target, 'to') ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const url = new URL(target.href);
      url.search = '';
      url.pathname = '';
      transportUrl = url.href;
    }
    if (to.length === 0) throw new DeliveryError('email: no recipient address');
    const transport = nodemailer.createTransport(transportUrl);
    try {
      await transport.sendMail({ from, to, subject: message.title, text: message.body });
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new DeliveryError(
        `email: the SMTP server refused the message${code ? ` (${code})` : ''}: ${(error as Error).message.replace(/\S+:\/\/\S+/g, '<url>')}`,
      );
    } finally {
      transport.close();
    }
  },
};
