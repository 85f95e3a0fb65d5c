import {
  resourceSearchResponseSchema,
  type ResourceSearchKind,
  type ResourceSearchResult,
} from '@opsdeck/contracts';
import { apiFetch } from '../../lib/api-client';
import type { ResourceOption } from './resource-selector';

/** Results one selector asks for: enough to need the windowed list past 20. */
export const RESOURCE_SEARCH_LIMIT = 100;

function toOption(result: ResourceSearchResult): ResourceOption {
  return {
    id: result.id,
    name: result.name,
    type: result.type ?? undefined,
    icon: result.icon ?? undefined,
  };
}

/**
 * POST /api/resources/search for one kind: what the user typed goes as the selector's `search`,
 * so the hint's `name=`, `type=` and `health=` words are the server's to read (core §5, §7).
 */
export async function searchResourcesOfKind(
  kind: ResourceSearchKind,
  query: string,
  signal?: AbortSignal,
): Promise<ResourceOption[]> {
  const body = await apiFetch(
    '/api/resources/search',
    {
      method: 'POST',
      body: JSON.stringify({ [kind]: [{ search: query, limit: RESOURCE_SEARCH_LIMIT }] }),
      signal,
    },
    { schema: resourceSearchResponseSchema },
  );
  return body[kind].map(toOption);
}

/** A `search` prop for ResourceSelector bound to one kind (stable per kind, so no re-search on render). */
const searchers = new Map<
  ResourceSearchKind,
  (query: string, signal: AbortSignal) => Promise<ResourceOption[]>
>();
export function resourceSearchOf(kind: ResourceSearchKind) {
  let searcher = searchers.get(kind);
  if (!searcher) {
    searcher = (query: string, signal: AbortSignal) => searchResourcesOfKind(kind, query, signal);
    searchers.set(kind, searcher);
  }
  return searcher;
}
