import {
  actionCovers,
  relationAccess,
  type Feature,
  type RequestedAction,
  type Resource,
} from '@opsdeck/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { authPoolOf } from './auth-plugin.js';
import { featureDisabledMessage, featureOfResource, isFeatureEnabled } from './feature-flags.js';
import type { RowFilter } from '../../data-api/row-filters.js';
import {
  authorize,
  tokenScopesAllow,
  type AuthContext,
  type AuthorizeOptions,
  type Decision,
  type GrantedPermission,
} from './rbac.js';

export type DataApiAction = 'read' | 'insert' | 'update' | 'delete' | 'execute';

export interface DataApiTarget {
  relation: string;
  kind: 'table' | 'view' | 'function';
}

export type DataApiAuthorizer = (
  request: FastifyRequest,
  target: DataApiTarget,
  action: DataApiAction,
) => Promise<
  { allow: true; rowFilters?: readonly RowFilter[] } | { allow: false; status: 401 | 403; message: string }
>;

const DATA_API_ACTIONS: Record<DataApiAction, RequestedAction> = {
  read: 'read',
  insert: 'create',
  update: 'update',
  delete: 'delete',
  // Every function clients call through rpc/ only reads.
  execute: 'read',
};

/** Roles, permissions and token scopes, then the area's feature flag. */
export async function authorizeRequest(
  pool: Pool,
  request: FastifyRequest,
  resource: Resource,
  action: RequestedAction,
  options: AuthorizeOptions & { feature?: Feature | null } = {},
): Promise<Decision> {
  const decision = authorize(request.auth, resource, action, options);
  if (!decision.allow) return decision;
  const feature = options.feature === undefined ? featureOfResource(resource) : options.feature;
  if (feature && !(await isFeatureEnabled(pool, feature))) {
    return { allow: false, status: 403, message: featureDisabledMessage(feature) };
  }
  return decision;
}

/**
 * Feature checks of one request: the data API asks for every relation a request touches (an
 * incident with its hypotheses, evidences and config items is four relations of two areas), and
 * each area is read once per request — never cached across requests, so a flag turned off on one
 * replica applies everywhere at once.
 */
const featureChecksByRequest = new WeakMap<FastifyRequest, Map<Feature, Promise<boolean>>>();

function featureEnabledForRequest(pool: Pool, request: FastifyRequest, feature: Feature): Promise<boolean> {
  let checks = featureChecksByRequest.get(request);
  if (!checks) {
    checks = new Map();
    featureChecksByRequest.set(request, checks);
  }
  let check = checks.get(feature);
  if (!check) {
    check = isFeatureEnabled(pool, feature);
    // A failed read is not remembered: the next relation asks again (and fails the same way).
    check.catch(() => checks.delete(feature));
    checks.set(feature, check);
  }
  return check;
}

/**
 * The data API's gate: maps the relation to its resource (contracts' DATA_API_RELATIONS) and
 * decides the action for the caller before any SQL runs. Permission rows limited by object
 * selectors, tags, agents or a single target become row restrictions the data API compiles into
 * its SQL: an allow row grants the matching rows of a resource the roles do not give, a deny row
 * hides (and protects) the matching rows even where the roles allow the resource.
 */
export function createDataApiAuthorizer(options: { pool: Pool }): DataApiAuthorizer {
  return async (request, target, action) => {
    const access = relationAccess(target.relation);
    const requested = DATA_API_ACTIONS[action];
    const resource = requested === 'read' ? access.resource : (access.writeResource ?? access.resource);
    const auth = request.auth;
    let decision: Decision & { rowFilters?: readonly RowFilter[] } = authorize(
      auth,
      resource,
      requested,
      access.object ? { object: access.object } : {},
    );
    const scope = ROW_SCOPED_RELATIONS[target.relation];
    if (auth && scope && hasScopedPermissions(auth)) {
      const scoped = await scopedPermissionsOf(options.pool, request, auth);
      const restriction = rowRestriction(scoped, scope, access.object, requested);
      if (decision.allow) {
        if (restriction.deny)
          decision = { allow: true, rowFilters: [{ kind: 'not', filter: restriction.deny }] };
      } else if (restriction.allow && mayUseRowGrants(auth, access.object, requested)) {
        const rowFilters: RowFilter[] = [restriction.allow];
        if (restriction.deny) rowFilters.push({ kind: 'not', filter: restriction.deny });
        decision = { allow: true, rowFilters };
      }
    }
    if (!decision.allow) return decision;
    const feature = access.feature ?? null;
    if (feature && !(await featureEnabledForRequest(options.pool, request, feature))) {
      return { allow: false, status: 403, message: featureDisabledMessage(feature) };
    }
    return decision;
  };
}

