/** The selector hint (core §5, settings §5). */
export const RESOURCE_QUERY_HINT = 'name=..., type=... or health=healthy,unhealthy';

export interface ResourceQuery {
  /** Words that are not key=value pairs, joined by spaces: a free-text search. */
  search: string;
  /** key=value pairs, e.g. { name: 'api', health: 'healthy,unhealthy' }. Later keys win. */
  filters: Record<string, string>;
}

/** Splits what the user typed into free text and key=value filters. */
export function parseResourceQuery(text: string): ResourceQuery {
  const words: string[] = [];
  const filters: Record<string, string> = {};
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const separator = token.indexOf('=');
    if (separator > 0 && separator < token.length - 1)
      filters[token.slice(0, separator)] = token.slice(separator + 1);
    else words.push(token);
  }
  return { search: words.join(' '), filters };
}
