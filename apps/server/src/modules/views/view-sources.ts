/**
 * The rows of a view's named queries: config items, changes, checks and components through the
 * read-only relations their modules expose to the data API (`configs`, `config_changes`,
 * `checks`, `components`), and Prometheus through its HTTP query API.
 */
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';

type Queryable = Pool | PoolClient;
export type QueryRow = Record<string, unknown>;

/** A selector after its variables were filled in. */
export interface Selector {
  id?: string;
  name?: string;
  namespace?: string;
  types?: string[];
  statuses?: string[];
  health?: string;
  tagSelector?: string;
  labelSelector?: string;
  search?: string;
  limit?: number;
}

/** The cap on rows one query may return (a view is a table people page through, not an export). */
export const MAX_QUERY_ROWS = 200_000;

interface SourceTable {
  relation: string;
  /** Columns read (the large document columns stay out). */
  select: string;
  /** The column holding each selector field, or null where the relation has none. */
  name: string | null;
  namespace: string | null;
  type: string | null;
  status: string | null;
  health: string | null;
  tags: string | null;
  labels: string | null;
  deleted: string | null;
  order: string;
}

const SOURCES: Record<'configs' | 'changes' | 'checks' | 'components', SourceTable> = {
  configs: {
    relation: 'config_items',
    select:
      'id, name, namespace, type, config_class, status, health, ready, description, labels, tags, agent_id, ' +
      'cost_per_minute, cost_total_30d, created_at, updated_at',
    name: 'name',
    namespace: 'namespace',
    type: 'type',
    status: 'status',
    health: 'health',
    tags: 'tags',
    labels: 'labels',
    deleted: 'deleted_at',
    order: 'name, id',
  },
  changes: {
    relation: 'config_changes',
    select: 'id, config_id, change_type, severity, source, summary, count, created_by, created_at',
    name: 'summary',
    namespace: null,
    type: 'change_type',
    status: 'severity',
    health: null,
    tags: null,
    labels: null,
    deleted: null,
    order: 'created_at DESC, id',
  },
  checks: {
    relation: 'checks',
    select:
      'id, canary_id, name, namespace, type, status, severity, description, labels, agent_id, last_runtime, ' +
      'last_transition_time, created_at, updated_at',
    name: 'name',
    namespace: 'namespace',
    type: 'type',
    status: 'status',
    health: 'status',
    tags: null,
    labels: 'labels',
    deleted: 'deleted_at',
    order: 'name, id',
  },
  components: {
    relation: 'components',
    select:
      'id, topology_id, parent_id, name, namespace, type, status, health, icon, labels, agent_id, created_at, updated_at',
    name: 'name',
    namespace: 'namespace',
    type: 'type',
    status: 'status',
    health: 'health',
    tags: null,
    labels: 'labels',
    deleted: 'deleted_at',
    order: 'name, id',
  },
};

/** `a=b,c=d` (a label or tag selector's equalities) as a JSON object. */
export function selectorPairs(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const key = part.slice(0, index).replace(/!$/, '').trim();
    const value = part
      .slice(index + 1)
      .replace(/^=/, '')
      .trim();
    if (key !== '' && value !== '') pairs[key] = value;
  }
  return pairs;
}