// ---------------------------------------------------------------------------------------------
// Row-level permissions (settings spec §3, permission entity: object_selector, tags, agents)

/** A table whose rows permission selectors match, and the columns the matching may use. */
interface ScopeBase {
  readonly table: string;
  /** object_selector keys whose selectors match rows of this table. */
  readonly selectorKey:
    'configs' | 'checks' | 'canaries' | 'playbooks' | 'components' | 'connections' | 'topologies';
  /** The single-target column of a permission row that names one row of this table (none for topologies). */
  readonly target?: 'config_id' | 'check_id' | 'canary_id' | 'playbook_id' | 'component_id' | 'connection_id';
  /** `tags` where the table has them; otherwise tags match `labels`. */
  readonly tagsColumn: 'tags' | 'labels';
  readonly columns: ReadonlySet<string>;
}

const COMMON_COLUMNS = ['id', 'name', 'namespace', 'labels', 'agent_id'];

const BASES: Record<ScopeBase['selectorKey'], ScopeBase> = {
  configs: {
    table: 'config_items',
    selectorKey: 'configs',
    target: 'config_id',
    tagsColumn: 'tags',
    columns: new Set([...COMMON_COLUMNS, 'tags', 'type', 'status', 'health']),
  },
  checks: {
    table: 'checks',
    selectorKey: 'checks',
    target: 'check_id',
    tagsColumn: 'labels',
    columns: new Set([...COMMON_COLUMNS, 'type', 'status']),
  },
  canaries: {
    table: 'canaries',
    selectorKey: 'canaries',
    target: 'canary_id',
    tagsColumn: 'labels',
    columns: new Set(COMMON_COLUMNS),
  },
  playbooks: {
    table: 'playbooks',
    selectorKey: 'playbooks',
    target: 'playbook_id',
    tagsColumn: 'labels',
    columns: new Set(COMMON_COLUMNS),
  },
  components: {
    table: 'components',
    selectorKey: 'components',
    target: 'component_id',
    tagsColumn: 'labels',
    columns: new Set([...COMMON_COLUMNS, 'type', 'status', 'health']),
  },
  connections: {
    table: 'connections',
    selectorKey: 'connections',
    target: 'connection_id',
    tagsColumn: 'labels',
    columns: new Set([...COMMON_COLUMNS, 'type']),
  },
  topologies: {
    table: 'topologies',
    selectorKey: 'topologies',
    tagsColumn: 'labels',
    columns: new Set(COMMON_COLUMNS),
  },
};

/** One step from a relation's row to rows of `relation` whose `column` equals the row's `from`. */
type Hop = readonly [relation: string, column: string, from: string];

/** How rows of a relation reach the base rows permission rows match. */
interface ScopeLink {
  readonly base: ScopeBase;
  /** Steps from the relation to the base table; empty when the relation is the base table. */
  readonly path: readonly Hop[];
  /**
   * Only permission rows that name base rows (a target or an object selector) apply through this
   * link: a check inherits what names its canary, not a tag rule about canaries' labels.
   */
  readonly namedOnly?: boolean;
}

/**
 * The row scope of a relation. `any`: a row matches a permission row when one link does (a
 * check by itself or through its canary, an incident through any config item, component or
 * check its evidences reference). `all`: allow rows must match every link (both ends of a
 * config relationship); a deny row matching any link hides the row either way.
 */
export interface RowScope {
  readonly links: readonly ScopeLink[];
  readonly combine: 'any' | 'all';
  /** Permission rows apply only when their object is this one or `*` (incidents). */
  readonly object?: string;
}

/** `key` of the relation holds the id of a base row (the relation is the base table when it is `id` there). */
function linkTo(base: ScopeBase, relation: string, key: string, namedOnly = false): ScopeLink {
  return { base, path: relation === base.table && key === 'id' ? [] : [[base.table, 'id', key]], namedOnly };
}

