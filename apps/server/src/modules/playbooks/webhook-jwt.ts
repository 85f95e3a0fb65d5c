import { constants, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { HttpError } from '../../platform/http/errors.js';

/** JWKS documents kept this long before they are fetched again (a key rotation shows within it). */
const JWKS_CACHE_MS = 5 * 60_000;
/** Clock skew accepted on `exp` and `nbf`. */
const LEEWAY_SECONDS = 60;

interface Jwk extends JsonWebKey {
  kid?: string;
  use?: string;
}

const cache = new Map<string, { at: number; keys: Jwk[] }>();

const ALGORITHMS: Record<string, { hash: string; kind: 'rsa' | 'pss' | 'ec' }> = {
  RS256: { hash: 'sha256', kind: 'rsa' },
  RS384: { hash: 'sha384', kind: 'rsa' },
  RS512: { hash: 'sha512', kind: 'rsa' },
  PS256: { hash: 'sha256', kind: 'pss' },
  PS384: { hash: 'sha384', kind: 'pss' },
  PS512: { hash: 'sha512', kind: 'pss' },
  ES256: { hash: 'sha256', kind: 'ec' },
  ES384: { hash: 'sha384', kind: 'ec' },
  ES512: { hash: 'sha512', kind: 'ec' },
};

function unauthorized(reason: string): HttpError {
  return new HttpError(401, `Unauthorized: ${reason}`);
}

function decodePart(part: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw unauthorized(`the token's ${what} is not JSON`);
}

async function fetchKeys(jwksUri: string, refresh: boolean): Promise<Jwk[]> {
  const cached = cache.get(jwksUri);
  if (cached && !refresh && Date.now() - cached.at < JWKS_CACHE_MS) return cached.keys;
  let body: { keys?: unknown };
  try {
    const response = await fetch(jwksUri, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    body = (await response.json()) as { keys?: unknown };
  } catch (error) {
    // The webhook's caller cannot fix our JWKS: a 502 says the fault is upstream.
    throw new HttpError(502, `the JWKS of this webhook could not be read: ${(error as Error).message}`);
  }
  const keys = Array.isArray(body.keys) ? (body.keys as Jwk[]) : [];
  cache.set(jwksUri, { at: Date.now(), keys });
  return keys;
}

/**
 * Verifies `Authorization: Bearer <JWT>` against the keys of `jwksUri` (the ecosystem's
 * `authentication.jwt.jwksUri`): an RS*, PS* or ES* signature by the key named by `kid` (or the
 * only key), and `exp`/`nbf` when present. Throws a 401 saying what is wrong; answers the claims.
 */
export async function verifyWebhookJwt(
  authorization: string | undefined,
  jwksUri: string,
): Promise<Record<string, unknown>> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) throw unauthorized('a Bearer token is required');
  const parts = match[1].split('.');
  if (parts.length !== 3) throw unauthorized('the token is not a JWT');
  const header = decodePart(parts[0], 'header');
  const claims = decodePart(parts[1], 'payload');
  const algorithm = ALGORITHMS[String(header.alg)];
  if (!algorithm) throw unauthorized(`the algorithm ${String(header.alg)} is not accepted`);
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const pick = (keys: Jwk[]) =>
    kid ? keys.find((key) => key.kid === kid) : keys.length === 1 ? keys[0] : undefined;
  let jwk = pick(await fetchKeys(jwksUri, false));
  // An unknown kid may be a key rotated in since the cache was filled.
  if (!jwk && kid) jwk = pick(await fetchKeys(jwksUri, true));
  if (!jwk) throw unauthorized(kid ? `no key ${kid} in the JWKS` : 'the token names no key');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw unauthorized('the JWKS key cannot be used');
  }
  const data = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2], 'base64url');
  let valid = false;
  try {
    valid = verify(
      algorithm.hash,
      data,
      algorithm.kind === 'pss'
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
        : algorithm.kind === 'ec'
          ? { key, dsaEncoding: 'ieee-p1363' }
          : key,
      signature,
    );
  } catch {
    valid = false;
  }
  if (!valid) throw unauthorized('the token signature is not valid');
  const now = Date.now() / 1000;
  if (typeof claims.exp === 'number' && now > claims.exp + LEEWAY_SECONDS)
    throw unauthorized('the token has expired');
  if (typeof claims.nbf === 'number' && now < claims.nbf - LEEWAY_SECONDS)
    throw unauthorized('the token is not valid yet');
  return claims;
}
