import { useQuery } from '@tanstack/react-query';
import { UserMinus, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Avatar } from '../../../components/avatar/avatar';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { Modal } from '../../../components/modal/modal';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import {
  peopleQueryOptions,
  useAddTeamMembers,
  useRemoveTeamMember,
  useTeamMembers,
  type MemberPerson,
} from '../api/teams';

/** Settings §2.4 "Teams Members tab" texts. */
export const MEMBERS_TEXT = {
  empty: 'Add team members',
  add: 'Add Members',
  modal: 'Add users to the team',
  remove: 'Remove user',
} as const;

/** The Members tab of a saved team: the members, 'Add Members' and a 'Remove user' per member. */
export function TeamMembers({ teamId, canWrite }: { teamId: string; canWrite: boolean }) {
  const members = useTeamMembers(teamId);
  const remove = useRemoveTeamMember(teamId);
  const [adding, setAdding] = useState(false);
  if (members.isError && !members.data) throw members.error;

  async function removeMember(member: MemberPerson) {
    try {
      await remove.mutateAsync(member.id);
      showSuccessToast(`${member.name} removed from team successfully`);
    } catch (error) {
      showErrorToast(error);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {canWrite && (
        <div className="flex justify-end">
          <Button variant="primary" onClick={() => setAdding(true)}>
            <UserPlus className="size-4" aria-hidden />
            {MEMBERS_TEXT.add}
          </Button>
        </div>
      )}
      {members.isPending ? (
        <Skeleton className="h-24" />
      ) : members.data.length === 0 ? (
        <EmptyState message={MEMBERS_TEXT.empty} />
      ) : (
        <ul aria-label="Team members" className="divide-y divide-gray-100 rounded border border-gray-200">
          {members.data.map((member) => (
            <li key={member.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <Avatar name={member.name} src={member.avatar ?? undefined} />
              <span className="font-medium text-gray-900">{member.name}</span>
              <span className="text-gray-500">{member.email}</span>
              {canWrite && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="ml-auto"
                  aria-label={`${MEMBERS_TEXT.remove} ${member.name}`}
                  disabled={remove.isPending}
                  onClick={() => void removeMember(member)}
                >
                  <UserMinus className="size-4" aria-hidden />
                  {MEMBERS_TEXT.remove}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {adding && (
        <AddMembersModal
          teamId={teamId}
          memberIds={(members.data ?? []).map((member) => member.id)}
          onClose={() => setAdding(false)}
        />
      )}
    </div>
  );
}

/** 'Add users to the team': a multi-select of the users who are not members yet, and Add. */
function AddMembersModal({
  teamId,
  memberIds,
  onClose,
}: {
  teamId: string;
  memberIds: string[];
  onClose(): void;
}) {
  const people = useQuery(peopleQueryOptions());
  const add = useAddTeamMembers(teamId);
  const [chosen, setChosen] = useState<string[]>([]);
  const offered = useMemo(
    () => (people.data ?? []).filter((person) => !memberIds.includes(person.id)),
    [people.data, memberIds],
  );

  async function submit() {
    const names = offered.filter((person) => chosen.includes(person.id)).map((person) => person.name);
    try {
      await add.mutateAsync(chosen);
      showSuccessToast(`${names.join(', ')} added to the team successfully`);
      onClose();
    } catch (error) {
      showErrorToast(error);
    }
  }

  return (
    <Modal open onClose={onClose} title={MEMBERS_TEXT.modal} size="small" enlargeable={false}>
      <div className="flex flex-col gap-3 text-sm">
        {people.isPending ? (
          <Skeleton className="h-24" />
        ) : offered.length === 0 ? (
          <p className="text-gray-600">Every user is already a member.</p>
        ) : (
          <fieldset className="flex max-h-72 flex-col gap-1 overflow-y-auto">
            <legend className="mb-1 font-medium text-gray-700">Users</legend>
            {offered.map((person) => (
              <label key={person.id} className="inline-flex items-center gap-2 text-gray-700">
                <input
                  type="checkbox"
                  checked={chosen.includes(person.id)}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked
                        ? [...current, person.id]
                        : current.filter((id) => id !== person.id),
                    )
                  }
                />
                {person.name}
                <span className="text-gray-500">{person.email}</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={chosen.length === 0 || add.isPending}
            onClick={() => void submit()}
          >
            Add
          </Button>
        </div>
      </div>
    </Modal>
  );
}
