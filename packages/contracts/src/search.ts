import { z } from 'zod';

/**
 * POST /api/resources/search (spec core §7, settings §8): five lists of selectors in, the same five
 * keys out, each a list of `{id, name, icon, type, tags}`. The resource selector of the web app
 * (core §5) sends what the user typed as a selector's `search`.
 */

/** The kinds a search covers, in the spec's order. */
export const RESOURCE_SEARCH_KINDS = ['checks', 'components', 'configs', 'connections', 'playbooks'] as const;
export type ResourceSearchKind = (typeof RESOURCE_SEARCH_KINDS)[number];

/** Most results of one selector. */
export const RESOURCE_SEARCH_MAX_LIMIT = 100;
/** Results of one selector without a limit. */
export const RESOURCE_SEARCH_DEFAULT_LIMIT = 50;

/** The words of `search` that are `key=value` filters (the selector hint of core §5). */
export const RESOURCE_SEARCH_FILTER_KEYS = [
  'name',
  'type',
  'health',
  'status',
  'namespace',
  'agent',
] as const;
export type ResourceSearchFilterKey = (typeof RESOURCE_SEARCH_FILTER_KEYS)[number];

export const resourceSelectorSchema = z.object({
  /** Free text and `key=value` words: `api type=http health=healthy,unhealthy`. */
  search: z.string().max(500).optional(),
  /** An exact name (matched case-insensitively). */
  name: z.string().max(500).optional(),
  /** An agent id, or 'local' for resources of this instance; any agent without it. */
  agent: z.string().max(100).optional(),
  /** Results wanted, 1–100; default 50. */
  limit: z.number().int().min(1).max(RESOURCE_SEARCH_MAX_LIMIT).optional(),
});
export type ResourceSelectorInput = z.infer<typeof resourceSelectorSchema>;

const selectorList = z.array(resourceSelectorSchema).max(20).optional();

export const resourceSearchRequestSchema = z.object({
  checks: selectorList,
  components: selectorList,
  configs: selectorList,
  connections: selectorList,
  playbooks: selectorList,
});
export type ResourceSearchRequest = z.infer<typeof resourceSearchRequestSchema>;

export const resourceSearchResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  /** A config's tags; the labels of the other kinds. */
  tags: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ResourceSearchResult = z.infer<typeof resourceSearchResultSchema>;

const resultList = z.array(resourceSearchResultSchema);
export const resourceSearchResponseSchema = z.object({
  checks: resultList,
  components: resultList,
  configs: resultList,
  connections: resultList,
  playbooks: resultList,
});
export type ResourceSearchResponse = z.infer<typeof resourceSearchResponseSchema>;

export interface ParsedResourceSearch {
  /** Words that are not filters, joined by spaces: matched anywhere in the name. */
  text: string;
  /** Known `key=value` filters; values of health, status and type may be comma lists. */
  filters: Partial<Record<ResourceSearchFilterKey, string>>;
}

function isFilterKey(key: string): key is ResourceSearchFilterKey {
  return (RESOURCE_SEARCH_FILTER_KEYS as readonly string[]).includes(key);
}

/** Splits a selector's `search` into free text and filters; unknown keys count as text. */
export function parseResourceSearch(search: string): ParsedResourceSearch {
  const words: string[] = [];
  const filters: ParsedResourceSearch['filters'] = {};
  for (const token of search.trim().split(/\s+/).filter(Boolean)) {
    const separator = token.indexOf('=');
    const key = token.slice(0, separator).toLowerCase();
    if (separator > 0 && separator < token.length - 1 && isFilterKey(key))
      filters[key] = token.slice(separator + 1);
    else words.push(token);
  }
  return { text: words.join(' '), filters };
}
