import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { useApplicationList } from '../api/applications';

export const applicationPath = (namespace: string, name: string) =>
  `/applications/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;

/** /applications (core §2): every application with its health and what it holds. */
export function ApplicationsPage() {
  const list = useApplicationList();
  if (list.isPending) return <PageSkeleton label="Loading applications" />;
  if (list.isError) throw list.error;
  if (list.data.length === 0)
    return (
      <EmptyState message="No applications yet: apply an Application resource (mission-control.flanksource.com/v1)" />
    );
  return (
    <section aria-label="Applications">
      <table aria-label="Applications" className="w-full border-collapse text-sm">
        <thead className="bg-gray-50 text-left text-xs text-gray-600">
          <tr>
            <th className="px-3 py-2">Name</th>
            <th className="px-3 py-2">Namespace</th>
            <th className="px-3 py-2">Health</th>
            <th className="px-3 py-2">Config items</th>
            <th className="px-3 py-2">Components</th>
            <th className="px-3 py-2">Checks</th>
            <th className="px-3 py-2">Open incidents</th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((application) => (
            <tr key={application.id} className="border-t border-gray-100">
              <td className="px-3 py-2">
                <Link
                  to={applicationPath(application.namespace, application.name)}
                  className="text-blue-700 hover:underline"
                >
                  {application.name}
                </Link>
                {application.description && (
                  <p className="text-xs text-gray-500">{application.description}</p>
                )}
              </td>
              <td className="px-3 py-2">{application.namespace}</td>
              <td className="px-3 py-2">
                <span className="flex items-center gap-2">
                  <StatusDot status={application.health} label={application.health} />
                  {application.health}
                </span>
              </td>
              <td className="px-3 py-2">{application.configs}</td>
              <td className="px-3 py-2">{application.components}</td>
              <td className="px-3 py-2">{application.checks}</td>
              <td className="px-3 py-2">{application.incidents}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
