import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useCan } from '../../../lib/permissions/use-can';
import { useNotificationRules } from '../api/notifications';
import { NotificationRuleEditor } from './notification-rule-editor';
import { NOTIFICATION_RULES_PATH, NotificationTabs } from './notification-tabs';

/** Spec core §2: the generic settings list's empty state. */
const NO_RESOURCES_MESSAGE = 'No resources found';

/** /notifications/rules: the rules with their delivery counts; `?id=` opens one (`?id=new` adds one). */
export function NotificationRulesPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const rules = useNotificationRules();
  const canWrite = useCan('notifications', 'write');
  if (id) return <NotificationRuleEditor id={id} />;
  if (rules.isError && !rules.data) throw rules.error;
  return (
    <div className="flex flex-col gap-4">
      <NotificationTabs />
      <div className="flex items-center gap-3">
        <h2 className="text-base font-semibold">Notification Rules</h2>
        {canWrite && (
          <Link
            to={`${NOTIFICATION_RULES_PATH}?id=new`}
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
        <table aria-label="Notification rules" className="w-full text-left text-sm">
          <thead className="text-xs text-gray-600 uppercase">
            <tr>
              <th className="py-1 pr-3">Name</th>
              <th className="py-1 pr-3">Events</th>
              <th className="py-1 pr-3">Sent</th>
              <th className="py-1 pr-3">Failed</th>
              <th className="py-1 pr-3">Pending</th>
              <th className="py-1 pr-3">Most common error</th>
              <th className="py-1 pr-3">Last error</th>
              <th className="py-1">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rules.data.map((rule) => (
              <tr key={rule.id} className="border-t border-gray-100">
                <td className="py-1.5 pr-3">
                  <Link
                    to={`${NOTIFICATION_RULES_PATH}?id=${rule.id}`}
                    className="text-blue-700 hover:underline"
                  >
                    {rule.name}
                  </Link>
                </td>
                <td className="py-1.5 pr-3">{rule.events.join(', ')}</td>
                <td className="py-1.5 pr-3">{rule.sent}</td>
                <td className="py-1.5 pr-3">{rule.failed}</td>
                <td className="py-1.5 pr-3">{rule.pending}</td>
                {/* notifications_summary.most_common_error: what the rule's failed sends said most often. */}
                <td
                  className="max-w-xs truncate py-1.5 pr-3 text-red-700"
                  title={rule.most_common_error ?? undefined}
                >
                  {rule.most_common_error ?? ''}
                </td>
                <td className="py-1.5 pr-3 text-red-700">{rule.error ?? ''}</td>
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
