import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useCan } from '../../../lib/permissions';
import { TEAMS_PATH, teamsQueryOptions } from '../api/teams';

/** Spec core §2: the settings list's empty state. */
export const NO_RESOURCES_MESSAGE = 'No resources found';

/** /settings/teams: the teams, newest first, at most 100 (spec core §9). */
export function TeamsPage() {
  const teams = useQuery(teamsQueryOptions());
  const canWrite = useCan('database', 'write');
  if (teams.isError && !teams.data) throw teams.error;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <p className="text-sm text-gray-600">
          Teams own components and checks, respond to incidents and receive permissions.
        </p>
        {canWrite && (
          <Link
            to={`${TEAMS_PATH}/new`}
            className={buttonClasses({ variant: 'primary', className: 'ml-auto' })}
          >
            Add Team
          </Link>
        )}
      </div>
      {teams.isPending ? (
        <Skeleton className="h-32" />
      ) : teams.data.length === 0 ? (
        <EmptyState message={NO_RESOURCES_MESSAGE} />
      ) : (
        <table aria-label="Teams" className="w-full text-left text-sm">
          <thead className="text-xs text-gray-600 uppercase">
            <tr>
              <th className="py-1 pr-3">Name</th>
              <th className="py-1 pr-3">Source</th>
              <th className="py-1 pr-3">Created</th>
              <th className="py-1">Updated</th>
            </tr>
          </thead>
          <tbody>
            {teams.data.map((team) => (
              <tr key={team.id} className="border-t border-gray-100">
                <td className="py-1.5 pr-3">
                  <Link
                    to={`${TEAMS_PATH}/${team.id}`}
                    className="inline-flex items-center gap-1.5 text-blue-700 hover:underline"
                  >
                    <ResourceIcon icon={team.icon ?? 'group'} className="size-4" />
                    {team.name}
                  </Link>
                </td>
                <td className="py-1.5 pr-3">{team.source}</td>
                <td className="py-1.5 pr-3">
                  <FormattedDate value={team.created_at} />
                </td>
                <td className="py-1.5">
                  <FormattedDate value={team.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
