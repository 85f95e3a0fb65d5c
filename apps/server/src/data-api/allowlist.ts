/**
 * Which relations and functions the data API exposes, and per relation which actions exist and
 * which columns are hidden (never selectable, filterable or returned) or writable.
 *
 * Anything not listed answers like a relation that does not exist (42P01 / PGRST202).
 */

export type RelationAction = 'read' | 'insert' | 'update' | 'delete';
export type DataApiAction = RelationAction | 'execute';

export interface RelationPolicyInput {
  /** Defaults: tables read/insert/update/delete, views read. */
  readonly actions?: readonly RelationAction[];
  readonly hiddenColumns?: readonly string[];
  /** Columns a write may set; default every column that is not hidden. */
  readonly writableColumns?: readonly string[];
  /** PATCH/DELETE without any filter; default false. */
  readonly allowFilterlessWrite?: boolean;
  /** See `ReadSource`. */
  readonly readSource?: ReadSource;
}

/**
 * A read-only view whose rows aggregate another relation's rows (a canary's count of checks)
 * would leak rows a caller may not see: the view cannot know the caller's row restrictions.
 * Such a relation may give its rows as SQL that the planner reads instead of the view (same
 * columns, in the view's order), with the aggregated relation's restriction compiled in:
 * `restrict(relation, alias)` authorizes `relation` for read and returns the marker where its
 * row restrictions are AND-ed (empty when there are none); `relation(name)` is the qualified
 * name of a relation. The view stays in the database for the catalog (columns, types, keys).
 */
export type ReadSource = (sql: {
  relation(name: string): string;
  /** `optional`: a caller who may not read `relation` at all sees none of its rows (counts 0) instead of a 403. */
  restrict(relation: string, alias: string, options?: { optional?: boolean }): string;
}) => string;

export interface FunctionPolicyInput {
  /** Hidden columns of the rows the function returns (added to those of its return relation). */
  readonly hiddenColumns?: readonly string[];
}

export interface DataApiAllowlistInput {
  readonly tables?: Readonly<Record<string, RelationPolicyInput>>;
  readonly views?: Readonly<Record<string, RelationPolicyInput>>;
  readonly functions?: Readonly<Record<string, FunctionPolicyInput>> | readonly string[];
  /** Relations matched by name prefix, e.g. `view_` for the per-view tables. */
  readonly prefixes?: Readonly<Record<string, RelationPolicyInput & { readonly kind?: 'table' | 'view' }>>;
  /** Column names hidden on every relation (hashes and secrets). */
  readonly hiddenEverywhere?: readonly string[];
}

export interface RelationPolicy {
  readonly name: string;
  readonly declaredKind: 'table' | 'view';
  readonly actions: ReadonlySet<RelationAction>;
  readonly hiddenColumns: ReadonlySet<string>;
  /** null: every visible column. */
  readonly writableColumns: ReadonlySet<string> | null;
  readonly allowFilterlessWrite: boolean;
  readonly readSource: ReadSource | null;
}

export interface FunctionPolicy {
  readonly name: string;
  readonly hiddenColumns: ReadonlySet<string>;
}

export interface DataApiAllowlist {
  relation(name: string): RelationPolicy | null;
  function(name: string): FunctionPolicy | null;
  /** Hidden everywhere (used for relations reached only through a view or a function). */
  readonly hiddenEverywhere: ReadonlySet<string>;
}

const ALL_ACTIONS: readonly RelationAction[] = ['read', 'insert', 'update', 'delete'];

export function createDataApiAllowlist(input: DataApiAllowlistInput): DataApiAllowlist {
  const hiddenEverywhere = new Set(input.hiddenEverywhere ?? []);
  const build = (name: string, kind: 'table' | 'view', policy: RelationPolicyInput): RelationPolicy => ({
    name,
    declaredKind: kind,
    actions: new Set(policy.actions ?? (kind === 'table' ? ALL_ACTIONS : ['read'])),
    hiddenColumns: new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]),
    writableColumns: policy.writableColumns ? new Set(policy.writableColumns) : null,
    allowFilterlessWrite: policy.allowFilterlessWrite ?? false,
    readSource: kind === 'view' ? (policy.readSource ?? null) : null,
  });
  const relations = new Map<string, RelationPolicy>();
  for (const [name, policy] of Object.entries(input.tables ?? {}))
    relations.set(name, build(name, 'table', policy));
  for (const [name, policy] of Object.entries(input.views ?? {}))
    relations.set(name, build(name, 'view', policy));
  const prefixes = Object.entries(input.prefixes ?? {}).map(([prefix, policy]) => ({
    prefix,
    kind: policy.kind ?? 'table',
    policy,
  }));
  const prefixCache = new Map<string, RelationPolicy | null>();
  const functions = new Map<string, FunctionPolicy>();
  const fnInput = input.functions ?? {};
  const fnEntries: Array<[string, FunctionPolicyInput]> = Array.isArray(fnInput)
    ? (fnInput as readonly string[]).map((name) => [name, {}])
    : Object.entries(fnInput as Record<string, FunctionPolicyInput>);
  for (const [name, policy] of fnEntries) {
    functions.set(name, {
      name,
      hiddenColumns: new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]),
    });
  }
  return {
    hiddenEverywhere,
    relation(name: string): RelationPolicy | null {
      const direct = relations.get(name);
      if (direct) return direct;
      if (prefixes.length === 0) return null;
      if (prefixCache.has(name)) return prefixCache.get(name) ?? null;
      const match = prefixes.find((p) => name.startsWith(p.prefix) && name.length > p.prefix.length);
      const policy = match ? build(name, match.kind, match.policy) : null;
      if (prefixCache.size < 10_000) prefixCache.set(name, policy);
      return policy;
    },
    function(name: string): FunctionPolicy | null {
      return functions.get(name) ?? null;
    },
  };
}

