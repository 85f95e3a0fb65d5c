import { useEffect, type ReactNode } from 'react';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { useCurrentUser } from '../api/whoami';
import { redirectToLogin } from '../api/session-actions';

/** Renders children for a signed-in user; sends everyone else to the login screen. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { status } = useCurrentUser();
  useEffect(() => {
    if (status === 'signed-out') redirectToLogin();
  }, [status]);
  if (status === 'signed-in') return <>{children}</>;
  return (
    <div className="min-h-screen p-8">
      <PageSkeleton lines={10} label={status === 'loading' ? 'Loading' : 'Redirecting to sign in'} />
    </div>
  );
}
