import * as client from 'openid-client';
import type { Logger } from '../../platform/logger.js';
import type { AuthConfig, OidcProviderConfig } from './auth-config.js';
import type { Queryable } from './identity-store.js';

/**
 * Social sign-in through the one OpenID Connect provider the operator configured: authorization
 * code flow with PKCE, state and nonce. The provider's discovery document is fetched once.
 */

/** Where the provider sends the browser back; register it at the provider. */
export const OIDC_CALLBACK_PATH = '/api/auth/self-service/oidc/callback';

export function oidcRedirectUri(config: AuthConfig): string {
  return `${config.publicUrl}${OIDC_CALLBACK_PATH}`;
}

const discovered = new Map<string, Promise<client.Configuration>>();

function discover(provider: OidcProviderConfig, logger: Logger | undefined): Promise<client.Configuration> {
  const key = `${provider.issuer}\n${provider.clientId}`;
  let pending = discovered.get(key);
  if (!pending) {
    const insecure = new URL(provider.issuer).protocol === 'http:';
    if (insecure)
      logger?.warn(
        { issuer: provider.issuer },
        'OIDC_ISSUER uses plain http: use https outside a test setup',
      );
    pending = client
      .discovery(
        new URL(provider.issuer),
        provider.clientId,
        undefined,
        provider.clientSecret ? client.ClientSecretBasic(provider.clientSecret) : client.None(),
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered.delete(key);
        throw error;
      });
    discovered.set(key, pending);
  }
  return pending;
}

export interface OidcStart {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** The provider's authorization address, with the secrets the callback must match. */
export async function startOidc(
  config: AuthConfig,
  logger: Logger | undefined,
  flowId: string,
): Promise<OidcStart> {
  const provider = config.oidc;
  if (!provider) throw new Error('OIDC is not configured');
  const configuration = await discover(provider, logger);
  const verifier = client.randomPKCECodeVerifier();
  // The flow id travels in the state so the callback finds its flow; the random part proves it.
  const state = `${flowId}.${client.randomState()}`;
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: oidcRedirectUri(config),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.toString(), state, nonce, verifier };
}

export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/** Exchanges the code of a callback for the person's claims (ID token, then userinfo). */
export async function finishOidc(
  config: AuthConfig,
  logger: Logger | undefined,
  query: URLSearchParams,
  saved: { state: string; nonce: string; verifier: string },
): Promise<OidcClaims> {
  const provider = config.oidc;
  if (!provider) throw new Error('OIDC is not configured');
  const configuration = await discover(provider, logger);
  const current = new URL(oidcRedirectUri(config));
  current.search = query.toString();
  const tokens = await client.authorizationCodeGrant(configuration, current, {
    pkceCodeVerifier: saved.verifier,
    expectedState: saved.state,
    expectedNonce: saved.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider returned no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  if (typeof claims.email !== 'string') {
    const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...userinfo, ...claims, email: userinfo.email, email_verified: userinfo.email_verified };
  }
  const name = typeof claims.name === 'string' ? claims.name : '';
  const [first, ...rest] = name.split(' ');
  return {
    issuer: configuration.serverMetadata().issuer,
    subject: idClaims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    firstName: typeof claims.given_name === 'string' ? claims.given_name : (first ?? ''),
    lastName: typeof claims.family_name === 'string' ? claims.family_name : rest.join(' '),
  };
}

export async function findLinkedPerson(
  db: Queryable,
  issuer: string,
  subject: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ person_id: string }>(
    `SELECT l.person_id FROM auth_oidc_links l JOIN people p ON p.id = l.person_id AND p.deleted_at IS NULL
      WHERE l.issuer = $1 AND l.subject = $2`,
    [issuer, subject],
  );
  return rows[0]?.person_id;
}

export async function linkPerson(
  db: Queryable,
  provider: string,
  claims: OidcClaims,
  personId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO auth_oidc_links (provider, issuer, subject, person_id, email) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (issuer, subject) DO UPDATE SET person_id = EXCLUDED.person_id, email = EXCLUDED.email`,
    [provider, claims.issuer, claims.subject, personId, claims.email ?? null],
  );
}

export async function unlinkPerson(db: Queryable, provider: string, personId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM auth_oidc_links WHERE provider = $1 AND person_id = $2`, [
    provider,
    personId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function isLinked(db: Queryable, provider: string, personId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM auth_oidc_links WHERE provider = $1 AND person_id = $2`,
    [provider, personId],
  );
  return (rowCount ?? 0) > 0;
}
