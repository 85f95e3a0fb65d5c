import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  accessTokensResponseSchema,
  createTokenResponseSchema,
  deleteTokenResponseSchema,
  type AccessTokenView,
  type CreateTokenRequest,
  type TokenPerson as ContractTokenPerson,
} from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';

/**
 * The token API (settings spec §3 and §5). Shapes are the contracts' (`@opsdeck/contracts`
 * auth.ts); every answer is parsed with them, so one that drifted fails with ApiResponseError
 * naming the field instead of showing a wrong list.
 */

/** A person as the token list shows them. */
export type TokenPerson = ContractTokenPerson;

/** A row of GET /api/auth/tokens (never the secret); `last_used_at` only when the server reports it. */
export type AccessToken = AccessTokenView;

export const TOKENS_QUERY_KEY = ['auth', 'tokens'] as const;

export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: TOKENS_QUERY_KEY,
    queryFn: async ({ signal }) => {
      const body = await apiFetch('/api/auth/tokens', { signal }, { schema: accessTokensResponseSchema });
      return body.payload;
    },
  });

/** POST /api/auth/create_token → the token string, shown once. */
export async function createToken(request: CreateTokenRequest): Promise<string> {
  const body = await apiFetch(
    '/api/auth/create_token',
    { method: 'POST', body: JSON.stringify(request) },
    { schema: createTokenResponseSchema },
  );
  return body.payload.token;
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
      apiFetch(
        `/api/auth/token/${encodeURIComponent(id)}`,
        { method: 'DELETE' },
        { schema: deleteTokenResponseSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}
