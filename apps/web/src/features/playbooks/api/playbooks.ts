import {
  PLAYBOOK_RUN_FINAL_STATUSES,
  playbookListResponseSchema,
  playbookParamsResponseSchema,
  playbookRunDetailSchema,
  playbookRunResponseSchema,
  playbookRunStatusResponseSchema,
  playbookRunsResponseSchema,
  relationRowSchemas,
  type PlaybookRow,
  type PlaybookRunRequest,
  type PlaybookRunsQuery,
} from '@opsdeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { fetchRows, insertRow, updateRow } from '../../../lib/data-api';

/** The resource a playbook runs on: at most one of these. */
export interface PlaybookTarget {
  config_id?: string;
  component_id?: string;
  check_id?: string;
}

export function targetSearch(target: PlaybookTarget): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(target)) if (value) search.set(key, value);
  return search;
}

export function hasTarget(target: PlaybookTarget): boolean {
  return Boolean(target.config_id || target.component_id || target.check_id);
}

/** Playbooks runnable on one resource (settings §7 GET /playbook/list). */
export const usePlaybooksFor = (target: PlaybookTarget) =>
  useQuery({
    queryKey: ['playbooks', 'for', target],
    enabled: hasTarget(target),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/playbook/list?${targetSearch(target).toString()}`,
        { signal },
        { schema: playbookListResponseSchema },
      ),
  });

/** Settings §4: the parameter fetch waits for a resource and is never cached. */
export const usePlaybookParams = (playbookId: string | undefined, target: PlaybookTarget, enabled: boolean) =>
  useQuery({
    queryKey: ['playbook-params', playbookId, target],
    enabled: Boolean(playbookId) && enabled,
    gcTime: 0,
    staleTime: 0,
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/playbook/${encodeURIComponent(playbookId ?? '')}/params`,
        { method: 'POST', signal, body: JSON.stringify({ id: playbookId, ...target }) },
        { schema: playbookParamsResponseSchema },
      ),
  });

export function useRunPlaybook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: PlaybookRunRequest) =>
      apiFetch(
        '/api/playbook/run',
        { method: 'POST', body: JSON.stringify(request) },
        { schema: playbookRunResponseSchema },
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['playbook-runs'] }),
  });
}

export const usePlaybookRuns = (query: PlaybookRunsQuery) =>
  useQuery({
    queryKey: ['playbook-runs', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (value !== undefined && value !== '') search.set(key, String(value));
      return apiFetch(
        `/api/playbook/runs?${search.toString()}`,
        { signal },
        { schema: playbookRunsResponseSchema },
      );
    },
  });

/** A run, polled every second while it is not over (the run page is live). */
export const usePlaybookRun = (id: string) =>
  useQuery({
    queryKey: ['playbook-run', id],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/playbook/run/${encodeURIComponent(id)}`,
        { signal },
        { schema: playbookRunDetailSchema },
      ),
    refetchInterval: (query) => {
      const status = query.state.data?.run.status;
      return status && PLAYBOOK_RUN_FINAL_STATUSES.includes(status) ? false : 1000;
    },
  });

export function useRunDecision(id: string, verb: 'approve' | 'cancel') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch(
        `/api/playbook/run/${verb}/${encodeURIComponent(id)}`,
        { method: 'POST', body: '{}' },
        { schema: playbookRunStatusResponseSchema },
      ),
    onSettled: () => void client.invalidateQueries({ queryKey: ['playbook-run', id] }),
  });
}

const playbookRowSchema = relationRowSchemas.playbooks;
export type { PlaybookRow };

export const usePlaybookRows = () =>
  useQuery({
    queryKey: ['playbooks', 'rows'],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/playbooks?select=${Object.keys(playbookRowSchema.shape).join(',')}&deleted_at=is.null&order=name.asc`,
        signal,
        playbookRowSchema,
      ),
  });

export const usePlaybookRow = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: ['playbooks', 'row', id],
    enabled,
    queryFn: async ({ signal }) => {
      const rows = await fetchRows(
        `/api/db/playbooks?select=${Object.keys(playbookRowSchema.shape).join(',')}&id=eq.${encodeURIComponent(id)}&deleted_at=is.null`,
        signal,
        playbookRowSchema,
      );
      return rows[0] ?? null;
    },
  });

export interface PlaybookInput {
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
}

function columnsOf(spec: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { title: text(spec.title), description: text(spec.description) };
}

export function useSavePlaybook(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: PlaybookInput) => {
      if (id) {
        await updateRow('playbooks', id, { spec: input.spec, ...columnsOf(input.spec) });
        return id;
      }
      const row = await insertRow(
        'playbooks',
        {
          name: input.name,
          namespace: input.namespace,
          spec: input.spec,
          source: 'UI',
          ...columnsOf(input.spec),
        },
        z.object({ id: z.string() }),
      );
      return row.id;
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['playbooks'] }),
  });
}

export function useDeletePlaybook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => updateRow('playbooks', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['playbooks'] }),
  });
}
