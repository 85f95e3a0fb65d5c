import { featureDisableProperties, type Feature } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api-client';
import { useCurrentAccess } from './access-context';

/** A row of `GET /api/properties`. */
export interface Property {
  name: string;
  value: string;
  source?: string;
  type?: string | null;
  description?: string | null;
}

export const PROPERTIES_QUERY_KEY = ['properties'] as const;

function parseProperties(body: unknown): Property[] {
  if (!Array.isArray(body)) return [];
  return body.flatMap((row: unknown) => {
    if (!row || typeof row !== 'object') return [];
    const record = row as Record<string, unknown>;
    if (typeof record.name !== 'string') return [];
    return [
      {
        name: record.name,
        value: typeof record.value === 'string' ? record.value : String(record.value ?? ''),
        source: typeof record.source === 'string' ? record.source : undefined,
        type: typeof record.type === 'string' ? record.type : null,
        description: typeof record.description === 'string' ? record.description : null,
      },
    ];
  });
}

export const propertiesQueryOptions = () =>
  queryOptions({
    queryKey: PROPERTIES_QUERY_KEY,
    queryFn: async () => parseProperties(await apiFetch<unknown>('/api/properties')),
  });

/**
 * Spec core §6: an area is off when the property '{feature}.disable' is 'true'; a few settings
 * areas also follow the area they belong to.
 */
export function isFeatureEnabled(properties: readonly Property[], feature: Feature): boolean {
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
