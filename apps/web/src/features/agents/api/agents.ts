import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deleteAgentResponseSchema,
  generateAgentResponseSchema,
  relationRowSchemas,
  type GenerateAgentRequest,
} from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';
import { fetchRows } from '../../../lib/data-api';

/** The agents page's calls: `agents_summary` rows, POST /api/agent/generate, DELETE /api/agent/{id}. */

const KEY = ['agents'] as const;

export const agentsQueryOptions = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: ({ signal }) =>
      fetchRows(
        '/api/db/agents_summary?deleted_at=is.null&order=created_at.desc&limit=100',
        signal,
        relationRowSchemas.agents_summary,
      ),
  });

export function useGenerateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: GenerateAgentRequest) =>
      apiFetch(
        '/api/agent/generate',
        { method: 'POST', body: JSON.stringify(request) },
        { schema: generateAgentResponseSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(
        `/api/agent/${encodeURIComponent(id)}`,
        { method: 'DELETE' },
        { schema: deleteAgentResponseSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
