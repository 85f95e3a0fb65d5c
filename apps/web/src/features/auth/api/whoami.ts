import {
  whoamiResponseSchema,
  type WhoamiPermission,
  type WhoamiResponse,
  type WhoamiUser,
} from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';

/** The signed-in person as the shell shows them: the name falls back to the email, no null email. */
export type CurrentUserIdentity = Pick<WhoamiUser, 'id' | 'name'> & { email: string; avatar?: string };

/** One permission of the caller, as `GET /api/auth/whoami` lists it (contracts auth.ts). */
export type CurrentUserPermission = WhoamiPermission;

export interface CurrentUser {
  status: 'loading' | 'signed-in' | 'signed-out';
  user?: CurrentUserIdentity;
  /** The caller's roles (`Role` names); plain strings for the access checks that compare them. */
  roles: string[];
  permissions: CurrentUserPermission[];
  /** Set when people come from a hosted identity provider (spec core §1/§2): its name. */
  hostedIdentityProvider?: string;
}

/** TanStack Query key of `GET /api/auth/whoami`; invalidate it after sign-in and sign-out. */
export const CURRENT_USER_QUERY_KEY = ['auth', 'whoami'] as const;

type Whoami = Omit<CurrentUser, 'status'> & { signedIn: boolean };

const SIGNED_OUT: Whoami = { signedIn: false, roles: [], permissions: [] };

/** The parsed whoami answer as the current user. */
export function parseWhoami(answer: WhoamiResponse): Whoami {
  const { user, roles, permissions, identity_provider: provider } = answer.payload;
  return {
    ...(provider?.hosted ? { hostedIdentityProvider: provider.name ?? 'your identity provider' } : {}),
    signedIn: true,
    user: {
      id: user.id,
      name: user.name || user.email || '',
      email: user.email ?? '',
      ...(user.avatar ? { avatar: user.avatar } : {}),
    },
    roles: [...roles],
    permissions,
  };
}

/**
 * A 401 is an answer ("nobody"), not an error: the query resolves to signed out. The answer is
 * parsed with the contract: one that drifted rejects with ApiResponseError naming the field.
 */
export async function fetchWhoami(): Promise<Whoami> {
  try {
    return parseWhoami(
      await apiFetch('/api/auth/whoami', {}, { ignoreUnauthorized: true, schema: whoamiResponseSchema }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return SIGNED_OUT;
    throw error;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: CURRENT_USER_QUERY_KEY, queryFn: fetchWhoami, retry: false });

export function useCurrentUser(): CurrentUser {
  const query = useQuery(currentUserQueryOptions());
  if (query.isPending) return { status: 'loading', roles: [], permissions: [] };
  // A failed check (network, 5xx) is treated as signed out so the user can reach the login screen.
  if (!query.data || !query.data.signedIn) return { status: 'signed-out', roles: [], permissions: [] };
  const { user, roles, permissions, hostedIdentityProvider } = query.data;
  return {
    status: 'signed-in',
    ...(user ? { user } : {}),
    roles,
    permissions,
    ...(hostedIdentityProvider ? { hostedIdentityProvider } : {}),
  };
}
