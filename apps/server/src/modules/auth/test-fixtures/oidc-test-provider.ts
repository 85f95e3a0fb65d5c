import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a free local port. Its login and consent
 * screens are replaced by code: whoever `signInAs` names is signed in and consents.
 */
export async function startOidcProvider(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}) {
  const accounts = new Map<string, TestAccount>();
  let current: string | undefined;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
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
    cookies: { keys: ['opsdeck-test-cookie-key'] },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
        },
      ],
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: async (_context: unknown, id: string) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
    },
  });
  const handle = provider.callback();
  server.on('request', (request, response) => {
    const match = /^\/interaction\/([^/?]+)/.exec(request.url ?? '');
    if (!match) return handle(request, response);
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      if (details.prompt.name === 'login') {
        if (!current) throw new Error('signInAs() was not called');
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: current } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const accountId = details.session?.accountId as string;
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) as NonNullable<
            Awaited<ReturnType<typeof provider.Grant.find>>
          >)
        : new provider.Grant({ accountId, clientId: details.params.client_id });
      if (details.prompt.details.missingOIDCScope)
        grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
      if (details.prompt.details.missingOIDCClaims)
        grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
      await provider.interactionFinished(
        request,
        response,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    })().catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });

  /** Plays the browser at the provider: follows redirects (with cookies) until the one back to us. */
  async function authorize(authorizationUrl: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const index = (pair ?? '').indexOf('=');
        if (index > 0) jar.set((pair as string).slice(0, index), (pair as string).slice(index + 1));
      }
      const location = response.headers.get('location');
      if (!location)
        throw new Error(
          `the provider answered ${response.status} without a redirect: ${await response.text()}`,
        );
      const next = new URL(location, url);
      if (next.href.startsWith(options.redirectUri)) return next;
      url = next;
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    addAccount(account: TestAccount) {
      accounts.set(account.sub, account);
    },
    signInAs(sub: string) {
      current = sub;
    },
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
