/** `GET /api/canary/api/topology`: components with their children, checks, configs and incidents. */
import { createHash } from 'node:crypto';
import type { TopologyComponent, TopologyResponse, topologyQuerySchema } from '@opsdeck/contracts';
import type { z } from 'zod';
import { parseTristate } from '../catalog/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { andScope, scopeCondition, UNSCOPED, type ComponentScope, type TopologyScopes } from './row-scope.js';
import type { FacetsCache } from './facets-cache.js';
import { normaliseHealth } from './topology-engine.js';

type TopologyQuery = z.output<typeof topologyQuerySchema>;

interface RootRow {
  id: string;
  path: string | null;
}

const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

/** `normaliseHealth` (topology-engine.ts) as SQL: a written health as one of the four. */
function healthSql(column: string): string {
  const lowered = `lower(${column})`;
  return `CASE
    WHEN ${lowered} IN ('healthy', 'unhealthy', 'warning', 'unknown') THEN ${lowered}
    WHEN ${lowered} IN ('ok', 'pass', 'passing', 'up', 'running', 'online') THEN 'healthy'
    WHEN ${lowered} IN ('error', 'fail', 'failed', 'failing', 'down', 'critical', 'offline') THEN 'unhealthy'
    WHEN ${lowered} IN ('warn', 'degraded') THEN 'warning'
    ELSE 'unknown' END`;
}

/** A timestamp as `Date.toISOString()` writes it. */
function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const SORT_COLUMNS: Record<string, string> = {
  name: 'c.name',
  type: 'c.type',
  health: `CASE c.health WHEN 'unhealthy' THEN 0 WHEN 'warning' THEN 1 WHEN 'unknown' THEN 2 ELSE 3 END`,
  status: 'c.status',
  created_at: 'c.created_at',
  updated_at: 'c.updated_at',
};

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

