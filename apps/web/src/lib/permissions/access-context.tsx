import { createContext, useContext, type ReactNode } from 'react';
import type { GrantedPermission } from './can';

/**
 * Who is signed in, as far as permission checks care. The app fills it from the auth feature's
 * current user; shared code reads it here so it does not depend on a feature.
 */
export interface CurrentAccess {
  status: 'loading' | 'signed-in' | 'signed-out';
  roles: readonly string[];
  permissions: readonly GrantedPermission[];
}

const LOADING: CurrentAccess = { status: 'loading', roles: [], permissions: [] };

const AccessContext = createContext<CurrentAccess>(LOADING);

export function AccessProvider({ value, children }: { value: CurrentAccess; children: ReactNode }) {
  return <AccessContext.Provider value={value}>{children}</AccessContext.Provider>;
}

export function useCurrentAccess(): CurrentAccess {
  return useContext(AccessContext);
}
