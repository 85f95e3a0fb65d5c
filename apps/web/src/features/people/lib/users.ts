import type { IdentityRow, Role, UserStatus } from '@opsdeck/contracts';

/** A row of the users page (`/settings/users`): the identity, the person and their roles. */
export interface UserRow {
  id: string;
  name: string;
  email: string;
  roles: Role[];
  lastLogin: string | null;
  status: UserStatus;
}

/** A person who never signed in is still an invitation; a deleted one keeps their row, deactivated. */
export function userStatus(state: IdentityRow['state'], lastLogin: string | null): UserStatus {
  if (state === 'inactive') return 'Deactivated';
  return lastLogin ? 'Active' : 'Invited';
}

/** The identity's name traits, else its address: the name the list shows. */
export function identityName(identity: Pick<IdentityRow, 'traits'>): string {
  const name = [identity.traits.name?.first, identity.traits.name?.last].filter(Boolean).join(' ').trim();
  return name || identity.traits.email || '';
}

export function joinUsers(
  identities: readonly IdentityRow[],
  people: ReadonlyMap<string, { name: string; email: string | null; last_login: string | null }>,
  roles: ReadonlyMap<string, Role[]>,
): UserRow[] {
  return identities
    .map((identity) => {
      const person = people.get(identity.id);
      const lastLogin = person?.last_login ?? null;
      return {
        id: identity.id,
        name: person?.name || identityName(identity),
        email: identity.traits.email ?? person?.email ?? '',
        roles: roles.get(identity.id) ?? [],
        lastLogin,
        status: userStatus(identity.state, lastLogin),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** Splits ids for `id=in.(...)` so a long list never makes a URL too long. */
export function chunks<T>(items: readonly T[], size = 100): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
