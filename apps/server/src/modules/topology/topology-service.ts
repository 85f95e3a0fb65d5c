/** `GET /api/canary/api/topology`: components with their children, checks, configs and incidents. */
import type {
  ComponentHealth,
  ComponentProperty,
  TopologyComponent,
  TopologyResponse,
  topologyQuerySchema,
} from '@opsdeck/contracts';
import type { z } from 'zod';
import { parseTristate } from '../catalog/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { andScope, scopeCondition, UNSCOPED, type ComponentScope, type TopologyScopes } from './row-scope.js';
import { normaliseHealth } from './topology-engine.js';

type TopologyQuery = z.output<typeof topologyQuerySchema>;

interface ComponentRow {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  name: string;
  type: string | null;
  icon: string | null;
  owner: string | null;
  namespace: string | null;
  text: string | null;
  tooltip: string | null;
  labels: Record<string, string> | null;
  properties: ComponentProperty[] | null;
  health: string | null;
  status: string | null;
  status_reason: string | null;
  hidden: boolean;
  display_order: number | null;
  path: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `c.id, c.topology_id, c.parent_id, c.name, c.type, c.icon, c.owner, c.namespace, c.text,
  c.tooltip, c.labels, c.properties, c.health, c.status, c.status_reason, c.hidden, c.display_order,
  c.path, c.created_at, c.updated_at`;

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

function fullPath(row: Pick<ComponentRow, 'id' | 'path'>): string {
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

function emptyCounts(): TopologyComponent['children'] {
  return { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 };
}

function toComponent(row: ComponentRow): TopologyComponent {
  return {
    id: row.id,
    topology_id: row.topology_id,
    parent_id: row.parent_id,
    name: row.name,
    type: row.type,
    icon: row.icon,
    owner: row.owner,
    namespace: row.namespace,
    text: row.text,
    tooltip: row.tooltip,
    labels: row.labels ?? {},
    properties: Array.isArray(row.properties) ? row.properties : [],
    health: (normaliseHealth(row.health) ?? 'unknown') as ComponentHealth,
    status: row.status,
    status_reason: row.status_reason,
    hidden: row.hidden,
    order: row.display_order,
    path: row.path,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    children: emptyCounts(),
    checks: [],
    incidents: 0,
    configs: [],
    relationships: [],
  };
}

/**
 * Children counts, checks, configs, related components and open incidents, in five queries run
 * side by side. Children and related components count only those the caller may read; checks and
 * configs only those its scopes on `checks` and `config_items` let it read.
 */
async function decorate(
  pool: Pool,
  components: TopologyComponent[],
  showHidden: boolean,
  scopes: TopologyScopes,
): Promise<void> {
  if (components.length === 0) return;
  const byId = new Map(components.map((component) => [component.id, component]));
  const ids = [...byId.keys()];
  const scoped = andScope;
  const childValues: unknown[] = [ids, showHidden];
  const checkValues: unknown[] = [ids];
  const configValues: unknown[] = [ids];
  const relatedValues: unknown[] = [ids];
  const [children, checks, configs, related, incidents] = await Promise.all([
    pool.query<{ parent_id: string; health: string; count: number }>(
      `SELECT c.parent_id, coalesce(c.health, 'unknown') AS health, count(*)::int AS count FROM components c
       WHERE c.parent_id = ANY($1::uuid[]) AND c.deleted_at IS NULL AND ($2 OR c.hidden = false)${scoped(scopes.components, 'c', childValues)}
       GROUP BY 1, 2`,
      childValues,
    ),
    pool.query<{ component_id: string; id: string; name: string; status: string | null }>(
      `SELECT r.component_id, ch.id, ch.name, ch.status FROM check_component_relationships r
       JOIN checks ch ON ch.id = r.check_id AND ch.deleted_at IS NULL
       WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL${scoped(scopes.checks, 'ch', checkValues)}
       ORDER BY ch.name`,
      checkValues,
    ),
    pool.query<{ component_id: string; id: string; name: string; type: string | null }>(
      `SELECT r.component_id, ci.id, coalesce(ci.name, ci.id::text) AS name, ci.type FROM config_component_relationships r
       JOIN config_items ci ON ci.id = r.config_id AND ci.deleted_at IS NULL
       WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL${scoped(scopes.configs, 'ci', configValues)}
       ORDER BY ci.name`,
      configValues,
    ),
    pool.query<{
      component_id: string;
      id: string;
      name: string;
      type: string | null;
      health: string | null;
    }>(
      `SELECT r.component_id, c.id, c.name, c.type, c.health FROM component_relationships r
       JOIN components c ON c.id = r.relationship_id AND c.deleted_at IS NULL
       WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL${scoped(scopes.components, 'c', relatedValues)}
       ORDER BY c.name, c.id`,
      relatedValues,
    ),
    pool.query<{ component_id: string; count: number }>(
      `SELECT component_id, count(DISTINCT id)::int AS count FROM incidents_by_component
       WHERE component_id = ANY($1::uuid[]) AND status NOT IN ('closed', 'resolved', 'cancelled')
       GROUP BY 1`,
      [ids],
    ),
  ]);
  for (const row of children.rows) {
    const counts = byId.get(row.parent_id)?.children;
    const health = (normaliseHealth(row.health) ?? 'unknown') as ComponentHealth;
    if (counts) counts[health] += row.count;
  }
  for (const row of checks.rows)
    byId.get(row.component_id)?.checks.push({ id: row.id, name: row.name, status: row.status });
  for (const row of configs.rows)
    byId.get(row.component_id)?.configs.push({ id: row.id, name: row.name, type: row.type });
  for (const row of related.rows)
    byId.get(row.component_id)?.relationships.push({
      id: row.id,
      name: row.name,
      type: row.type,
      health: (normaliseHealth(row.health) ?? 'unknown') as ComponentHealth,
    });
  for (const row of incidents.rows) {
    const component = byId.get(row.component_id);
    if (component) component.incidents = row.count;
  }
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
 * filters). Each reads only its own column (no materialised rows), and labels only of the
 * components that carry any: unpacking every component's empty labels was most of its cost.
 */
async function allFacets(pool: Pool, scope: ComponentScope | null): Promise<Facets> {
  const values: unknown[] = [];
  const visible = `c.deleted_at IS NULL${andScope(scope, 'c', values)}`;
  const facets = await pool.query<{
    types: string[];
    teams: string[];
    tags: Record<string, string[]> | null;
  }>(
    `SELECT
       ARRAY(SELECT DISTINCT c.type FROM components c WHERE ${visible} AND c.type IS NOT NULL ORDER BY 1) AS types,
       ARRAY(SELECT DISTINCT c.owner FROM components c WHERE ${visible} AND c.owner IS NOT NULL ORDER BY 1) AS teams,
       (SELECT jsonb_object_agg(key, values) FROM (
          SELECT l.key, jsonb_agg(DISTINCT l.value ORDER BY l.value) AS values
          FROM components c CROSS JOIN LATERAL jsonb_each_text(c.labels) AS l(key, value)
          WHERE ${visible} AND c.labels IS NOT NULL AND c.labels <> '{}'::jsonb
          GROUP BY l.key) t) AS tags`,
    values,
  );
  const facet = facets.rows[0];
  return { types: facet.types, teams: facet.teams, tags: facet.tags ?? {} };
}

/**
 * Without `id`: the roots (or, with `flatten`, every component) matching the filters, and the
 * filter values of all live components. With `id`: that component and its subtree, and the
 * filter values found in it.
 */
export async function queryTopology(
  pool: Pool,
  query: TopologyQuery,
  scopes: TopologyScopes = UNSCOPED,
): Promise<TopologyResponse> {
  const scope = scopes.components;
  const showHidden = query.hidden !== false;
  let listed: TopologyComponent[];
  let facets: Facets;
  if (query.id) {
    const lookup = new Sql();
    lookup.where.push(`c.id = ${lookup.param(query.id)}`);
    restrictTo(lookup, scope);
    const found = await pool.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components c WHERE ${lookup.where.join(' AND ')}`,
      lookup.values,
    );
    const root = found.rows[0];
    if (!root) throw new HttpError(404, 'Component not found', 'id');
    const depth = query.depth ?? 3;
    const sql = new Sql();
    const prefix = fullPath(root);
    sql.where.push(`(c.path = ${sql.param(prefix)} OR c.path LIKE ${sql.param(`${prefix}.%`)})`);
    const base = (root.path ? root.path.split('.').length : 0) + 1;
    sql.where.push(`(cardinality(string_to_array(c.path, '.')) - ${sql.param(base)}) < ${sql.param(depth)}`);
    if (!showHidden) sql.where.push('c.hidden = false');
    restrictTo(sql, scope);
    const { rows } = await pool.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components c WHERE ${sql.where.join(' AND ')} ORDER BY ${orderBy(query)}`,
      sql.values,
    );
    const rootComponent = toComponent(root);
    const all = [rootComponent, ...rows.map(toComponent)];
    await decorate(pool, all, showHidden, scopes);
    facets = facetsOf(all);
    if (query.flatten) listed = all;
    else {
      const byId = new Map(all.map((component) => [component.id, component]));
      for (const component of all.slice(1)) {
        const parent = component.parent_id ? byId.get(component.parent_id) : undefined;
        if (parent) (parent.components ??= []).push(component);
      }
      listed = [rootComponent];
    }
  } else {
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
    const facetsRead = allFacets(pool, scope);
    facetsRead.catch(() => undefined);
    const { rows } = await pool.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components c WHERE ${sql.where.join(' AND ')} ORDER BY ${orderBy(query)}`,
      sql.values,
    );
    listed = rows.map(toComponent);
    await decorate(pool, listed, showHidden, scopes);
    facets = await facetsRead;
  }

  return {
    components: listed,
    healthStatuses: ['healthy', 'unhealthy', 'warning', 'unknown'],
    teams: facets.teams,
    tags: facets.tags,
    types: facets.types,
  };
}