/** `*` globs in a name become LIKE patterns. */
function likePattern(glob: string): string {
  return glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

export type SourceName = keyof typeof SOURCES;

/** The statement reading a selector's rows (its select list is the source's), with its values. */
export function sourceStatement(
  source: SourceName,
  selector: Selector,
  path: string,
): { text: string; values: unknown[] } {
  const table = SOURCES[source];
  const where: string[] = [];
  const values: unknown[] = [];
  const bind = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (table.deleted) where.push(`${table.deleted} IS NULL`);
  if (selector.id) where.push(`id::text = ${bind(selector.id)}`);
  if (selector.name && table.name) {
    where.push(
      selector.name.includes('*')
        ? `${table.name} LIKE ${bind(likePattern(selector.name))}`
        : `${table.name} = ${bind(selector.name)}`,
    );
  }
  if (selector.namespace && table.namespace) where.push(`${table.namespace} = ${bind(selector.namespace)}`);
  if (selector.types && selector.types.length > 0 && table.type)
    where.push(`${table.type} = ANY(${bind(selector.types)}::text[])`);
  if (selector.statuses && selector.statuses.length > 0 && table.status)
    where.push(`${table.status} = ANY(${bind(selector.statuses)}::text[])`);
  if (selector.health && table.health)
    where.push(`${table.health} = ANY(${bind(selector.health.split(',').map((h) => h.trim()))}::text[])`);
  if (selector.search && table.name)
    where.push(`${table.name} ILIKE ${bind(`%${likePattern(selector.search)}%`)}`);
  const tags = selectorPairs(selector.tagSelector);
  if (Object.keys(tags).length > 0) {
    if (!table.tags)
      throw new HttpError(400, `${path}.tagSelector: ${source} have no tags`, `${path}.tagSelector`);
    where.push(`coalesce(${table.tags}, '{}'::jsonb) @> ${bind(JSON.stringify(tags))}::jsonb`);
  }
  const labels = selectorPairs(selector.labelSelector);
  if (Object.keys(labels).length > 0) {
    if (!table.labels)
      throw new HttpError(400, `${path}.labelSelector: ${source} have no labels`, `${path}.labelSelector`);
    where.push(`coalesce(${table.labels}, '{}'::jsonb) @> ${bind(JSON.stringify(labels))}::jsonb`);
  }
  const limit = Math.min(selector.limit ?? MAX_QUERY_ROWS, MAX_QUERY_ROWS);
  const text =
    `SELECT ${table.select} FROM ${table.relation}` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${table.order} LIMIT ${bind(limit)}`;
  return { text, values };
}

/** Rows of the relation a selector matches, up to its limit (or MAX_QUERY_ROWS). */
export async function selectRows(
  db: Queryable,
  source: SourceName,
  selector: Selector,
  path: string,
): Promise<QueryRow[]> {
  const { rows } = await db.query<QueryRow>(sourceStatement(source, selector, path));
  return rows;
}

const sourceTypes = new Map<SourceName, Map<string, string>>();

/** The source's selected fields and their PostgreSQL types (information_schema's data_type). */
export async function sourceFieldTypes(db: Queryable, source: SourceName): Promise<Map<string, string>> {
  const known = sourceTypes.get(source);
  if (known) return known;
  const table = SOURCES[source];
  const selected = table.select.split(',').map((field) => field.trim());
  const { rows } = await db.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND column_name = ANY($2::text[])`,
    [table.relation, selected],
  );
  const types = new Map(rows.map((row) => [row.column_name, row.data_type]));
  sourceTypes.set(source, types);
  return types;
}

/** Instant-vector results of a PromQL query: each series' labels plus `value` (and `timestamp`). */
export async function prometheusRows(
  url: string,
  query: string,
  path: string,
  signal?: AbortSignal,
): Promise<QueryRow[]> {
  const endpoint = new URL('api/v1/query', url.endsWith('/') ? url : `${url}/`);
  endpoint.searchParams.set('query', query);
  let response: Response;
  try {
    response = await fetch(endpoint, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    throw new HttpError(
      502,
      `${path}: Prometheus at ${url} did not answer: ${(error as Error).message}`,
      path,
    );
  }
  const body = (await response.json().catch(() => null)) as {
    status?: string;
    error?: string;
    data?: { resultType?: string; result?: unknown };
  } | null;
  if (!response.ok || body?.status !== 'success')
    throw new HttpError(
      502,
      `${path}: Prometheus answered ${body?.error ?? `HTTP ${response.status}`}`,
      path,
    );
  const result = body.data?.result;
  if (body.data?.resultType === 'scalar' && Array.isArray(result))
    return [{ value: Number(result[1]), timestamp: new Date(Number(result[0]) * 1000).toISOString() }];
  if (!Array.isArray(result)) return [];
  return result.flatMap((series: unknown) => {
    if (typeof series !== 'object' || series === null) return [];
    const { metric, value } = series as { metric?: Record<string, string>; value?: [number, string] };
    if (!Array.isArray(value)) return [];
    return [
      {
        ...(metric ?? {}),
        value: Number(value[1]),
        timestamp: new Date(Number(value[0]) * 1000).toISOString(),
      },
    ];
  });
}