function scoped(base: ScopeBase, relations: Record<string, string>): Record<string, RowScope> {
  return Object.fromEntries(
    Object.entries(relations).map(([relation, key]) => [
      relation,
      { links: [linkTo(base, relation, key)], combine: 'any' },
    ]),
  );
}

/** Checks, their statuses and check views: the check's own scope, and its canary's named rules. */
function checkScopes(
  relations: Record<string, { check: string; canary?: string }>,
): Record<string, RowScope> {
  return Object.fromEntries(
    Object.entries(relations).map(([relation, { check, canary }]) => {
      const own = linkTo(BASES.checks, relation, check);
      const parent: ScopeLink = canary
        ? { base: BASES.canaries, path: [['canaries', 'id', canary]], namedOnly: true }
        : {
            base: BASES.canaries,
            path: [...own.path, ['canaries', 'id', 'canary_id']],
            namedOnly: true,
          };
      return [relation, { links: [own, parent], combine: 'any' } satisfies RowScope];
    }),
  );
}

/**
 * Incident rows are scoped by what their evidences are about: an incident matches a permission
 * row (whose object is `incident` or `*`) when one of its hypotheses' evidences references a
 * config item, component or check (or a check of a canary) the row matches. `toIncidentEvidences`
 * are the steps from the relation to the incident's evidences.
 */
function incidentScope(toEvidences: readonly Hop[]): RowScope {
  return {
    object: 'incident',
    combine: 'any',
    links: [
      { base: BASES.configs, path: [...toEvidences, ['config_items', 'id', 'config_id']] },
      { base: BASES.components, path: [...toEvidences, ['components', 'id', 'component_id']] },
      { base: BASES.checks, path: [...toEvidences, ['checks', 'id', 'check_id']] },
      {
        base: BASES.canaries,
        path: [...toEvidences, ['checks', 'id', 'check_id'], ['canaries', 'id', 'canary_id']],
        namedOnly: true,
      },
    ],
  };
}

const EVIDENCES_OF_INCIDENT: Hop = ['evidences', 'hypothesis_id', 'id'];

export const ROW_SCOPED_RELATIONS: Readonly<Record<string, RowScope>> = {
  ...scoped(BASES.configs, {
    config_items: 'id',
    configs: 'id',
    config_detail: 'id',
    config_names: 'id',
    config_changes: 'config_id',
    config_analysis: 'config_id',
    config_analysis_items: 'config_id',
    config_component_relationships: 'config_id',
  }),
  // An edge is visible when both of its ends are.
  config_relationships: {
    combine: 'all',
    links: [
      linkTo(BASES.configs, 'config_relationships', 'config_id'),
      linkTo(BASES.configs, 'config_relationships', 'related_id'),
    ],
  },
  ...checkScopes({
    checks: { check: 'id', canary: 'canary_id' },
    check_names: { check: 'id', canary: 'canary_id' },
    check_statuses: { check: 'check_id' },
    checks_by_component: { check: 'id', canary: 'canary_id' },
    check_summary_for_config: { check: 'id', canary: 'canary_id' },
    check_component_relationships: { check: 'check_id', canary: 'canary_id' },
    check_config_relationships: { check: 'check_id', canary: 'canary_id' },
  }),
  ...scoped(BASES.canaries, { canaries: 'id', canary_names: 'id', canaries_with_status: 'id' }),
  ...scoped(BASES.playbooks, { playbooks: 'id', playbook_names: 'id', playbook_runs: 'playbook_id' }),
  ...Object.fromEntries(
    ['components', 'component_names', 'components_with_logs'].map((relation) => [
      relation,
      {
        combine: 'any',
        links: [
          linkTo(BASES.components, relation, 'id'),
          { base: BASES.topologies, path: [['topologies', 'id', 'topology_id']], namedOnly: true },
        ],
      } satisfies RowScope,
    ]),
  ),
  ...scoped(BASES.topologies, { topologies: 'id', topologies_with_status: 'id' }),
  // A component's analyses and changes (of the config items linked to it) follow the component.
  ...scoped(BASES.components, {
    analysis_by_component: 'component_id',
    changes_by_component: 'component_id',
  }),
  ...scoped(BASES.connections, { connections: 'id' }),
  ...Object.fromEntries(
    ['incidents', 'incident_summary', 'incidents_by_config', 'incidents_by_component'].map((relation) => [
      relation,
      incidentScope([['hypotheses', 'incident_id', 'id'], EVIDENCES_OF_INCIDENT]),
    ]),
  ),
  ...Object.fromEntries(
    ['hypotheses', 'comments', 'responders', 'incident_histories'].map((relation) => [
      relation,
      incidentScope([['hypotheses', 'incident_id', 'incident_id'], EVIDENCES_OF_INCIDENT]),
    ]),
  ),
  evidences: incidentScope([
    ['hypotheses', 'id', 'hypothesis_id'],
    ['hypotheses', 'incident_id', 'incident_id'],
    EVIDENCES_OF_INCIDENT,
  ]),
};