const READ: readonly RelationAction[] = ['read'];
const READ_UPDATE: readonly RelationAction[] = ['read', 'update'];
const READ_DELETE: readonly RelationAction[] = ['read', 'delete'];
const READ_UPDATE_DELETE: readonly RelationAction[] = ['read', 'update', 'delete'];

/**
 * `canaries_with_status` (migration 0060) with the checks roll-up over the caller's visible
 * checks. Keep in step with the view: `default-allowlist.int.test.ts` compares both.
 */
const canariesWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT cn.id, cn.name, cn.namespace, cn.icon, cn.schedule, cn.labels, cn.spec, cn.source,
       cn.agent_id, cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
       jsonb_build_object('healthy', coalesce(s.healthy, 0), 'unhealthy', coalesce(s.unhealthy, 0),
                          'unknown', coalesce(s.unknown, 0)) AS checks,
       CASE WHEN coalesce(s.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(s.healthy, 0) > 0 AND coalesce(s.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       s.last_runtime
FROM ${relation('canaries')} cn
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE ch.status = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE ch.status = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE ch.status IS NULL)::int AS unknown,
         max(ch.last_runtime) AS last_runtime
  FROM ${relation('checks')} ch
  WHERE ch.canary_id = cn.id AND ch.deleted_at IS NULL${restrict('checks', 'ch')}
) s ON true`;

/** `topologies_with_status` (migration 0090) over the caller's visible components. */
const topologiesWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT t.id, t.name, t.namespace, t.icon, t.schedule, t.labels, t.spec, t.source, t.agent_id,
       t.created_by, t.created_at, t.updated_at, t.deleted_at,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS summary,
       coalesce(c.total, 0) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 AND coalesce(c.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       j.status AS job_status, j.time_start AS job_time_start, j.time_end AS job_time_end,
       j.details AS job_details
FROM ${relation('topologies')} t
LEFT JOIN LATERAL (
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM ${relation('components')} co
  WHERE co.topology_id = t.id AND co.deleted_at IS NULL${restrict('components', 'co')}
) c ON true
LEFT JOIN LATERAL (
  SELECT jh.status, jh.time_start, jh.time_end, jh.details
  FROM ${relation('job_history')} jh
  WHERE jh.resource_type = 'topology' AND jh.resource_id = t.id::text
  ORDER BY jh.time_start DESC
  LIMIT 1
) j ON true`;

/** `config_detail` (migration 0090): counts and scraper of what the caller may read (0 / null otherwise). */
const configDetailSource: ReadSource = ({ relation, restrict }) => {
  const optional = { optional: true };
  return `SELECT ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
       ci.name, ci.namespace, ci.description, ci.status, ci.health, ci.ready, ci.labels, ci.tags,
       ci.properties, ci.config, ci.source, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
       ci.cost_total_30d, ci.delete_reason, ci.last_scraped_time, ci.created_by, ci.created_at,
       ci.updated_at, ci.deleted_at,
       jsonb_build_object(
         'relationships', (SELECT count(*) FROM ${relation('config_relationships')} r
                            WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL${restrict('config_relationships', 'r', optional)}),
         'analysis', (SELECT count(*) FROM ${relation('config_analysis')} a WHERE a.config_id = ci.id AND a.status = 'open'${restrict('config_analysis', 'a', optional)}),
         'changes', (SELECT count(*) FROM ${relation('config_changes')} c WHERE c.config_id = ci.id${restrict('config_changes', 'c', optional)}),
         'playbook_runs', (SELECT count(*) FROM ${relation('playbook_runs')} p WHERE p.config_id = ci.id${restrict('playbook_runs', 'p', optional)}),
         'checks', (SELECT count(*) FROM ${relation('check_config_relationships')} cc
                     WHERE cc.config_id = ci.id AND cc.deleted_at IS NULL${restrict('check_config_relationships', 'cc', optional)})
       ) AS summary,
       CASE WHEN s.id IS NULL THEN NULL ELSE jsonb_build_object('id', s.id, 'name', s.name) END AS scraper
FROM ${relation('config_items')} ci
LEFT JOIN ${relation('config_scrapers')} s ON s.id = ci.scraper_id${restrict('config_scrapers', 's', optional)}`;
};

