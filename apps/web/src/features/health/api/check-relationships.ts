import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export interface RelatedItem {
  id: string;
  name: string | null;
  type: string | null;
  kind: 'component' | 'config';
}

interface ComponentLink {
  component: { id: string; name: string | null; type: string | null } | null;
}
interface ConfigLink {
  config: { id: string; name: string | null; type: string | null } | null;
}

/** Components and config items linked to a check (check_component/config_relationships). */
export const checkRelationshipsQueryOptions = (checkId: string) =>
  queryOptions({
    queryKey: ['health', 'check-relationships', checkId],
    queryFn: async ({ signal }): Promise<RelatedItem[]> => {
      const filter = `check_id=eq.${encodeURIComponent(checkId)}&deleted_at=is.null`;
      const [components, configs] = await Promise.all([
        apiFetch<ComponentLink[]>(
          `/api/db/check_component_relationships?${filter}&select=component:components(id,name,type)`,
          { signal },
        ),
        apiFetch<ConfigLink[]>(
          `/api/db/check_config_relationships?${filter}&select=config:config_items(id,name,type)`,
          {
            signal,
          },
        ),
      ]);
      return [
        ...components.flatMap((link) =>
          link.component ? [{ ...link.component, kind: 'component' as const }] : [],
        ),
        ...configs.flatMap((link) => (link.config ? [{ ...link.config, kind: 'config' as const }] : [])),
      ];
    },
    refetchOnWindowFocus: false,
  });

export const useCheckRelationships = (checkId: string) => useQuery(checkRelationshipsQueryOptions(checkId));
