import { relationRowSchemas } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { configAnalysisSearch, relatedConfigsSearch, type RelationshipDirection } from '../lib/catalog-query';
import { configListItemSchema } from './config-list';
import { fetchEveryRow, fetchRows } from '../../../lib/data-api';

/** The columns of `config_items` the item's page shows: the list's, its external ids and its config. */
const configDetailSchema = relationRowSchemas.config_items.pick({
  ...mapKeys(configListItemSchema.shape),
  external_id: true,
  config: true,
});

export type ConfigDetail = z.infer<typeof configDetailSchema>;

/** `{column: true}` for each column of a shape, to pick the same columns of another relation. */
function mapKeys<K extends string>(shape: Record<K, unknown>): Record<K, true> {
  return Object.fromEntries(Object.keys(shape).map((key) => [key, true])) as Record<K, true>;
}

export const configDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['catalog-config', id],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: Object.keys(configDetailSchema.shape).join(','),
        id: `eq.${id}`,
      });
      const rows = await fetchRows(`/api/db/config_items?${search.toString()}`, signal, configDetailSchema);
      if (!rows[0]) throw new ApiError(404, 'No details found', undefined);
      return rows[0];
    },
  });

export const useConfigDetail = (id: string) => useQuery(configDetailQueryOptions(id));

/** The breadcrumb: parents by location, outermost first (core §7 `rpc/get_parents_by_location`). */
export const useConfigParents = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-parents', id],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/rpc/get_parents_by_location?${new URLSearchParams({ config_id: id }).toString()}`,
        signal,
        relationRowSchemas['rpc/get_parents_by_location'],
      ),
  });

/** The columns of `config_analysis` an item's insights show (configAnalysisSearch). */
export const configAnalysisSchema = relationRowSchemas.config_analysis.pick({
  id: true,
  analyzer: true,
  analysis_type: true,
  severity: true,
  status: true,
  summary: true,
  message: true,
  source: true,
  first_observed: true,
  last_observed: true,
});

/** Core §3 "Config analysis". */
export type ConfigAnalysis = z.infer<typeof configAnalysisSchema>;

export const useConfigAnalysis = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-analysis', id],
    // Every row, in pages past the server's cap (DATA_API_MAX_ROWS), never a silently short list.
    queryFn: ({ signal }) =>
      fetchEveryRow(
        `/api/db/config_analysis?${configAnalysisSearch(id).toString()}`,
        signal,
        configAnalysisSchema,
      ),
  });

/** The columns of `rpc/related_configs_recursive` the relationships page shows (relatedConfigsSearch). */
const relatedConfigSchema = relationRowSchemas['rpc/related_configs_recursive'].pick({
  id: true,
  name: true,
  type: true,
  health: true,
  status: true,
  tags: true,
  updated_at: true,
  deleted_at: true,
  related_ids: true,
});

/** A row of `rpc/related_configs_recursive`; related_ids are the items it points to in the walked graph. */
export type RelatedConfig = z.infer<typeof relatedConfigSchema>;

export const useRelatedConfigs = (
  id: string,
  direction: RelationshipDirection,
  depth: number,
  showDeleted: boolean,
) =>
  useQuery({
    queryKey: ['catalog-config-related', id, direction, depth, showDeleted],
    queryFn: ({ signal }) =>
      fetchEveryRow(
        `/api/db/rpc/related_configs_recursive?${relatedConfigsSearch(id, direction, depth, showDeleted).toString()}`,
        signal,
        relatedConfigSchema,
      ),
  });

/** The columns of `check_summary_for_config` the item's checks show. */
const configCheckSchema = relationRowSchemas.check_summary_for_config.pick({
  id: true,
  config_id: true,
  name: true,
  type: true,
  status: true,
  severity: true,
  canary_id: true,
  last_runtime: true,
  last_transition_time: true,
  uptime: true,
  latency: true,
});

/** A row of `check_summary_for_config`: a health check linked to the item. */
export type ConfigCheck = z.infer<typeof configCheckSchema>;

export const useConfigChecks = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-checks', id],
    queryFn: ({ signal }) =>
      fetchEveryRow(
        `/api/db/check_summary_for_config?${new URLSearchParams({ config_id: `eq.${id}`, order: 'name.asc' }).toString()}`,
        signal,
        configCheckSchema,
      ),
  });
