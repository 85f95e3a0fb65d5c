/**
 * Tokens a signed-in person gets handed by other modules (the kubeconfig download): the same
 * access tokens as 'Create new token', listed among the person's tokens and revocable there.
 */
import type { FastifyRequest } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { createAccessToken } from './access-tokens.js';

/**
 * A new token with the caller's own rights (no scopes, no expiry). Only a browser session may
 * get one, as with 'Create new token': a token does not mint tokens.
 */
export async function issueTokenForCaller(
  pool: Pool,
  request: FastifyRequest,
  name: string,
): Promise<string> {
  const auth = request.auth;
  if (!auth) throw new HttpError(401, 'Unauthorized');
  if (auth.via !== 'session')
    throw new HttpError(403, 'Sign in to download a kubeconfig: a token cannot create tokens');
  const { token } = await createAccessToken(pool, {
    name,
    personId: auth.person.id,
    createdBy: auth.person.id,
    expiresAt: null,
    scopes: [],
  });
  return token;
}
