import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { configAnalysisSearch, relatedConfigsSearch, type RelationshipDirection } from '../lib/catalog-query';
import type { ConfigListItem } from './config-list';
import { fetchEveryRow, fetchRows } from '../../../lib/data-api';

export interface ConfigDetail extends ConfigListItem {
  config: unknown;
  external_id: string[] | string | null;
}

export const configDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['catalog-config', id],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select:
          'id,name,type,config_class,status,health,labels,tags,namespace,description,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,created_at,updated_at,deleted_at,external_id,config',
        id: `eq.${id}`,
      });
      const rows = await fetchRows<ConfigDetail>(`/api/db/config_items?${search.toString()}`, signal);
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
      fetchRows<{ id: string; name: string | null; type: string | null }>(
        `/api/db/rpc/get_parents_by_location?${new URLSearchParams({ config_id: id }).toString()}`,
        signal,
      ),
  });

/** Core §3 "Config analysis". */
export interface ConfigAnalysis {
  id: string;
  analyzer: string;
  analysis_type: string | null;
  severity: string | null;
  status: string | null;
  summary: string | null;
  message: string | null;
  source: string | null;
  first_observed: string;
  last_observed: string | null;
}

export const useConfigAnalysis = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-analysis', id],
    // Every row, in pages past the server's cap (DATA_API_MAX_ROWS), never a silently short list.
    queryFn: ({ signal }) =>
      fetchEveryRow<ConfigAnalysis>(`/api/db/config_analysis?${configAnalysisSearch(id).toString()}`, signal),
  });

/** A row of `rpc/related_configs_recursive`; related_ids are the items it points to in the walked graph. */
export interface RelatedConfig {
  id: string;
  name: string | null;
  type: string | null;
  health: string | null;
  status: string | null;
  tags: Record<string, string> | null;
  updated_at: string | null;
  deleted_at: string | null;
  related_ids: string[] | null;
}

export const useRelatedConfigs = (
  id: string,
  direction: RelationshipDirection,
  depth: number,
  showDeleted: boolean,
) =>
  useQuery({
    queryKey: ['catalog-config-related', id, direction, depth, showDeleted],
    queryFn: ({ signal }) =>
      fetchEveryRow<RelatedConfig>(
        `/api/db/rpc/related_configs_recursive?${relatedConfigsSearch(id, direction, depth, showDeleted).toString()}`,
        signal,
      ),
  });

/** A row of `check_summary_for_config`: a health check linked to the item. */
export interface ConfigCheck {
  id: string;
  config_id: string;
  name: string | null;
  type: string | null;
  status: string | null;
  severity: string | null;
  canary_id: string | null;
  last_runtime: string | null;
  last_transition_time: string | null;
  uptime: { passed: number; failed: number } | null;
  latency: { p95?: number | null; p97?: number | null; p99?: number | null } | null;
}

export const useConfigChecks = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-checks', id],
    queryFn: ({ signal }) =>
      fetchEveryRow<ConfigCheck>(
        `/api/db/check_summary_for_config?${new URLSearchParams({ config_id: `eq.${id}`, order: 'name.asc' }).toString()}`,
        signal,
      ),
  });
