import { isRole, type Role } from '@opsdeck/contracts';
import type { PoolClient } from '../../platform/db/pool.js';
import { hashPassword } from './password.js';

/** A pool or a client inside a transaction: every store call accepts either. */
export interface Queryable {
  query: PoolClient['query'];
}

export interface PersonRow {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

export interface IdentityTraits {
  email: string;
  name: { first: string; last: string };
}

/** The identity as the screens see it (Kratos-like). */
export interface IdentityView {
  id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  traits: IdentityTraits;
  verifiable_addresses: {
    value: string;
    via: 'email';
    verified: boolean;
    verified_at: string | null;
    status: string;
  }[];
  roles: Role[];
  created_at: string;
  updated_at: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** One check of an email address for the server and the web app: the contracts'. */
export { isEmailAddress } from '@opsdeck/contracts';

export function displayName(traits: Pick<IdentityTraits, 'name'>, email: string): string {
  const name = `${traits.name.first} ${traits.name.last}`.trim();
  return name || email;
}

export async function findActivePersonByEmail(db: Queryable, email: string): Promise<PersonRow | undefined> {
  const { rows } = await db.query<PersonRow>(
    `SELECT id, name, email, avatar FROM people
      WHERE lower(email) = $1 AND deleted_at IS NULL AND (type IS NULL OR type = '')`,
    [normaliseEmail(email)],
  );
  return rows[0];
}

export async function findActivePerson(db: Queryable, id: string): Promise<PersonRow | undefined> {
  const { rows } = await db.query<PersonRow>(
    `SELECT id, name, email, avatar FROM people WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0];
}

export interface NewIdentity {
  email: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  /** The address is already proven (invite accepted later, a provider vouched for it). */
  verified: boolean;
  password?: string;
}

/** Creates the person, the identity record, the address and the roles in one transaction. */
export async function createIdentity(client: PoolClient, identity: NewIdentity): Promise<PersonRow> {
  const email = normaliseEmail(identity.email);
  const traits: IdentityTraits = {
    email,
    name: { first: identity.firstName.trim(), last: identity.lastName.trim() },
  };
  const { rows } = await client.query<PersonRow>(
    `INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id, name, email, avatar`,
    [displayName(traits, email), email],
  );
  const person = rows[0] as PersonRow;
  await client.query(`INSERT INTO identities (id, traits) VALUES ($1, $2)`, [
    person.id,
    JSON.stringify(traits),
  ]);
  await client.query(
    `INSERT INTO auth_verifiable_addresses (person_id, value, verified, verified_at)
     VALUES ($1, $2, $3, CASE WHEN $3 THEN now() END)`,
    [person.id, email, identity.verified],
  );
  for (const role of identity.roles) {
    await client.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      person.id,
      role,
    ]);
  }
  if (identity.password !== undefined) await setPassword(client, person.id, identity.password);
  return person;
}

export async function setPassword(db: Queryable, personId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.query(
    `INSERT INTO identity_credentials (person_id, password_hash) VALUES ($1, $2)
     ON CONFLICT (person_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`,
    [personId, hash],
  );
}

export async function getPasswordHash(db: Queryable, personId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ password_hash: string }>(
    `SELECT password_hash FROM identity_credentials WHERE person_id = $1`,
    [personId],
  );
  return rows[0]?.password_hash;
}

export async function getRoles(db: Queryable, personId: string): Promise<Role[]> {
  const { rows } = await db.query<{ role: string }>(
    `SELECT role FROM person_roles WHERE person_id = $1 ORDER BY role`,
    [personId],
  );
  return rows.map((row) => row.role).filter(isRole);
}

/** Replaces a person's roles; their sessions swap cookies on their next request. */
export async function setRoles(client: PoolClient, personId: string, roles: readonly Role[]): Promise<void> {
  await client.query(`DELETE FROM person_roles WHERE person_id = $1 AND NOT (role = ANY($2::text[]))`, [
    personId,
    roles,
  ]);
  for (const role of roles) {
    await client.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      personId,
      role,
    ]);
  }
  await client.query(
    `UPDATE auth_sessions SET rotate_required = true WHERE person_id = $1 AND revoked_at IS NULL`,
    [personId],
  );
}

export async function markAddressVerified(db: Queryable, personId: string, address: string): Promise<void> {
  await db.query(
    `INSERT INTO auth_verifiable_addresses (person_id, value, verified, verified_at) VALUES ($1, $2, true, now())
     ON CONFLICT (person_id) DO UPDATE
       SET verified = (auth_verifiable_addresses.value = EXCLUDED.value) OR auth_verifiable_addresses.verified,
           verified_at = CASE WHEN auth_verifiable_addresses.value = EXCLUDED.value THEN now()
                              ELSE auth_verifiable_addresses.verified_at END`,
    [personId, normaliseEmail(address)],
  );
}

export async function getIdentityView(db: Queryable, personId: string): Promise<IdentityView | undefined> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    email: string | null;
    schema_id: string | null;
    state: 'active' | 'inactive' | null;
    traits: Partial<IdentityTraits> | null;
    address: string | null;
    verified: boolean | null;
    verified_at: Date | null;
    roles: string[];
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT p.id, p.name, p.email, i.schema_id, i.state, i.traits, a.value AS address, a.verified, a.verified_at,
            ARRAY(SELECT r.role FROM person_roles r WHERE r.person_id = p.id ORDER BY r.role) AS roles,
            coalesce(i.created_at, p.created_at) AS created_at, coalesce(i.updated_at, p.updated_at) AS updated_at
       FROM people p
       LEFT JOIN identities i ON i.id = p.id
       LEFT JOIN auth_verifiable_addresses a ON a.person_id = p.id
      WHERE p.id = $1 AND p.deleted_at IS NULL`,
    [personId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const email = row.traits?.email ?? row.email ?? '';
  const [first, ...rest] = row.name.split(' ');
  const traits: IdentityTraits = {
    email,
    name: { first: row.traits?.name?.first ?? first ?? '', last: row.traits?.name?.last ?? rest.join(' ') },
  };
  return {
    id: row.id,
    schema_id: row.schema_id ?? 'default',
    state: row.state ?? 'active',
    traits,
    verifiable_addresses: row.address
      ? [
          {
            value: row.address,
            via: 'email',
            verified: Boolean(row.verified),
            verified_at: row.verified_at?.toISOString() ?? null,
            status: row.verified ? 'completed' : 'pending',
          },
        ]
      : [],
    roles: row.roles.filter(isRole),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Updates the traits and the person's name and email together. */
export async function updateTraits(
  client: PoolClient,
  personId: string,
  traits: IdentityTraits,
): Promise<void> {
  const email = normaliseEmail(traits.email);
  await client.query(`UPDATE people SET name = $2, email = $3 WHERE id = $1`, [
    personId,
    displayName(traits, email),
    email,
  ]);
  await client.query(
    `INSERT INTO identities (id, traits) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET traits = EXCLUDED.traits`,
    [personId, JSON.stringify({ ...traits, email })],
  );
  await client.query(
    `INSERT INTO auth_verifiable_addresses (person_id, value) VALUES ($1, $2)
     ON CONFLICT (person_id) DO UPDATE
       SET value = EXCLUDED.value,
           verified = auth_verifiable_addresses.verified AND auth_verifiable_addresses.value = EXCLUDED.value,
           verified_at = CASE WHEN auth_verifiable_addresses.value = EXCLUDED.value
                              THEN auth_verifiable_addresses.verified_at END`,
    [personId, email],
  );
}
