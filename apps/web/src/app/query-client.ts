import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { redirectToLogin } from '../features/auth';
import { handleRequestError, isUnauthorized } from './request-errors';

/** Default stale time for cached queries (spec core §9). */
export const DEFAULT_STALE_TIME_MS = 300_000;

/**
 * The app's query client. apiFetch reports a 401 to the unauthorized handler itself; the caches
 * repeat it for requests made without apiFetch (those reading response headers), and show the
 * connectivity toasts.
 */
export function createQueryClient(onUnauthorized: () => void = redirectToLogin): QueryClient {
  const onError = (error: unknown) => handleRequestError(error, onUnauthorized);
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      // TanStack Query's default ('online') pauses requests while the browser is offline, so a
      // save made offline sat on "Creating.." for ever. Sent anyway, they fail at once and the
      // cache's onError shows 'No internet connection. Please try again.' (core §8).
      mutations: { networkMode: 'always' },
      queries: {
        networkMode: 'always',
        staleTime: DEFAULT_STALE_TIME_MS,
        // Retrying a 401 or 403 cannot succeed and only delays the redirect or the message.
        retry: (failureCount, error) =>
          failureCount < 1 &&
          !isUnauthorized(error) &&
          !(error instanceof Error && 'status' in error && error.status === 403),
      },
    },
  });
}
