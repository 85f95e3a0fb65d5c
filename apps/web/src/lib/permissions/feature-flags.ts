import {
  featureDisableProperties,
  propertiesResponseSchema,
  type Feature,
  type Property,
} from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api-client';
import { useCurrentAccess } from './access-context';

/** A row of `GET /api/properties` (the contract's shape). */
export type { Property } from '@opsdeck/contracts';

export const PROPERTIES_QUERY_KEY = ['properties'] as const;

export const propertiesQueryOptions = () =>
  queryOptions({
    queryKey: PROPERTIES_QUERY_KEY,
    queryFn: () => apiFetch('/api/properties', {}, { schema: propertiesResponseSchema }),
  });

/**
 * Spec core §6: an area is off when the property '{feature}.disable' is 'true'; a few settings
 * areas also follow the area they belong to.
 */
export function isFeatureEnabled(
  properties: readonly Pick<Property, 'name' | 'value'>[],
  feature: Feature,
): boolean {
  const disabling = featureDisableProperties(feature);
  return !properties.some(
    (property) => disabling.includes(property.name) && property.value.trim() === 'true',
  );
}

export interface FeatureFlags {
  /** True until the properties have loaded; routes wait for it (spec core §2). */
  isLoading: boolean;
  properties: Property[];
  isEnabled(feature: Feature): boolean;
}

const NO_PROPERTIES: Property[] = [];

/** The feature flags from `/api/properties`, read once the user is signed in. */
export function useFeatureFlags(): FeatureFlags {
  const { status } = useCurrentAccess();
  const query = useQuery({ ...propertiesQueryOptions(), enabled: status === 'signed-in' });
  const properties = query.data ?? NO_PROPERTIES;
  const isEnabled = useCallback((feature: Feature) => isFeatureEnabled(properties, feature), [properties]);
  // A failed load must not lock the console: every area then counts as enabled and the server,
  // which checks the flags itself, has the last word.
  return { isLoading: status !== 'signed-in' || query.isPending, properties, isEnabled };
}
