import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import type { IncidentRuleInput, IncidentRuleRow } from '../lib/incident-rule-form';
import { insertRow, updateRow } from '../../../lib/data-api';

export const INCIDENT_RULES_QUERY_KEY = ['incident_rules'] as const;

const COLUMNS = 'id,name,namespace,labels,spec,source,created_at,updated_at';

/** Settings lists: at most 100 rows, newest first, without soft-deleted ones (core §9). */
export const useIncidentRules = () =>
  useQuery({
    queryKey: [...INCIDENT_RULES_QUERY_KEY, 'list'],
    queryFn: ({ signal }) =>
      apiFetch<IncidentRuleRow[]>(
        `/api/db/incident_rules?select=${COLUMNS}&deleted_at=is.null&order=created_at.desc&limit=100`,
        { signal },
      ),
  });

export const useIncidentRule = (id: string | undefined) =>
  useQuery({
    queryKey: [...INCIDENT_RULES_QUERY_KEY, 'detail', id],
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const rows = await apiFetch<IncidentRuleRow[]>(
        `/api/db/incident_rules?select=${COLUMNS}&id=eq.${encodeURIComponent(id!)}&deleted_at=is.null`,
        { signal },
      );
      return rows[0] ?? null;
    },
  });

/** Create (source UI) or update; updates send only the editable columns (settings §7). */
export function useSaveIncidentRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string; input: IncidentRuleInput }) => {
      if (id) {
        await updateRow('incident_rules', id, { labels: input.labels, spec: input.spec });
        return id;
      }
      const row = await insertRow<{ id: string }>('incident_rules', { ...input, source: 'UI' });
      return row.id;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: INCIDENT_RULES_QUERY_KEY }),
  });
}

/** Deleting sets deleted_at to now (core §4 soft deletion). */
export function useDeleteIncidentRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => updateRow('incident_rules', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => client.invalidateQueries({ queryKey: INCIDENT_RULES_QUERY_KEY }),
  });
}

/** The JSON Schema of the IncidentRule spec the server serves to editors. */
export const useIncidentRuleSchema = () =>
  useQuery({
    queryKey: ['schemas', 'incident_rules'],
    staleTime: 300_000,
    queryFn: ({ signal }) => apiFetch<unknown>('/api/schemas/incident_rules.schema.json', { signal }),
  });
