import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTokenRequest, TokenScope } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';

/** A person as the token list shows them. */
export interface TokenPerson {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

/** A row of GET /api/auth/tokens (never the secret). */
export interface AccessToken {
  id: string;
  name: string;
  scope: TokenScope[];
  created_at: string;
  expires_at: string | null;
  person: TokenPerson | null;
  created_by: TokenPerson | null;
  /** Shown when the server reports it. */
  last_used_at?: string | null;
}

export const TOKENS_QUERY_KEY = ['auth', 'tokens'] as const;

export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: TOKENS_QUERY_KEY,
    queryFn: async ({ signal }) => {
      const body = await apiFetch<{ payload?: AccessToken[] }>('/api/auth/tokens', { signal });
      return body?.payload ?? [];
    },
  });

/** POST /api/auth/create_token → the token string, shown once. */
export async function createToken(request: CreateTokenRequest): Promise<string> {
  const body = await apiFetch<{ payload?: { token?: string } }>('/api/auth/create_token', {
    method: 'POST',
    body: JSON.stringify(request),
  });
  const token = body?.payload?.token;
  if (!token) throw new Error('The server did not return a token');
  return token;
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}

export function useDeleteToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ message?: string }>(`/api/auth/token/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}
