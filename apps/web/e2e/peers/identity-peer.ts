/**
 * The identity peer of the e2e run (started by playwright.config.ts before the Opsdeck server):
 *
 * - a real SMTP server (smtp-server) on E2E_PORT+1 that keeps every message; the Opsdeck server
 *   gets SMTP_URL pointing at it;
 * - on E2E_PORT+2, the messages as JSON (`GET /__peer/mail?to=ADDRESS`) and a real OpenID Connect
 *   provider (oidc-provider) with its own sign-in and consent pages; the Opsdeck server gets
 *   OIDC_ISSUER pointing at it. Tests add accounts with `POST /__peer/accounts`.
 *
 * Run: `tsx apps/web/e2e/peers/identity-peer.ts` with E2E_PORT set.
 */
import { generateKeyPairSync } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { SMTPServer } from 'smtp-server';
import { e2ePorts, peerSettings } from './ports';

export interface PeerMail {
  to: string[];
  from: string;
  subject: string;
  /** The body, with quoted-printable undone. */
  text: string;
  receivedAt: string;
}

export interface PeerAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

const ports = e2ePorts();
const settings = peerSettings();
const mails: PeerMail[] = [];
const accounts = new Map<string, PeerAccount>();

function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Splits a raw message into its headers and its (decoded) text body. */
function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { headers, text };
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const { headers, text } = parseMail(Buffer.concat(chunks).toString('utf8'));
      mails.push({
        to: session.envelope.rcptTo.map((entry) => entry.address.toLowerCase()),
        from: headers.get('from') ?? '',
        subject: headers.get('subject') ?? '',
        text,
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
  },
});

const provider = new Provider(settings.oidc.issuer, {
  clients: [
    {
      client_id: settings.oidc.clientId,
      client_secret: settings.oidc.clientSecret,
      redirect_uris: [settings.oidc.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  scopes: ['openid', 'email', 'profile'],
  features: { devInteractions: { enabled: false } },
  interactions: {
    url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
  },
  cookies: { keys: ['opsdeck-e2e-peer-cookie-key'] },
  jwks: {
    keys: [
      {
        ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
        kid: 'e2e',
        use: 'sig',
      },
    ],
  },
  ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
  findAccount: async (_context: unknown, id: string) => {
    const account = accounts.get(id);
    return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
  },
});
const handleOidc = provider.callback();

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(response: ServerResponse, title: string, body: string, status = 200): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  );
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function loginPage(response: ServerResponse, uid: string, error?: string): void {
  page(
    response,
    `Sign in to ${settings.oidc.name}`,
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}` +
      `<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">` +
      `<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username">` +
      `<button type="submit">Continue</button></form>`,
    error ? 400 : 200,
  );
}

/** The provider's own screens: who signs in (by email), then consent. */
async function interaction(request: IncomingMessage, response: ServerResponse, uid: string, step?: string) {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === 'login') {
    if (request.method !== 'POST' || step !== 'login') return loginPage(response, uid);
    const email = new URLSearchParams(await readBody(request)).get('email')?.trim().toLowerCase() ?? '';
    const account = [...accounts.values()].find((entry) => entry.email.toLowerCase() === email);
    if (!account) return loginPage(response, uid, `No account for ${email || 'an empty email'} here.`);
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (request.method !== 'POST' || step !== 'confirm') {
    const client = String(details.params.client_id);
    return page(
      response,
      'Allow access',
      `<p>${escapeHtml(client)} asks for your email address and name.</p>` +
        `<form method="post" action="/interaction/${encodeURIComponent(uid)}/confirm">` +
        `<button type="submit">Allow</button></form>`,
    );
  }
  await readBody(request);
  const accountId = details.session?.accountId as string;
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ??
      new provider.Grant({ accountId, clientId: details.params.client_id }))
    : new provider.Grant({ accountId, clientId: details.params.client_id });
  if (details.prompt.details.missingOIDCScope)
    grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
  if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
  await provider.interactionFinished(
    request,
    response,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

async function control(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === '/__peer/ready') return json(response, 200, { ready: true });
  if (url.pathname === '/__peer/mail' && request.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase();
    return json(response, 200, { messages: to ? mails.filter((mail) => mail.to.includes(to)) : mails });
  }
  if (url.pathname === '/__peer/accounts' && request.method === 'POST') {
    const input = JSON.parse(await readBody(request)) as Partial<PeerAccount>;
    if (!input.sub || !input.email || !input.name)
      return json(response, 400, { error: 'sub, email and name are required' });
    const account: PeerAccount = {
      sub: input.sub,
      email: input.email,
      email_verified: input.email_verified === true,
      name: input.name,
    };
    accounts.set(account.sub, account);
    return json(response, 201, account);
  }
  return json(response, 404, { error: 'not found' });
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', settings.peerUrl);
  const routed = url.pathname.startsWith('/__peer/')
    ? control(request, response, url)
    : (() => {
        const match = /^\/interaction\/([^/]+)(?:\/(login|confirm))?$/.exec(url.pathname);
        if (match) return interaction(request, response, decodeURIComponent(match[1] as string), match[2]);
        handleOidc(request, response);
        return Promise.resolve();
      })();
  routed.catch((error: unknown) => {
    process.stderr.write(`identity peer: ${String(error)}\n`);
    if (!response.headersSent) json(response, 500, { error: String(error) });
    else response.end();
  });
});

await new Promise<void>((resolve) => smtp.listen(ports.smtp, '127.0.0.1', resolve));
await new Promise<void>((resolve) => server.listen(ports.peerHttp, '127.0.0.1', resolve));
process.stdout.write(
  `identity peer: SMTP on 127.0.0.1:${ports.smtp}, mail and OIDC on ${settings.peerUrl}\n`,
);

function stop(): void {
  server.closeAllConnections();
  server.close();
  smtp.close(() => process.exit(0));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