class Sql {
  readonly values: unknown[] = [];
  readonly where: string[] = ['c.deleted_at IS NULL'];
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function restrictTo(sql: Sql, scope: ComponentScope | null): void {
  const condition = scopeCondition(scope, 'c', (value) => sql.param(value));
  if (condition) sql.where.push(condition);
}

function fullPath(row: RootRow): string {
  return row.path ? `${row.path}.${row.id}` : row.id;
}

/** Filters that apply to the listed components (roots, or the subtree of `id`). */
function applyFilters(sql: Sql, query: TopologyQuery): void {
  const types = list(query.type);
  if (types.length > 0) sql.where.push(`c.type = ANY(${sql.param(types)}::text[])`);
  const owners = [...list(query.owner), ...list(query.team)];
  if (owners.length > 0) sql.where.push(`c.owner = ANY(${sql.param(owners)}::text[])`);
  const statuses = list(query.status).map((status) => normaliseHealth(status) ?? status);
  if (statuses.length > 0)
    sql.where.push(`coalesce(c.health, 'unknown') = ANY(${sql.param(statuses)}::text[])`);
  if (query.hidden === false) sql.where.push('c.hidden = false');
  if (query.agent_id) sql.where.push(`c.agent_id = ${sql.param(query.agent_id)}`);
  if (query.topology_id) sql.where.push(`c.topology_id = ${sql.param(query.topology_id)}`);
  const labels = parseTristate(query.labels, 'labels');
  for (const [index, entry] of (labels?.include ?? []).entries()) {
    const [key, value] = splitLabel(entry, index);
    sql.where.push(
      `coalesce(c.labels, '{}'::jsonb) @> ${sql.param(JSON.stringify({ [key]: value }))}::jsonb`,
    );
  }
  for (const [index, entry] of (labels?.exclude ?? []).entries()) {
    const [key, value] = splitLabel(entry, index);
    sql.where.push(
      `NOT coalesce(c.labels, '{}'::jsonb) @> ${sql.param(JSON.stringify({ [key]: value }))}::jsonb`,
    );
  }
}

function splitLabel(entry: string, index: number): [string, string] {
  const at = entry.indexOf('=');
  if (at <= 0) throw new HttpError(400, `labels: entry ${index + 1} must be key=value`, 'labels');
  return [entry.slice(0, at), entry.slice(at + 1)];
}

/**
 * One statement that lists the components `listed` selects (columns of `components c`, and an
 * `ord` giving their order) as a JSON array of TopologyComponent, each with its children counts,
 * checks, configs, related components and open incidents. Children and related components count
 * only those the caller may read; checks and configs only those its scopes on `checks` and
 * `config_items` let it read. Built in SQL: the rows never become JS objects on the way out.
 */
function componentsJsonSql(sql: Sql, listed: string, showHidden: boolean, scopes: TopologyScopes): string {
  const scoped = (scope: ComponentScope | null, alias: string) => andScope(scope, alias, sql.values);
  const empty = `'{"healthy":0,"unhealthy":0,"warning":0,"unknown":0}'::json`;
  return `WITH listed AS MATERIALIZED (${listed}),
    kids AS (
      SELECT k.parent_id AS id, json_build_object(
          ${HEALTHS.map((health) => `'${health}', count(*) FILTER (WHERE k.health = '${health}')`).join(', ')}) AS counts
      FROM (SELECT c.parent_id, ${healthSql('c.health')} AS health FROM components c
            WHERE c.parent_id = ANY(ARRAY(SELECT id FROM listed)) AND c.deleted_at IS NULL
              AND (${sql.param(showHidden)}::boolean OR c.hidden = false)${scoped(scopes.components, 'c')}) k
      GROUP BY 1),
    chk AS (
      SELECT r.component_id AS id,
             json_agg(json_build_object('id', ch.id, 'name', ch.name, 'status', ch.status) ORDER BY ch.name) AS list
      FROM check_component_relationships r
      JOIN checks ch ON ch.id = r.check_id AND ch.deleted_at IS NULL
      WHERE r.component_id = ANY(ARRAY(SELECT id FROM listed)) AND r.deleted_at IS NULL${scoped(scopes.checks, 'ch')}
      GROUP BY 1),
    cfg AS (
      SELECT r.component_id AS id,
             json_agg(json_build_object('id', ci.id, 'name', coalesce(ci.name, ci.id::text), 'type', ci.type)
                      ORDER BY coalesce(ci.name, ci.id::text)) AS list
      FROM config_component_relationships r
      JOIN config_items ci ON ci.id = r.config_id AND ci.deleted_at IS NULL
      WHERE r.component_id = ANY(ARRAY(SELECT id FROM listed)) AND r.deleted_at IS NULL${scoped(scopes.configs, 'ci')}
      GROUP BY 1),
    rel AS (
      SELECT r.component_id AS id,
             json_agg(json_build_object('id', c.id, 'name', c.name, 'type', c.type, 'health', ${healthSql('c.health')})
                      ORDER BY c.name, c.id) AS list
      FROM component_relationships r
      JOIN components c ON c.id = r.relationship_id AND c.deleted_at IS NULL
      WHERE r.component_id = ANY(ARRAY(SELECT id FROM listed)) AND r.deleted_at IS NULL${scoped(scopes.components, 'c')}
      GROUP BY 1),
    inc AS (
      SELECT component_id AS id, count(DISTINCT id)::int AS count FROM incidents_by_component
      WHERE component_id = ANY(ARRAY(SELECT id FROM listed)) AND status NOT IN ('closed', 'resolved', 'cancelled')
      GROUP BY 1)
    SELECT coalesce(json_agg(json_build_object(
        'id', l.id, 'topology_id', l.topology_id, 'parent_id', l.parent_id, 'name', l.name, 'type', l.type,
        'icon', l.icon, 'owner', l.owner, 'namespace', l.namespace, 'text', l.text, 'tooltip', l.tooltip,
        'labels', coalesce(l.labels, '{}'::jsonb),
        'properties', CASE WHEN jsonb_typeof(l.properties) = 'array' THEN l.properties ELSE '[]'::jsonb END,
        'health', ${healthSql('l.health')}, 'status', l.status, 'status_reason', l.status_reason,
        'hidden', l.hidden, 'order', l.display_order, 'path', l.path,
        'created_at', ${isoSql('l.created_at')}, 'updated_at', ${isoSql('l.updated_at')},
        'children', coalesce(kids.counts, ${empty}),
        'checks', coalesce(chk.list, '[]'::json),
        'incidents', coalesce(inc.count, 0),
        'configs', coalesce(cfg.list, '[]'::json),
        'relationships', coalesce(rel.list, '[]'::json)
      ) ORDER BY l.ord), '[]'::json)::text AS components
    FROM listed l
    LEFT JOIN kids ON kids.id = l.id LEFT JOIN chk ON chk.id = l.id LEFT JOIN cfg ON cfg.id = l.id
    LEFT JOIN rel ON rel.id = l.id LEFT JOIN inc ON inc.id = l.id`;
}

async function componentsJson(
  pool: Pool,
  sql: Sql,
  listed: string,
  showHidden: boolean,
  scopes: TopologyScopes,
): Promise<string> {
  const text = componentsJsonSql(sql, listed, showHidden, scopes);
  // A named (prepared) statement per distinct text: planning this statement cost about as much
  // as running it; each connection now plans a shape once (texts vary only by the filters used).
  const name = `topology_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  const { rows } = await pool.query<{ components: string }>({ name, text, values: sql.values });
  return rows[0].components;
}

function orderBy(query: TopologyQuery): string {
  const column = SORT_COLUMNS[query.sortBy ?? 'name'];
  const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
  return `c.display_order ASC NULLS LAST, ${column} ${direction} NULLS LAST, c.name, c.id`;
}

interface Facets {
  types: string[];
  teams: string[];
  tags: Record<string, string[]>;
}

/** The types, owners and label values among these components (a subtree's own filters). */
function facetsOf(components: readonly TopologyComponent[]): Facets {
  const types = new Set<string>();
  const teams = new Set<string>();
  const tags = new Map<string, Set<string>>();
  for (const component of components) {
    if (component.type) types.add(component.type);
    if (component.owner) teams.add(component.owner);
    for (const [key, value] of Object.entries(component.labels)) {
      const values = tags.get(key) ?? new Set<string>();
      values.add(value);
      tags.set(key, values);
    }
  }
  const sorted = (values: Iterable<string>) => [...values].sort();
  return {
    types: sorted(types),
    teams: sorted(teams),
    tags: Object.fromEntries([...tags.keys()].sort().map((key) => [key, sorted(tags.get(key) ?? [])])),
  };
}

/**
 * The types, owners and label values of every live component the caller may read (the dashboard's
 * filters), as the JSON object `{"teams":…,"tags":…,"types":…}`. Each reads only its own column
 * (no materialised rows), and labels only of the components that carry any. This scans every
 * component: the cache (facets-cache.ts) keeps it until a component changes.
 */
async function allFacetsJson(pool: Pool, scope: ComponentScope | null): Promise<string> {
  const values: unknown[] = [];
  const visible = `c.deleted_at IS NULL${andScope(scope, 'c', values)}`;
  const facets = await pool.query<{ facets: string }>(
    `SELECT json_build_object(
       'teams', ARRAY(SELECT DISTINCT c.owner FROM components c WHERE ${visible} AND c.owner IS NOT NULL ORDER BY 1),
       'tags', coalesce((SELECT jsonb_object_agg(key, values) FROM (
          SELECT l.key, jsonb_agg(DISTINCT l.value ORDER BY l.value) AS values
          FROM components c CROSS JOIN LATERAL jsonb_each_text(c.labels) AS l(key, value)
          WHERE ${visible} AND c.labels IS NOT NULL AND c.labels <> '{}'::jsonb
          GROUP BY l.key) t), '{}'::jsonb),
       'types', ARRAY(SELECT DISTINCT c.type FROM components c WHERE ${visible} AND c.type IS NOT NULL ORDER BY 1)
     )::text AS facets`,
    values,
  );
  return facets.rows[0].facets;
}

const LISTED_COLUMNS = `c.id, c.topology_id, c.parent_id, c.name, c.type, c.icon, c.owner, c.namespace, c.text,
  c.tooltip, c.labels, c.properties, c.health, c.status, c.status_reason, c.hidden, c.display_order,
  c.path, c.created_at, c.updated_at`;

const HEALTH_STATUSES_JSON = JSON.stringify(HEALTHS);

/** With `id`: that component and its subtree to `depth` (nested unless `flatten`), and the filter values found in it. */
async function subtree(
  pool: Pool,
  id: string,
  query: TopologyQuery,
  scopes: TopologyScopes,
): Promise<TopologyResponse> {
  const scope = scopes.components;
  const showHidden = query.hidden !== false;
  const lookup = new Sql();
  lookup.where.push(`c.id = ${lookup.param(id)}`);
  restrictTo(lookup, scope);
  const found = await pool.query<RootRow>(
    `SELECT c.id, c.path FROM components c WHERE ${lookup.where.join(' AND ')}`,
    lookup.values,
  );
  const root = found.rows[0];
  if (!root) throw new HttpError(404, 'Component not found', 'id');
  const depth = query.depth ?? 3;
  const sql = new Sql();
  const rootWhere = [...sql.where, `c.id = ${sql.param(root.id)}`];
  const prefix = fullPath(root);
  sql.where.push(`(c.path = ${sql.param(prefix)} OR c.path LIKE ${sql.param(`${prefix}.%`)})`);
  const base = (root.path ? root.path.split('.').length : 0) + 1;
  sql.where.push(`(cardinality(string_to_array(c.path, '.')) - ${sql.param(base)}) < ${sql.param(depth)}`);
  if (!showHidden) sql.where.push('c.hidden = false');
  restrictTo(sql, scope);
  const listed = `SELECT ${LISTED_COLUMNS}, 0::bigint AS ord FROM components c WHERE ${rootWhere.join(' AND ')}
    UNION ALL
    SELECT ${LISTED_COLUMNS}, row_number() OVER (ORDER BY ${orderBy(query)}) AS ord
    FROM components c WHERE ${sql.where.join(' AND ')}`;
  const all = JSON.parse(await componentsJson(pool, sql, listed, showHidden, scopes)) as TopologyComponent[];
  const facets = facetsOf(all);
  let components: TopologyComponent[] = all;
  if (!query.flatten) {
    const byId = new Map(all.map((component) => [component.id, component]));
    for (const component of all.slice(1)) {
      const parent = component.parent_id ? byId.get(component.parent_id) : undefined;
      if (parent) (parent.components ??= []).push(component);
    }
    components = all.slice(0, 1);
  }
  return { components, healthStatuses: [...HEALTHS], ...facets };
}

/**
 * Without `id`: the roots (or, with `flatten`, every component) matching the filters, and the
 * filter values of all live components, as the response's JSON text: the components are written
 * by PostgreSQL, the filter values come from the cache when no component changed.
 */
async function rootsJson(
  pool: Pool,
  query: TopologyQuery,
  scopes: TopologyScopes,
  cache: FacetsCache | undefined,
): Promise<string> {
  const scope = scopes.components;
  const sql = new Sql();
  if (!query.flatten) {
    // With a row scope the roots are the topmost components the caller may read.
    const parentVisible = scopeCondition(scope, 'p', (value) => sql.param(value));
    sql.where.push(
      parentVisible
        ? `(c.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM components p WHERE p.id = c.parent_id AND p.deleted_at IS NULL AND ${parentVisible}))`
        : 'c.parent_id IS NULL',
    );
  }
  applyFilters(sql, query);
  restrictTo(sql, scope);
  // The filter values do not depend on the listed rows: read them meanwhile.
  const facetsRead = cache ? cache.read(scope, () => allFacetsJson(pool, scope)) : allFacetsJson(pool, scope);
  facetsRead.catch(() => undefined);
  const listed = `SELECT ${LISTED_COLUMNS}, row_number() OVER (ORDER BY ${orderBy(query)}) AS ord
    FROM components c WHERE ${sql.where.join(' AND ')}`;
  const components = await componentsJson(pool, sql, listed, query.hidden !== false, scopes);
  const facets = await facetsRead;
  // facets is the object {"teams":…,"tags":…,"types":…}: its members follow the components.
  return `{"components":${components},"healthStatuses":${HEALTH_STATUSES_JSON},${facets.slice(1)}`;
}

/**
 * `GET /api/canary/api/topology` as JSON text (what the route sends). Without `id`: the roots (or,
 * with `flatten`, every component) matching the filters, and the filter values of all live
 * components. With `id`: that component and its subtree, and the filter values found in it.
 */
export async function queryTopologyJson(
  pool: Pool,
  query: TopologyQuery,
  scopes: TopologyScopes = UNSCOPED,
  cache?: FacetsCache,
): Promise<string> {
  if (query.id) return JSON.stringify(await subtree(pool, query.id, query, scopes));
  return await rootsJson(pool, query, scopes, cache);
}

/** `queryTopology` as an object (the snapshot archive, tests). */
export async function queryTopology(
  pool: Pool,
  query: TopologyQuery,
  scopes: TopologyScopes = UNSCOPED,
  cache?: FacetsCache,
): Promise<TopologyResponse> {
  if (query.id) return await subtree(pool, query.id, query, scopes);
  return JSON.parse(await rootsJson(pool, query, scopes, cache)) as TopologyResponse;
}
