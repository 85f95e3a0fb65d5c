/**
 * Row-level permissions (settings spec §3, permission entity: object_selector, tags, agents): the
 * tables whose rows permission selectors match, and how each data-API relation's rows reach them.
 */

/** A table whose rows permission selectors match, and the columns the matching may use. */
export interface ScopeBase {
  readonly table: string;
  /** object_selector keys whose selectors match rows of this table. */
  readonly selectorKey:
    | 'configs'
    | 'checks'
    | 'canaries'
    | 'playbooks'
    | 'components'
    | 'connections'
    | 'topologies'
    | 'notifications'
    | 'views';
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
  // Notifications as objects (issue 25): `notification_id` of a permission row is its subject,
  // never its target, so rows name notifications by selector only.
  notifications: {
    table: 'notifications',
    selectorKey: 'notifications',
    tagsColumn: 'labels',
    columns: new Set(COMMON_COLUMNS),
  },
  // Views (issue 28): `views: [{name, namespace, labelSelector}]` in an object selector grants or
  // denies reading a view, its summary row and the rows materialised in its table.
  views: {
    table: 'views',
    selectorKey: 'views',
    tagsColumn: 'labels',
    columns: new Set(COMMON_COLUMNS),
  },
};

/** One step from a relation's row to rows of `relation` whose `column` equals the row's `from`. */
export type Hop = readonly [relation: string, column: string, from: string];

/** How rows of a relation reach the base rows permission rows match. */
export interface ScopeLink {
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
  // A notification's summary and send history follow the notification.
  ...scoped(BASES.notifications, {
    notifications: 'id',
    notifications_summary: 'id',
    notification_send_history: 'notification_id',
    notification_send_history_summary: 'notification_id',
  }),
  // A silence is matched by the notification selectors on its own name, namespace, labels and agent (ADR 0041).
  notification_silences: { links: [{ base: BASES.notifications, path: [] }], combine: 'any' },
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
  // A view's summary row follows the view.
  ...scoped(BASES.views, { views: 'id', views_summary: 'id' }),
  evidences: incidentScope([
    ['hypotheses', 'id', 'hypothesis_id'],
    ['hypotheses', 'incident_id', 'incident_id'],
    EVIDENCES_OF_INCIDENT,
  ]),
};

/** The table that holds a view's rows (contracts' viewTableName): `view_<namespace>_<name>`. */
const VIEW_TABLE = /^view_[a-z0-9_]+$/;

/**
 * A view table's rows follow their view: each row carries the `view_id` of the view that
 * materialised it (views/view-table.ts), so the selectors that match the view match its rows.
 */
const VIEW_TABLE_SCOPE: RowScope = {
  combine: 'any',
  links: [{ base: BASES.views, path: [['views', 'id', 'view_id']] }],
};

/** The row scope of a data-API relation, or undefined when permission rows do not narrow its rows. */
export function rowScopeOf(relation: string): RowScope | undefined {
  if (Object.hasOwn(ROW_SCOPED_RELATIONS, relation)) return ROW_SCOPED_RELATIONS[relation];
  return VIEW_TABLE.test(relation) ? VIEW_TABLE_SCOPE : undefined;
}
