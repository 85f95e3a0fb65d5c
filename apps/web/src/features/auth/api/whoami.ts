import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';

export interface CurrentUserIdentity {
  id: string;
  name: string;
  email: string;
  avatar?: string;
}

export interface CurrentUserPermission {
  subject: string;
  object: string;
  action: string;
  deny: boolean;
}

export interface CurrentUser {
  status: 'loading' | 'signed-in' | 'signed-out';
  user?: CurrentUserIdentity;
  roles: string[];
  permissions: CurrentUserPermission[];
}

/** TanStack Query key of `GET /api/auth/whoami`; invalidate it after sign-in and sign-out. */
export const CURRENT_USER_QUERY_KEY = ['auth', 'whoami'] as const;

interface WhoamiAnswer {
  payload?: {
    user?: Record<string, unknown>;
    roles?: unknown;
    permissions?: unknown;
  };
}

type Whoami = Omit<CurrentUser, 'status'> & { signedIn: boolean };

const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function parsePermissions(value: unknown): CurrentUserPermission[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((row: unknown) => {
    if (!row || typeof row !== 'object') return [];
    const record = row as Record<string, unknown>;
    return [
      {
        subject: asString(record.subject) ?? '',
        object: asString(record.object) ?? '',
        action: asString(record.action) ?? '',
        deny: record.deny === true,
      },
    ];
  });
}

export function parseWhoami(answer: WhoamiAnswer): Whoami {
  const user = answer.payload?.user;
  const id = asString(user?.id);
  if (!user || !id) return { signedIn: false, roles: [], permissions: [] };
  const avatar = asString(user.avatar);
  return {
    signedIn: true,
    user: {
      id,
      name: asString(user.name) ?? asString(user.email) ?? '',
      email: asString(user.email) ?? '',
      ...(avatar ? { avatar } : {}),
    },
    roles: Array.isArray(answer.payload?.roles)
      ? answer.payload.roles.filter((role): role is string => typeof role === 'string')
      : [],
    permissions: parsePermissions(answer.payload?.permissions),
  };
}

/** A 401 is an answer ("nobody"), not an error: the query resolves to signed out. */
export async function fetchWhoami(): Promise<Whoami> {
  try {
    return parseWhoami(await apiFetch<WhoamiAnswer>('/api/auth/whoami', {}, { ignoreUnauthorized: true }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return { signedIn: false, roles: [], permissions: [] };
    }
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
  const { user, roles, permissions } = query.data;
  return { status: 'signed-in', ...(user ? { user } : {}), roles, permissions };
}
