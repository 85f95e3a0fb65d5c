import { relationRowSchemas } from '@opsdeck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResponseSchema } from '../../../lib/api-client';
import type { IncidentRuleInput, IncidentRuleRow } from '../lib/incident-rule-form';
import { fetchRows, insertRow, updateRow } from '../../../lib/data-api';
import { fetchLiveRow, useSpecSchema } from '../../../lib/resource-api';

export const INCIDENT_RULES_QUERY_KEY = ['incident_rules'] as const;

/** The columns of incident_rules the settings pages show. */
const incidentRuleRowSchema = relationRowSchemas.incident_rules.pick({
  id: true,
  name: true,
  namespace: true,
  labels: true,
  spec: true,
  source: true,
  created_at: true,
  updated_at: true,
}) satisfies ResponseSchema<IncidentRuleRow>;

const COLUMNS = Object.keys(incidentRuleRowSchema.shape).join(',');

/** Settings lists: at most 100 rows, newest first, without soft-deleted ones (core §9). */
export const useIncidentRules = () =>
  useQuery({
    queryKey: [...INCIDENT_RULES_QUERY_KEY, 'list'],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/incident_rules?select=${COLUMNS}&deleted_at=is.null&order=created_at.desc&limit=100`,
        signal,
        incidentRuleRowSchema,
      ),
  });

export const useIncidentRule = (id: string | undefined) =>
  useQuery({
    queryKey: [...INCIDENT_RULES_QUERY_KEY, 'detail', id],
    enabled: Boolean(id),
    queryFn: ({ signal }) => fetchLiveRow('incident_rules', id!, signal, incidentRuleRowSchema),
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
      const row = await insertRow(
        'incident_rules',
        { ...input, source: 'UI' },
        relationRowSchemas.incident_rules.pick({ id: true }),
      );
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
export const useIncidentRuleSchema = () => useSpecSchema('incident_rules');
