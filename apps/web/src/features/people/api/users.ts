import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deletePersonResponseSchema,
  inviteUserResponseSchema,
  personViewSchema,
  relationRowSchemas,
  type InviteUserRequest,
  type InviteUserResponse,
  type Role,
} from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';
import { fetchEveryRow, fetchRows } from '../../../lib/data-api';
import { chunks, joinUsers, type UserRow } from '../lib/users';

/**
 * The users page's calls (spec core §7): GET /identities, then GET /people_roles?id=in.(...) for
 * the roles (and the people rows for the last sign-in); POST /auth/invite_user; POST
 * /people/update; DELETE /people/{id}. Every answer is parsed with its contract.
 */

export const USERS_QUERY_KEY = ['people', 'users'] as const;

const personColumns = relationRowSchemas.people.pick({ id: true, name: true, email: true, last_login: true });

export async function fetchUsers(signal: AbortSignal): Promise<UserRow[]> {
  const identities = await fetchEveryRow(
    '/api/db/identities?select=id,schema_id,traits,state,created_at,updated_at&order=created_at.desc,id',
    signal,
    relationRowSchemas.identities,
  );
  const people = new Map<string, { name: string; email: string | null; last_login: string | null }>();
  const roles = new Map<string, Role[]>();
  for (const ids of chunks(identities.map((identity) => identity.id))) {
    const list = ids.join(',');
    const [personRows, roleRows] = await Promise.all([
      fetchRows(`/api/db/people?select=id,name,email,last_login&id=in.(${list})`, signal, personColumns),
      fetchRows(`/api/db/people_roles?id=in.(${list})`, signal, relationRowSchemas.people_roles),
    ]);
    for (const person of personRows) people.set(person.id, person);
    for (const row of roleRows) roles.set(row.id, row.roles);
  }
  return joinUsers(identities, people, roles);
}

export const usersQueryOptions = () =>
  queryOptions({ queryKey: USERS_QUERY_KEY, queryFn: ({ signal }) => fetchUsers(signal) });

function useRefreshingMutation<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
  });
}

export function useInviteUser() {
  return useRefreshingMutation((request: InviteUserRequest): Promise<InviteUserResponse> =>
    apiFetch(
      '/api/auth/invite_user',
      { method: 'POST', body: JSON.stringify(request) },
      { schema: inviteUserResponseSchema },
    ),
  );
}

export function useUpdateRoles() {
  return useRefreshingMutation(({ id, roles }: { id: string; roles: Role[] }) =>
    apiFetch(
      '/api/people/update',
      { method: 'POST', body: JSON.stringify({ id, roles }) },
      { schema: personViewSchema },
    ),
  );
}

export function useDeleteUser() {
  return useRefreshingMutation((id: string) =>
    apiFetch(
      `/api/people/${encodeURIComponent(id)}`,
      { method: 'DELETE' },
      { schema: deletePersonResponseSchema },
    ),
  );
}
