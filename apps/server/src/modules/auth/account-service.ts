import type { InviteUser, PersonUpdate, PersonView, Role } from '@opsdeck/contracts';
import { withTransaction, type Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { ADMIN_ROLES_LOCK_KEY } from './bootstrap.js';
import type { FlowDeps } from './flows/flow-context.js';
import { createInviteLink } from './flows/recovery-verification-flows.js';
import {
  createIdentity,
  findActivePerson,
  findActivePersonByEmail,
  getIdentityView,
  getRoles,
  setRoles,
  updateTraits,
  type IdentityTraits,
  type Queryable,
} from './identity-store.js';
import { revokeOtherSessions } from './session-store.js';

/**
 * People administration behind /api/auth/invite_user, /api/people/* and role assignment. The
 * requests are validated by the routes' contract schemas (`@opsdeck/contracts`, auth.ts) before
 * these run.
 */

export async function invitePerson(
  deps: FlowDeps,
  input: InviteUser,
  invitedBy: { name: string },
): Promise<{ link: string; emailed: boolean }> {
  if (await findActivePersonByEmail(deps.pool, input.email)) {
    throw new HttpError(400, 'A person with this email address already exists', 'email');
  }
  let person;
  try {
    person = await withTransaction(deps.pool, (client) =>
      createIdentity(client, {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        roles: [input.role],
        verified: false,
      }),
    );
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new HttpError(400, 'A person with this email address already exists', 'email');
    }
    throw error;
  }
  const email = person.email as string;
  const { link, expiresAt } = await createInviteLink(deps, { id: person.id, email });
  if (deps.mailer.configured) {
    await deps.mailer.send({
      to: email,
      subject: 'You have been invited to Opsdeck',
      text:
        `${invitedBy.name} invited you to Opsdeck.\n\nOpen this link to choose your password and sign in:\n${link}\n\n` +
        `The link works once and expires at ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.\n`,
    });
  }
  return { link, emailed: deps.mailer.configured };
}

async function adminCount(db: Queryable, excluding: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM person_roles r JOIN people p ON p.id = r.person_id
      WHERE r.role = 'admin' AND p.deleted_at IS NULL AND p.id <> $1`,
    [excluding],
  );
  return rows[0]?.count ?? 0;
}

/** Replaces a person's roles; the last admin keeps theirs. */
export async function assignRoles(pool: Pool, personId: string, roles: readonly Role[]): Promise<Role[]> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_ROLES_LOCK_KEY]);
    if (!(await findActivePerson(client, personId))) throw new HttpError(404, 'Person not found');
    const current = await getRoles(client, personId);
    if (current.includes('admin') && !roles.includes('admin') && (await adminCount(client, personId)) === 0) {
      throw new HttpError(400, 'At least one admin must remain', 'roles');
    }
    const unique = [...new Set(roles)];
    await setRoles(client, personId, unique);
    return getRoles(client, personId);
  });
}

export async function personView(db: Queryable, personId: string): Promise<PersonView> {
  const person = await findActivePerson(db, personId);
  if (!person) throw new HttpError(404, 'Person not found');
  return { ...person, roles: await getRoles(db, personId) };
}

/** Edits a person's name, email and avatar (identity traits follow). */
export async function updatePerson(pool: Pool, update: PersonUpdate): Promise<void> {
  await withTransaction(pool, async (client) => {
    const person = await findActivePerson(client, update.id);
    if (!person) throw new HttpError(404, 'Person not found');
    if (update.email) {
      const owner = await findActivePersonByEmail(client, update.email);
      if (owner && owner.id !== update.id)
        throw new HttpError(400, 'A person with this email address already exists', 'email');
    }
    const identity = await getIdentityView(client, update.id);
    const [first, ...rest] = (update.name ?? person.name).split(' ');
    const traits: IdentityTraits = {
      email: update.email ?? identity?.traits.email ?? person.email ?? '',
      name: {
        first:
          update.firstName ??
          (update.name !== undefined ? (first ?? '') : (identity?.traits.name.first ?? '')),
        last:
          update.lastName ??
          (update.name !== undefined ? rest.join(' ') : (identity?.traits.name.last ?? '')),
      },
    };
    if (traits.email) await updateTraits(client, update.id, traits);
    if (update.name !== undefined)
      await client.query(`UPDATE people SET name = $2 WHERE id = $1`, [update.id, update.name]);
    if (update.avatar !== undefined)
      await client.query(`UPDATE people SET avatar = $2 WHERE id = $1`, [update.id, update.avatar]);
  });
}

/** Soft-deletes a person: sessions end, tokens go, the identity becomes inactive. */
export async function deletePerson(pool: Pool, personId: string, actorId: string): Promise<void> {
  if (personId === actorId) throw new HttpError(400, 'You cannot delete your own account', 'id');
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_ROLES_LOCK_KEY]);
    if (!(await findActivePerson(client, personId))) throw new HttpError(404, 'Person not found');
    const roles = await getRoles(client, personId);
    if (roles.includes('admin') && (await adminCount(client, personId)) === 0) {
      throw new HttpError(400, 'At least one admin must remain', 'id');
    }
    await client.query(`UPDATE people SET deleted_at = now() WHERE id = $1`, [personId]);
    await client.query(`UPDATE identities SET state = 'inactive' WHERE id = $1`, [personId]);
    await client.query(`DELETE FROM access_tokens WHERE person_id = $1`, [personId]);
    await revokeOtherSessions(client, personId);
  });
}
