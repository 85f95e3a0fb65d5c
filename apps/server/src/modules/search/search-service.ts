import {
  parseResourceSearch,
  RESOURCE_SEARCH_DEFAULT_LIMIT,
  RESOURCE_SEARCH_KINDS,
  type ResourceSearchKind,
  type ResourceSearchRequest,
  type ResourceSearchResponse,
  type ResourceSearchResult,
  type ResourceSelectorInput,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';

/** The agent id of resources that belong to this instance (every table's default). */
const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * How one kind is read: the owning module's public relation and the columns a result and the
 * filters need. Read-only SQL on those relations, the same ones the data API exposes.
 */
interface KindSource {
  relation: string;
  icon: string;
  type: string;
  tags: string;
  /** The column `health=` filters, or undefined when the kind has no health. */
  health?: string;
  /** The column `status=` filters. */
  status?: string;
  namespace: string;
}

const SOURCES: Record<ResourceSearchKind, KindSource> = {
  checks: {
    relation: 'checks',
    icon: 'icon',
    type: 'type',
    tags: 'labels',
    health: 'status',
    status: 'status',
    namespace: 'namespace',
  },
  components: {
    relation: 'components',
    icon: 'icon',
    type: 'type',
    tags: 'labels',
    health: 'health',
    status: 'status',
    namespace: 'namespace',
  },
  configs: {
    relation: 'config_items',
    // A config has no icon of its own: its type picks one (ResourceIcon in the web app).
    icon: 'NULL::text',
    type: 'type',
    tags: 'tags',
    health: 'health',
    status: 'status',
    namespace: 'namespace',
  },
  connections: {
    relation: 'connections',
    icon: 'NULL::text',
    type: 'type',
    tags: 'labels',
    namespace: 'namespace',
  },
  playbooks: {
    relation: 'playbooks',
    icon: "spec->>'icon'",
    type: 'NULL::text',
    tags: 'labels',
    namespace: 'namespace',
  },
};

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Escapes LIKE wildcards so what the user typed matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * One selector as SQL with bound parameters only. A filter a kind cannot honour (health of a
 * connection) matches nothing rather than everything: the user asked for healthy things.
 */
function selectorQuery(
  kind: ResourceSearchKind,
  selector: ResourceSelectorInput,
): { sql: string; values: unknown[] } {
  const source = SOURCES[kind];
  const values: unknown[] = [];
  const where = ['deleted_at IS NULL'];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const { text, filters } = parseResourceSearch(selector.search ?? '');
  if (text) where.push(`name ILIKE ${bind(likePattern(text))}`);
  const name = selector.name ?? filters.name;
  if (name) where.push(`lower(name) = lower(${bind(name)})`);
  if (filters.type) where.push(`${source.type} = ANY(${bind(commaList(filters.type))}::text[])`);
  if (filters.namespace)
    where.push(`${source.namespace} = ANY(${bind(commaList(filters.namespace))}::text[])`);
  for (const key of ['health', 'status'] as const) {
    const value = filters[key];
    if (!value) continue;
    const column = source[key];
    where.push(column ? `lower(${column}) = ANY(${bind(commaList(value.toLowerCase()))}::text[])` : 'false');
  }
  const agent = selector.agent ?? filters.agent;
  if (agent && agent !== 'all')
    where.push(`agent_id::text = ${bind(agent === 'local' ? LOCAL_AGENT_ID : agent)}`);
  const limit = bind(selector.limit ?? RESOURCE_SEARCH_DEFAULT_LIMIT);
  return {
    sql: `SELECT id::text AS id, name, ${source.icon} AS icon, ${source.type} AS type, ${source.tags} AS tags
            FROM ${source.relation}
           WHERE ${where.join(' AND ')}
           ORDER BY lower(name), id
           LIMIT ${limit}`,
    values,
  };
}

/** The results of a kind's selectors, in selector order, each resource once. */
async function searchKind(
  pool: Pool,
  kind: ResourceSearchKind,
  selectors: readonly ResourceSelectorInput[],
): Promise<ResourceSearchResult[]> {
  const seen = new Set<string>();
  const results: ResourceSearchResult[] = [];
  for (const selector of selectors) {
    const { sql, values } = selectorQuery(kind, selector);
    const { rows } = await pool.query<ResourceSearchResult>(sql, values);
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      results.push(row);
    }
  }
  return results;
}

/**
 * POST /resources/search (core §7): each requested kind's selectors; a kind not asked for, or one
 * the caller may not read (`mayRead` false), comes back as an empty list.
 */
export async function searchResources(
  pool: Pool,
  request: ResourceSearchRequest,
  mayRead: (kind: ResourceSearchKind) => Promise<boolean>,
): Promise<ResourceSearchResponse> {
  const entries = await Promise.all(
    RESOURCE_SEARCH_KINDS.map(async (kind) => {
      const selectors = request[kind] ?? [];
      if (selectors.length === 0 || !(await mayRead(kind))) return [kind, []] as const;
      return [kind, await searchKind(pool, kind, selectors)] as const;
    }),
  );
  return Object.fromEntries(entries) as ResourceSearchResponse;
}
