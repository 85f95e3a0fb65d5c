import clsx from 'clsx';
import { NavLink } from 'react-router';

export const NOTIFICATIONS_PATH = '/notifications';
export const NOTIFICATION_RULES_PATH = '/notifications/rules';
export const NOTIFICATION_SILENCES_PATH = '/notifications/silences';

const TABS = [
  { label: 'Notifications', path: NOTIFICATIONS_PATH },
  { label: 'Rules', path: NOTIFICATION_RULES_PATH },
  { label: 'Silences', path: NOTIFICATION_SILENCES_PATH },
];

/** The notification area's sections. */
export function NotificationTabs() {
  return (
    <nav aria-label="Notification sections" className="flex gap-1 border-b border-gray-200">
      {TABS.map((tab) => (
        <NavLink
          key={tab.path}
          to={tab.path}
          end
          className={({ isActive }) =>
            clsx(
              '-mb-px border-b-2 px-3 py-2 text-sm',
              isActive ? 'border-blue-600 font-medium text-blue-700' : 'border-transparent text-gray-600',
            )
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