const TARGET_COLUMNS = [
  'config_id',
  'component_id',
  'canary_id',
  'check_id',
  'playbook_id',
  'connection_id',
] as const;

function isTargeted(permission: GrantedPermission): boolean {
  return TARGET_COLUMNS.some((key) => permission[key] !== null);
}

function hasScopedPermissions(auth: AuthContext): boolean {
  return auth.permissions.some((permission) => permission.restricted || isTargeted(permission));
}

interface ScopedPermission {
  readonly permission: GrantedPermission;
  readonly objectSelector: Record<string, unknown> | null;
  readonly tags: Record<string, unknown> | null;
  readonly agents: readonly string[];
}

const scopedByRequest = new WeakMap<FastifyRequest, Promise<ScopedPermission[]>>();

/** The caller's restricted and targeted permission rows with their selectors (read once per request). */
function scopedPermissionsOf(
  pool: Pool,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<ScopedPermission[]> {
  let found = scopedByRequest.get(request);
  if (!found) {
    const wanted = auth.permissions.filter((permission) => permission.restricted || isTargeted(permission));
    found = pool
      .query<{ id: string; object_selector: unknown; tags: unknown; agents: string[] | null }>(
        'SELECT id, object_selector, tags, agents FROM permissions WHERE id = ANY($1::uuid[])',
        [wanted.map((permission) => permission.id)],
      )
      .then(({ rows }) => {
        const byId = new Map(rows.map((row) => [row.id, row]));
        return wanted.flatMap((permission) => {
          const row = byId.get(permission.id);
          if (!row) return [];
          return [
            {
              permission,
              objectSelector: isObject(row.object_selector) ? row.object_selector : null,
              tags: isObject(row.tags) && Object.keys(row.tags).length > 0 ? row.tags : null,
              agents: (row.agents ?? []).filter((agent) => agent !== ''),
            },
          ];
        });
      });
    found.catch(() => scopedByRequest.delete(request));
    scopedByRequest.set(request, found);
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether row-limited allow rows may grant what the roles refuse: not when an unlimited deny row
 * refuses the action, nor when the token's scopes do not cover it.
 */
function mayUseRowGrants(auth: AuthContext, object: string | undefined, action: RequestedAction): boolean {
  const now = Date.now();
  const deniedOutright = auth.permissions.some(
    (permission) =>
      permission.deny &&
      !permission.restricted &&
      !isTargeted(permission) &&
      (permission.until === null || new Date(permission.until).getTime() > now) &&
      permission.object !== null &&
      (permission.object === object || permission.object === '*') &&
      actionCovers(permission.action, action, 'deny'),
  );
  if (deniedOutright) return false;
  if (auth.token && auth.token.scopes.length > 0) return tokenScopesAllow(auth.token.scopes, object, action);
  return true;
}

/**
 * The rows of the relation the allow rows match, and those the deny rows that apply to the
 * action match (each link's matches OR-ed, then carried to the relation along the link's path).
 */
function rowRestriction(
  permissions: readonly ScopedPermission[],
  scope: RowScope,
  object: string | undefined,
  action: RequestedAction,
): { allow: RowFilter | null; deny: RowFilter | null } {
  const allows: RowFilter[][] = scope.links.map(() => []);
  const denies: RowFilter[][] = scope.links.map(() => []);
  const now = Date.now();
  for (const scopedPermission of permissions) {
    const { permission } = scopedPermission;
    if (permission.until && new Date(permission.until).getTime() <= now) continue;
    if (!actionCovers(permission.action, action, permission.deny ? 'deny' : 'allow')) continue;
    if (scope.object && permission.object !== scope.object && permission.object !== '*') continue;
    const names =
      isTargeted(permission) ||
      (scopedPermission.objectSelector !== null && Object.keys(scopedPermission.objectSelector).length > 0);
    scope.links.forEach((link, i) => {
      if (link.namedOnly && !names) return;
      const match = matchingRows(scopedPermission, link.base, object, permission.deny);
      if (match) (permission.deny ? denies : allows)[i].push(match);
    });
  }
  const onLinks = (perLink: RowFilter[][]): Array<RowFilter | null> =>
    perLink.map((filters, i) => {
      if (filters.length === 0) return null;
      let filter: RowFilter = filters.length === 1 ? filters[0] : { kind: 'or', filters };
      for (const [relation, column, from] of [...scope.links[i].path].reverse()) {
        filter = { kind: 'exists', relation, on: [[column, from]], where: [filter] };
      }
      return filter;
    });
  const any = (filters: Array<RowFilter | null>): RowFilter | null => {
    const present = filters.filter((filter): filter is RowFilter => filter !== null);
    if (present.length === 0) return null;
    return present.length === 1 ? present[0] : { kind: 'or', filters: present };
  };
  const allowLinks = onLinks(allows);
  let allow: RowFilter | null;
  if (scope.combine === 'all') {
    allow = allowLinks.some((filter) => filter === null)
      ? null
      : allowLinks.length === 1
        ? allowLinks[0]
        : { kind: 'and', filters: allowLinks as RowFilter[] };
  } else {
    allow = any(allowLinks);
  }
  return { allow, deny: any(onLinks(denies)) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NEVER: RowFilter = { kind: 'constant', value: false };
const ALWAYS: RowFilter = { kind: 'constant', value: true };

/**
 * The base rows one permission row covers, or null when the row is about other resources. A
 * criterion this gate cannot evaluate fails closed: an allow matches nothing, a deny everything.
 */
function matchingRows(
  scopedPermission: ScopedPermission,
  base: ScopeBase,
  object: string | undefined,
  deny: boolean,
): RowFilter | null {
  const { permission, objectSelector, tags, agents } = scopedPermission;
  const unsupported = deny ? ALWAYS : NEVER;
  // A row about another kind of object (an incident rule naming a config item) does not reach
  // this relation's rows.
  if (permission.object && permission.object !== '*' && permission.object !== object) return null;
  const conditions: RowFilter[] = [];
  const targets = TARGET_COLUMNS.filter((key) => permission[key] !== null);
  if (targets.length > 0) {
    const target = base.target;
    if (!target || targets.some((key) => key !== target)) return null;
    const id = permission[target]!;
    conditions.push(UUID.test(id) ? { kind: 'compare', column: 'id', op: 'eq', value: id } : NEVER);
  } else if (objectSelector && Object.keys(objectSelector).length > 0) {
    const selectors = objectSelector[base.selectorKey];
    if (!Array.isArray(selectors) || selectors.length === 0) return null;
    const alternatives = selectors.map((selector) =>
      isObject(selector) ? (selectorFilter(selector, base) ?? unsupported) : unsupported,
    );
    conditions.push(alternatives.length === 1 ? alternatives[0] : { kind: 'or', filters: alternatives });
  } else if (!permission.object || (permission.object !== object && permission.object !== '*')) {
    return null;
  }
  if (tags) {
    const values = Object.entries(tags);
    conditions.push(
      values.every(([, value]) => typeof value === 'string')
        ? { kind: 'contains', column: base.tagsColumn, value: tags as Record<string, string> }
        : unsupported,
    );
  }
  if (agents.length > 0) conditions.push(agentFilter(agents));
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? conditions[0] : { kind: 'and', filters: conditions };
}

/** Rows of agents given by id or by name. */
function agentFilter(agents: readonly string[]): RowFilter {
  const ids = agents.filter((agent) => UUID.test(agent));
  const names = agents.filter((agent) => !UUID.test(agent));
  const filters: RowFilter[] = [];
  if (ids.length > 0) filters.push({ kind: 'in', column: 'agent_id', values: ids });
  if (names.length > 0) {
    filters.push({
      kind: 'exists',
      relation: 'agents',
      on: [['id', 'agent_id']],
      where: [{ kind: 'in', column: 'name', values: names }],
    });
  }
  return filters.length === 1 ? filters[0] : { kind: 'or', filters };
}

/**
 * One resource selector (id, name with `*` globs, namespace, agent, types, statuses, health,
 * labelSelector, tagSelector) as a filter on the base table; null when it uses anything else.
 */
function selectorFilter(selector: Record<string, unknown>, base: ScopeBase): RowFilter | null {
  const filters: RowFilter[] = [];
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  const list = (value: unknown): string[] | null =>
    Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  for (const [key, value] of Object.entries(selector)) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0))
      continue;
    switch (key) {
      case 'id': {
        const id = text(value);
        if (!id) return null;
        filters.push(UUID.test(id) ? { kind: 'compare', column: 'id', op: 'eq', value: id } : NEVER);
        break;
      }
      case 'name':
      case 'namespace': {
        const pattern = text(value);
        if (!pattern) return null;
        filters.push(
          pattern.includes('*')
            ? {
                kind: 'like',
                column: key,
                pattern: pattern.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '%'),
              }
            : { kind: 'compare', column: key, op: 'eq', value: pattern },
        );
        break;
      }
      case 'agent': {
        const agent = text(value);
        if (!agent) return null;
        filters.push(agentFilter([agent]));
        break;
      }
      case 'types':
      case 'statuses':
      case 'health': {
        const column = key === 'types' ? 'type' : key === 'statuses' ? 'status' : 'health';
        const values = list(value) ?? (text(value) ? [text(value)!] : null);
        if (!values || !base.columns.has(column)) return null;
        filters.push({ kind: 'in', column, values });
        break;
      }
      case 'labelSelector':
      case 'tagSelector': {
        const expression = text(value);
        const column = key === 'labelSelector' ? 'labels' : base.tagsColumn;
        const parsed = expression ? labelSelectorFilter(expression, column) : null;
        if (!parsed) return null;
        filters.push(parsed);
        break;
      }
      default:
        return null;
    }
  }
  if (filters.length === 0) return ALWAYS;
  return filters.length === 1 ? filters[0] : { kind: 'and', filters };
}

/** `app=api,env!=dev,team,!legacy` (Kubernetes equality-based selectors) on a json column. */
function labelSelectorFilter(expression: string, column: string): RowFilter | null {
  const filters: RowFilter[] = [];
  for (const raw of expression.split(',')) {
    const term = raw.trim();
    if (term === '') continue;
    const unequal = /^([^=!\s]+)\s*!=\s*(.*)$/.exec(term);
    const equal = /^([^=!\s]+)\s*==?\s*(.*)$/.exec(term);
    if (unequal) {
      filters.push({
        kind: 'not',
        filter: { kind: 'contains', column, value: { [unequal[1]]: unequal[2].trim() } },
      });
    } else if (equal) {
      filters.push({ kind: 'contains', column, value: { [equal[1]]: equal[2].trim() } });
    } else if (/^![^=!\s()]+$/.test(term)) {
      filters.push({ kind: 'not', filter: { kind: 'hasKey', column, key: term.slice(1) } });
    } else if (/^[^=!\s()]+$/.test(term)) {
      filters.push({ kind: 'hasKey', column, key: term });
    } else {
      return null;
    }
  }
  if (filters.length === 0) return null;
  return filters.length === 1 ? filters[0] : { kind: 'and', filters };
}

/**
 * A preHandler for custom routes: 401 without a caller, 403 (JSON `{error}`) when the roles,
 * permissions, token scope or a disabled feature refuse the action.
 */
export function requirePermission(
  resource: Resource,
  action: RequestedAction,
  options: AuthorizeOptions & { feature?: Feature | null } = {},
): preHandlerAsyncHookHandler {
  return async function checkPermission(request: FastifyRequest, reply: FastifyReply) {
    const pool = authPoolOf(request);
    if (!pool) throw new Error('requirePermission needs the auth plugin registered on the app');
    const decision = await authorizeRequest(pool, request, resource, action, options);
    if (!decision.allow) return reply.status(decision.status).send({ error: decision.message });
  };
}