/** `teams_with_status` (migration 0090) over the components the caller may read. */
const teamsWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT t.id, t.name, t.namespace, t.icon, t.labels, t.spec, t.source, t.agent_id, t.created_by,
       t.created_at, t.updated_at, t.deleted_at,
       (SELECT count(*)::int FROM ${relation('team_members')} m WHERE m.team_id = t.id) AS members,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 THEN 'healthy'
            ELSE 'unknown' END AS status
FROM ${relation('teams')} t
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM ${relation('team_components')} tc
  JOIN ${relation('components')} co ON co.id = tc.component_id AND co.deleted_at IS NULL${restrict('components', 'co', { optional: true })}
  WHERE tc.team_id = t.id
) c ON true`;

/**
 * Every relation API.md §1 names. Tables that users edit from the console are fully writable
 * (the authorize hook narrows that per role); tables the product itself fills (statuses,
 * changes, histories, runs) are read-only or read+delete; views are read-only.
 */
export const defaultDataApiAllowlistInput: DataApiAllowlistInput = {
  hiddenEverywhere: [
    'password_hash',
    'hashed_password',
    'token_hash',
    'secret_hash',
    'totp_secret',
    'recovery_codes',
    'backup_codes',
  ],
  tables: {
    // health
    // descriptive_version: the summary's cache key (migration 0072), not part of the contract.
    checks: { actions: READ_UPDATE_DELETE, hiddenColumns: ['descriptive_version'] },
    check_statuses: { actions: READ },
    canaries: { hiddenColumns: ['descriptive_version'] },
    check_component_relationships: { actions: READ },
    check_config_relationships: { actions: READ },
    // catalog
    config_items: { actions: READ_UPDATE_DELETE },
    config_changes: { actions: READ },
    config_analysis: { actions: READ_UPDATE },
    config_relationships: { actions: READ },
    config_component_relationships: {},
    config_scrapers: {},
    // topology
    topologies: {},
    components: { actions: READ_UPDATE },
    // incidents
    incidents: {},
    incident_histories: { actions: READ },
    hypotheses: {},
    evidences: {},
    comments: {},
    responders: {},
    incident_rules: {},
    // people and access
    people: { actions: READ_UPDATE },
    identities: { actions: READ },
    teams: {},
    team_members: {},
    permissions: {},
    properties: {},
    access_tokens: { actions: READ_DELETE, hiddenColumns: ['value'] },
    // playbooks
    playbooks: {},
    playbook_runs: { actions: READ },
    playbook_run_actions: { actions: READ },
    playbook_approvals: { actions: READ },
    artifacts: { actions: READ },
    // notifications
    notifications: {},
    notification_send_history: { actions: READ },
    notification_silences: {},
    // settings
    connections: { hiddenColumns: ['password', 'certificate'] },
    agents: { actions: READ_UPDATE_DELETE },
    job_histories: { actions: READ },
    logging_backends: {},
    applications: {},
    views: {},
  },
  views: {
    check_names: {},
    canary_names: {},
    checks_labels_keys: {},
    checks_by_component: {},
    check_summary_for_config: {},
    // The view's roll-up of checks counts only the checks the caller may see.
    canaries_with_status: { readSource: canariesWithStatusSource },
    configs: {},
    // Its counts and scraper cover only the rows the caller may read.
    config_detail: { readSource: configDetailSource },
    config_names: {},
    config_types: {},
    config_statuses: {},
    config_tags: {},
    config_labels: {},
    config_tags_labels_keys: {},
    config_analysis_items: {},
    config_analysis_analyzers: {},
    analysis_types: {},
    change_types: {},
    config_scrapers_with_status: {},
    // The components roll-up counts only the components the caller may see.
    topologies_with_status: { readSource: topologiesWithStatusSource },
    component_names: {},
    component_labels: {},
    component_labels_keys: {},
    components_with_logs: {},
    team_components: {},
    analysis_by_component: {},
    changes_by_component: {},
    incident_summary: {},
    incidents_by_component: {},
    incidents_by_config: {},
    people_roles: {},
    // The components' health counts only the components the caller may read.
    teams_with_status: { readSource: teamsWithStatusSource },
    permissions_summary: {},
    playbook_names: {},
    notifications_summary: {},
    notification_send_history_summary: {},
    agents_summary: {},
    job_history_names: {},
    event_queue_summary: {},
    integrations_with_status: {},
    views_summary: {},
  },
  functions: [
    'related_configs_recursive',
    'get_parents_by_location',
    'lookup_analysis_by_component',
    'get_playbook_run_actions',
  ],
  // One table per view, `view_<namespace>_<name>`, filtered by request_fingerprint.
  prefixes: { view_: { kind: 'view', actions: READ } },
};

export const defaultDataApiAllowlist: DataApiAllowlist = createDataApiAllowlist(defaultDataApiAllowlistInput);
