import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  /** The raw message as it arrived (headers and body, transfer-encoded). */
  raw: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** Undoes quoted-printable (soft line breaks, =XX escapes): enough to read codes and links. */
export function decodeQuotedPrintable(value: string): string {
  return value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server on a free local port that keeps every message it receives. */
export async function startSmtpCapture(): Promise<{
  url: string;
  messages: CapturedMail[];
  waitFor(count: number): Promise<CapturedMail[]>;
  close(): Promise<void>;
}> {
  const messages: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const encoded = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
        messages.push({
          to: session.envelope.rcptTo.map((entry) => entry.address),
          raw,
          text: encoded ? decodeQuotedPrintable(raw) : raw,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count) {
      while (messages.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`expected ${count} emails, got ${messages.length}`)),
            5000,
          );
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
