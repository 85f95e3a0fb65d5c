import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { configAnalysisSearch, configChangesSearch, relatedConfigsSearch } from '../lib/catalog-query';
import type { ConfigListItem } from './config-list';
import { fetchRows } from './data-api';

export interface ConfigDetail extends ConfigListItem {
  config: unknown;
  external_id: string | null;
}

export const configDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['catalog-config', id],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select:
          'id,name,type,config_class,status,health,labels,tags,namespace,description,created_at,updated_at,deleted_at,external_id,config',
        id: `eq.${id}`,
      });
      const rows = await fetchRows<ConfigDetail>(`/api/db/config_items?${search.toString()}`, signal);
      if (!rows[0]) throw new ApiError(404, 'No details found', undefined);
      return rows[0];
    },
  });

export const useConfigDetail = (id: string) => useQuery(configDetailQueryOptions(id));

/** Core §3 "Config change". */
export interface ConfigChange {
  id: string;
  config_id: string;
  change_type: string | null;
  severity: string | null;
  source: string | null;
  summary: string | null;
  diff: string | null;
  created_at: string;
  created_by: string | null;
  external_created_by: string | null;
}

export const useConfigChanges = (id: string) =>
  useQuery({
    queryKey: ['catalog-config-changes', id],
    queryFn: ({ signal }) =>
      fetchRows<ConfigChange>(`/api/db/config_changes?${configChangesSearch(id).toString()}`, signal),
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
    queryFn: ({ signal }) =>
      fetchRows<ConfigAnalysis>(`/api/db/config_analysis?${configAnalysisSearch(id).toString()}`, signal),
  });

export interface RelatedConfig {
  id: string;
  name: string | null;
  type: string | null;
  health: string | null;
  status: string | null;
  tags: Record<string, string> | null;
  deleted_at: string | null;
  direction: 'incoming' | 'outgoing';
}

export const useRelatedConfigs = (id: string, showDeleted: boolean) =>
  useQuery({
    queryKey: ['catalog-config-related', id, showDeleted],
    queryFn: async ({ signal }) => {
      const directions = ['incoming', 'outgoing'] as const;
      const lists = await Promise.all(
        directions.map((direction) =>
          fetchRows<Omit<RelatedConfig, 'direction'>>(
            `/api/db/rpc/related_configs_recursive?${relatedConfigsSearch(id, direction, showDeleted).toString()}`,
            signal,
          ),
        ),
      );
      return directions.flatMap((direction, index) => lists[index]!.map((row) => ({ ...row, direction })));
    },
  });
