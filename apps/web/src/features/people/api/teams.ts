import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { relationRowSchemas, type RelationRow } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';
import { fetchEveryRow, fetchRows, insertRow, updateRow } from '../../../lib/data-api';

/**
 * Teams on the shared resource editor (settings §2.4, §7): the `teams` rows and their members
 * through the data API (`/api/db/teams`, `/api/db/team_members`), all parsed with the row contracts.
 */

export type TeamRow = RelationRow<'teams'>;
export const TEAMS_PATH = '/settings/teams';
const TEAMS_KEY = ['people', 'teams'] as const;
const TEAM_COLUMNS =
  'id,name,namespace,icon,labels,spec,source,agent_id,created_by,created_at,updated_at,deleted_at';

export const teamsQueryOptions = () =>
  queryOptions({
    queryKey: TEAMS_KEY,
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/teams?select=${TEAM_COLUMNS}&deleted_at=is.null&order=created_at.desc&limit=100`,
        signal,
        relationRowSchemas.teams,
      ),
  });

export function useTeam(id: string | undefined) {
  return useQuery({
    queryKey: [...TEAMS_KEY, id],
    enabled: id !== undefined,
    queryFn: async ({ signal }) => {
      const rows = await fetchRows(
        `/api/db/teams?select=${TEAM_COLUMNS}&id=eq.${encodeURIComponent(id ?? '')}&deleted_at=is.null`,
        signal,
        relationRowSchemas.teams,
      );
      return rows[0] ?? null;
    },
  });
}

export interface TeamInput {
  name: string;
  icon: string;
  spec: Record<string, unknown>;
}

export function useSaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string; input: TeamInput }) => {
      if (id) await updateRow('teams', id, { icon: input.icon, spec: input.spec });
      else await insertRow('teams', { ...input }, relationRowSchemas.teams);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
  });
}

/** Spec core §4: a settings resource is deleted by setting deleted_at to now. */
export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => updateRow('teams', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
  });
}

/** A person as the Members tab shows them (settings §3 "Team member (user)"). */
export const memberPersonSchema = relationRowSchemas.people.pick({
  id: true,
  name: true,
  email: true,
  avatar: true,
});
export type MemberPerson = Pick<RelationRow<'people'>, 'id' | 'name' | 'email' | 'avatar'>;

/** GET /people: every user that can be added (email set, not deleted, ordered by name). */
export const peopleQueryOptions = () =>
  queryOptions({
    queryKey: ['people', 'all'],
    queryFn: ({ signal }) =>
      fetchEveryRow(
        '/api/db/people?select=id,name,email,avatar&email=not.is.null&deleted_at=is.null&order=name,id',
        signal,
        memberPersonSchema,
      ),
  });

const membersKey = (teamId: string) => ['people', 'team-members', teamId] as const;

/** GET /team_members by team id, joined with the people they name. */
export function useTeamMembers(teamId: string) {
  return useQuery({
    queryKey: membersKey(teamId),
    queryFn: async ({ signal }): Promise<MemberPerson[]> => {
      const links = await fetchRows(
        `/api/db/team_members?select=team_id,person_id,source,created_at&team_id=eq.${encodeURIComponent(teamId)}`,
        signal,
        relationRowSchemas.team_members,
      );
      if (links.length === 0) return [];
      const people = await fetchEveryRow(
        `/api/db/people?select=id,name,email,avatar&id=in.(${links.map((link) => link.person_id).join(',')})&order=name,id`,
        signal,
        memberPersonSchema,
      );
      return people;
    },
  });
}

/** POST /team_members with the team id and the chosen users; the list is fetched again. */
export function useAddTeamMembers(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personIds: string[]) =>
      apiFetch('/api/db/team_members', {
        method: 'POST',
        body: JSON.stringify(personIds.map((person_id) => ({ team_id: teamId, person_id }))),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(teamId) }),
  });
}

/** DELETE /team_members for one member; the list is fetched again. */
export function useRemoveTeamMember(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personId: string) =>
      apiFetch(
        `/api/db/team_members?team_id=eq.${encodeURIComponent(teamId)}&person_id=eq.${encodeURIComponent(personId)}`,
        { method: 'DELETE' },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(teamId) }),
  });
}
