import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { AuthConfig } from './auth-config.js';
import type { Queryable } from './identity-store.js';

/** Passkeys and security keys: registered in settings, used to sign in or as a second factor. */

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const registrationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url.min(1),
    attestationObject: base64url.min(1),
    transports: z.array(z.string()).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

const authenticationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url.min(1),
    authenticatorData: base64url.min(1),
    signature: base64url.min(1),
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** A submitted credential arrives as a JSON string (a form value) or as an object. */
function parseJsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

export function parseRegistrationResponse(value: unknown): RegistrationResponseJSON | undefined {
  const parsed = registrationResponseSchema.safeParse(parseJsonValue(value));
  return parsed.success ? (parsed.data as RegistrationResponseJSON) : undefined;
}

export function parseAuthenticationResponse(value: unknown): AuthenticationResponseJSON | undefined {
  const parsed = authenticationResponseSchema.safeParse(parseJsonValue(value));
  return parsed.success ? (parsed.data as AuthenticationResponseJSON) : undefined;
}

export interface StoredCredential {
  id: string;
  displayName: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function listCredentials(db: Queryable, personId: string): Promise<StoredCredential[]> {
  const { rows } = await db.query<{
    id: string;
    display_name: string;
    created_at: Date;
    last_used_at: Date | null;
  }>(
    `SELECT id, display_name, created_at, last_used_at FROM auth_webauthn_credentials
      WHERE person_id = $1 ORDER BY created_at`,
    [personId],
  );
  return rows.map((row) => ({
    id: row.id,
    displayName: row.display_name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  }));
}

export async function registrationOptions(
  db: Queryable,
  config: AuthConfig,
  person: { id: string; name: string; email: string | null },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listCredentials(db, person.id);
  return generateRegistrationOptions({
    rpName: config.webauthn.rpName,
    rpID: config.webauthn.rpId,
    userName: person.email ?? person.name,
    userDisplayName: person.name,
    userID: new TextEncoder().encode(person.id),
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Verifies an attestation against the challenge of the flow and stores the new credential. */
export async function registerCredential(
  db: Queryable,
  config: AuthConfig,
  personId: string,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  displayName: string,
): Promise<boolean> {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: config.webauthn.origins,
      expectedRPID: config.webauthn.rpId,
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!verification.verified) return false;
  const info = verification.registrationInfo;
  const { rowCount } = await db.query(
    `INSERT INTO auth_webauthn_credentials (id, person_id, public_key, counter, transports, display_name, device_type, backed_up)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
    [
      info.credential.id,
      personId,
      Buffer.from(info.credential.publicKey),
      info.credential.counter,
      info.credential.transports ?? response.response.transports ?? [],
      displayName,
      info.credentialDeviceType,
      info.credentialBackedUp,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function removeCredential(
  db: Queryable,
  personId: string,
  credentialId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM auth_webauthn_credentials WHERE person_id = $1 AND id = $2`,
    [personId, credentialId],
  );
  return (rowCount ?? 0) > 0;
}

/** Options for navigator.credentials.get: any passkey (sign-in) or one person's keys (second factor). */
export async function authenticationOptions(
  db: Queryable,
  config: AuthConfig,
  personId?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowCredentials = personId
    ? (await listCredentials(db, personId)).map((credential) => ({ id: credential.id }))
    : [];
  return generateAuthenticationOptions({
    rpID: config.webauthn.rpId,
    userVerification: 'preferred',
    allowCredentials,
  });
}

/**
 * Verifies an assertion; returns the person it proves (and whether the user was verified), or
 * undefined. With `personId` only that person's credentials are accepted.
 */
export async function verifyAssertion(
  db: Queryable,
  config: AuthConfig,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  personId?: string,
): Promise<{ personId: string; userVerified: boolean } | undefined> {
  const { rows } = await db.query<{
    id: string;
    person_id: string;
    public_key: Buffer;
    counter: number;
    transports: string[];
  }>(
    `SELECT c.id, c.person_id, c.public_key, c.counter, c.transports
       FROM auth_webauthn_credentials c JOIN people p ON p.id = c.person_id AND p.deleted_at IS NULL
      WHERE c.id = $1`,
    [response.id],
  );
  const stored = rows[0];
  if (!stored || (personId && stored.person_id !== personId)) return undefined;
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: config.webauthn.origins,
      expectedRPID: config.webauthn.rpId,
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(stored.public_key),
        counter: Number(stored.counter),
        transports: stored.transports,
      },
      requireUserVerification: false,
    });
  } catch {
    return undefined;
  }
  if (!verification.verified) return undefined;
  // A counter that does not grow (when the authenticator keeps one) means a cloned key: the
  // library refuses it above; store the new value so the next use is checked against it.
  const { rowCount } = await db.query(
    `UPDATE auth_webauthn_credentials SET counter = $2, last_used_at = now()
      WHERE id = $1 AND (counter = 0 OR counter < $2 OR $2 = 0)`,
    [stored.id, verification.authenticationInfo.newCounter],
  );
  if ((rowCount ?? 0) === 0) return undefined;
  return { personId: stored.person_id, userVerified: verification.authenticationInfo.userVerified };
}
