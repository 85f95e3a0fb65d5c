import { aboutResponseSchema } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { version as packageVersion } from '../../../package.json';
import { apiFetch } from '../../lib/api-client';

/** This build's version: VITE_APP_VERSION when the release sets it, else the web package's. */
export const FRONTEND_VERSION: string =
  (import.meta.env.VITE_APP_VERSION as string | undefined) || packageVersion;

/** Shown when the backend does not say its version (spec core §2). */
export const UNKNOWN_VERSION = 'NA';

const backendVersionQuery = () =>
  queryOptions({
    queryKey: ['version'],
    queryFn: async () => {
      const { version } = await apiFetch('/api/version', {}, { schema: aboutResponseSchema });
      return version || UNKNOWN_VERSION;
    },
  });

export function useBackendVersion(): string {
  return useQuery(backendVersionQuery()).data ?? UNKNOWN_VERSION;
}
