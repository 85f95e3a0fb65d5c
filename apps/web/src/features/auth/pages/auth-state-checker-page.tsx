import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { ErrorDetails } from '../../../components/error-boundary/error-screens';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { assignLocation, loginPath } from '../lib/navigation';

/** Only paths of this site: `//host` and absolute URLs are not places to send a user. */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}

/**
 * `/auth-state-checker?return_to=…`: checks the session (spec core §8, self-hosted): valid → the
 * return_to address; 403 or 422 → login with aal=aal2; 401 → login; anything else is shown.
 */
export function AuthStateCheckerPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('return_to'));
  const [failure, setFailure] = useState<Error>();
  useEffect(() => {
    let cancelled = false;
    apiFetch<unknown>('/api/auth/session', {}, { ignoreUnauthorized: true }).then(
      () => {
        if (!cancelled) assignLocation(returnTo);
      },
      (error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && (error.status === 403 || error.status === 422)) {
          assignLocation(loginPath(returnTo, { aal: 'aal2' }));
        } else if (error instanceof ApiError && error.status === 401) {
          assignLocation(loginPath(returnTo));
        } else {
          setFailure(error instanceof Error ? error : new Error(String(error)));
        }
      },
    );
    return () => {
      cancelled = true;
    };
  }, [returnTo]);
  if (failure) return <ErrorDetails error={failure} />;
  return <PageSkeleton lines={10} label="Checking your session" />;
}
