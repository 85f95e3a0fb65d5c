import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '../../../lib/permissions/use-can';
import { useRecentFailures } from '../api/notifications';

function Count() {
  const failures = useRecentFailures();
  const total = failures.data?.total ?? 0;
  if (total === 0) return null;
  return (
    <span className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] leading-4 text-white">
      {total > 99 ? '99+' : total}
    </span>
  );
}

/**
 * The top bar's bell: links to /notifications; with read on notifications it shows how many
 * deliveries failed in the last 24 hours, and a click opens them.
 */
export function NotificationBell({ className }: { className: string }) {
  const canRead = useCan('notifications', 'read');
  return (
    <Link
      to={canRead ? '/notifications?status=failed&range=24h' : '/notifications'}
      aria-label="Notifications"
      className={`relative ${className}`}
    >
      <Bell className="size-5" aria-hidden />
      {canRead && <Count />}
    </Link>
  );
}
