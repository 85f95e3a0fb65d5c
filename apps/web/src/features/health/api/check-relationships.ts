import { checkRelatedItemSchema, relationRowSchemas } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { fetchRows } from '../../../lib/data-api';

/** A component or config item linked to a check, as the panel lists it. */
export type RelatedItem = z.infer<typeof checkRelatedItemSchema> & { kind: 'component' | 'config' };

// The relationship rows carry only their embed: the linked component or config item.
const componentLinkSchema = relationRowSchemas.check_component_relationships
  .pick({})
  .extend({ component: checkRelatedItemSchema.nullable() });
const configLinkSchema = relationRowSchemas.check_config_relationships
  .pick({})
  .extend({ config: checkRelatedItemSchema.nullable() });

/** Components and config items linked to a check (check_component/config_relationships). */
export const checkRelationshipsQueryOptions = (checkId: string) =>
  queryOptions({
    queryKey: ['health', 'check-relationships', checkId],
    queryFn: async ({ signal }): Promise<RelatedItem[]> => {
      const filter = `check_id=eq.${encodeURIComponent(checkId)}&deleted_at=is.null`;
      const [components, configs] = await Promise.all([
        fetchRows(
          `/api/db/check_component_relationships?${filter}&select=component:components(id,name,type)`,
          signal,
          componentLinkSchema,
        ),
        fetchRows(
          `/api/db/check_config_relationships?${filter}&select=config:config_items(id,name,type)`,
          signal,
          configLinkSchema,
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
