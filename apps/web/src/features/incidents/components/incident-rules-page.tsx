import { Link } from 'react-router';
import { buttonClasses } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useCan } from '../../../lib/permissions';
import { useIncidentRules } from '../api/incident-rules';

export const INCIDENT_RULES_PATH = '/settings/incident_rules';
/** Spec core §2: the generic settings list's empty state. */
export const NO_RESOURCES_MESSAGE = 'No resources found';

/** /settings/incident_rules: the incident rules (settings §2.4), newest first, at most 100. */
export function IncidentRulesPage() {
  const rules = useIncidentRules();
  const canWrite = useCan('database', 'write');
  if (rules.isError && !rules.data) throw rules.error;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-lg font-semibold">Incident Rules</h1>
        {canWrite && (
          <Link
            to={`${INCIDENT_RULES_PATH}/new`}
            className={buttonClasses({ variant: 'primary', className: 'ml-auto' })}
          >
            Add Rule
          </Link>
        )}
      </div>
      {rules.isPending ? (
        <Skeleton className="h-32" />
      ) : rules.data.length === 0 ? (
        <EmptyState message={NO_RESOURCES_MESSAGE} />
      ) : (
        <table aria-label="Incident rules" className="w-full text-left text-sm">
          <thead className="text-xs text-gray-600 uppercase">
            <tr>
              <th className="py-1 pr-3">Name</th>
              <th className="py-1 pr-3">Namespace</th>
              <th className="py-1 pr-3">Priority</th>
              <th className="py-1 pr-3">Source</th>
              <th className="py-1 pr-3">Created</th>
              <th className="py-1">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rules.data.map((rule) => (
              <tr key={rule.id} className="border-t border-gray-100">
                <td className="py-1.5 pr-3">
                  <Link to={`${INCIDENT_RULES_PATH}/${rule.id}`} className="text-blue-700 hover:underline">
                    {rule.name}
                  </Link>
                </td>
                <td className="py-1.5 pr-3">{rule.namespace}</td>
                <td className="py-1.5 pr-3">
                  {typeof rule.spec?.priority === 'number' ? rule.spec.priority : 0}
                </td>
                <td className="py-1.5 pr-3">{rule.source}</td>
                <td className="py-1.5 pr-3">
                  <FormattedDate value={rule.created_at} />
                </td>
                <td className="py-1.5">
                  <FormattedDate value={rule.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
