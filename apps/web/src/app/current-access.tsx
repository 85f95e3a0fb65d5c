import { useMemo, type ReactNode } from 'react';
import { useCurrentUser } from '../features/auth';
import { AccessProvider } from '../lib/permissions';

/** Hands the auth feature's current user to the shared permission checks. */
export function CurrentAccessProvider({ children }: { children: ReactNode }) {
  const { status, roles, permissions } = useCurrentUser();
  const value = useMemo(() => ({ status, roles, permissions }), [status, roles, permissions]);
  return <AccessProvider value={value}>{children}</AccessProvider>;
}
