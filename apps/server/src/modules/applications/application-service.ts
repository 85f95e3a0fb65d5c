import {
  applicationSpecSchema,
  ROLES,
  rolesAllow,
  type ApplicationReport,
  type ApplicationSelector,
  type ApplicationSpec,
  type ApplicationSummary,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { Params, selectorSql } from './selector-sql.js';

/** How far back each report range reaches. */
export const REPORT_RANGE_MS: Readonly<Record<string, number>> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
};
/** Most rows each list of a report holds (changes, insights, incidents, backups). */
export const REPORT_LIST_LIMIT = 100;

interface ApplicationRow {
  id: string;
  name: string;
  namespace: string;
  description: string | null;
  labels: Record<string, string> | null;
  spec: unknown;
  updated_at: Date;
}

interface Resource {
  id: string;
  name: string | null;
  type: string | null;
  health: string | null;
  status: string | null;
}

function specOf(row: ApplicationRow): ApplicationSpec {
  const parsed = applicationSpecSchema.safeParse(row.spec);
  return parsed.success ? parsed.data : {};
}

/** The config selectors of a spec: `configs`, the mapping's datasources and each environment's. */
function configSelectors(
  spec: ApplicationSpec,
): { selector: ApplicationSelector; environment: string | null }[] {
  return [
    ...(spec.configs ?? []).map((selector) => ({ selector, environment: null })),
    ...(spec.mapping?.datasources ?? []).map((selector) => ({ selector, environment: null })),
    ...Object.entries(spec.mapping?.environments ?? {}).flatMap(([environment, list]) =>
      list.map((selector) => ({ selector, environment })),
    ),
  ];
}

async function selectConfigs(pool: Pool, spec: ApplicationSpec) {
  const selectors = configSelectors(spec);
  if (selectors.length === 0) return [];
  const params = new Params();
  const environment = selectors
    .filter((entry) => entry.environment !== null)
    .map(
      (entry) =>
        `WHEN ${selectorSql(entry.selector, params, 'c', { tagsColumn: 'tags' })} THEN ${params.add(entry.environment)}`,
    );
  const where = selectors.map((entry) => selectorSql(entry.selector, params, 'c', { tagsColumn: 'tags' }));
  const { rows } = await pool.query<Resource & { environment: string | null }>(
    `SELECT c.id, c.name, c.type, c.health, c.status,
            ${environment.length > 0 ? `CASE ${environment.join(' ')} END` : 'NULL::text'} AS environment
       FROM config_items c
      WHERE c.deleted_at IS NULL AND (${where.join(' OR ')})
      ORDER BY c.type, c.name, c.id`,
    params.values,
  );
  return rows;
}

async function selectComponents(pool: Pool, spec: ApplicationSpec): Promise<Resource[]> {
  if (!spec.components?.length) return [];
  const params = new Params();
  const where = spec.components.map((selector) => selectorSql(selector, params, 'c'));
  const { rows } = await pool.query<Resource>(
    `SELECT c.id, c.name, c.type, c.health, c.status FROM components c
      WHERE c.deleted_at IS NULL AND (${where.join(' OR ')}) ORDER BY c.name, c.id`,
    params.values,
  );
  return rows;
}

async function selectChecks(pool: Pool, spec: ApplicationSpec, from: Date) {
  if (!spec.checks?.length) return [];
  const params = new Params();
  const where = spec.checks.map((selector) => selectorSql(selector, params, 'c'));
  const since = params.add(from);
  const { rows } = await pool.query<Resource & { passed: number; failed: number }>(
    `SELECT c.id, c.name, c.type, c.status AS health, c.status,
            coalesce(s.passed, 0)::int AS passed, coalesce(s.failed, 0)::int AS failed
       FROM checks c
       LEFT JOIN LATERAL (
         SELECT count(*) FILTER (WHERE cs.status) AS passed, count(*) FILTER (WHERE NOT cs.status) AS failed
           FROM check_statuses cs WHERE cs.check_id = c.id AND cs.time >= ${since}
       ) s ON true
      WHERE c.deleted_at IS NULL AND (${where.join(' OR ')}) ORDER BY c.name, c.id`,
    params.values,
  );
  return rows.map((row) => ({
    ...row,
    uptime:
      row.passed + row.failed === 0
        ? null
        : Math.round((row.passed / (row.passed + row.failed)) * 10000) / 100,
  }));
}

/** The worst health among the resources: unhealthy, then warning, then healthy; unknown when none. */
export function rollUpHealth(healths: (string | null)[]): string {
  if (healths.length === 0) return 'unknown';
  if (healths.includes('unhealthy')) return 'unhealthy';
  if (healths.includes('warning')) return 'warning';
  if (healths.some((health) => health === 'healthy')) return 'healthy';
  return 'unknown';
}

export async function loadApplication(pool: Pool, namespace: string, name: string): Promise<ApplicationRow> {
  const { rows } = await pool.query<ApplicationRow>(
    `SELECT id, name, namespace, description, labels, spec, updated_at FROM applications
      WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
    [namespace, name],
  );
  if (!rows[0]) throw new HttpError(404, `Application ${namespace}/${name} not found`, 'name');
  return rows[0];
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : value;

/**
 * The audit report of one application: its resources with health, recent changes, open
 * insights, incidents, check uptime over the range, who has access and backups/restores.
 * `includePermissions` is false for callers who may not read rbac: they see roles, not rows.
 */
export async function applicationReport(
  pool: Pool,
  namespace: string,
  name: string,
  range: string,
  includePermissions: boolean,
  now = new Date(),
): Promise<ApplicationReport> {
  const row = await loadApplication(pool, namespace, name);
  const spec = specOf(row);
  const from = new Date(now.getTime() - (REPORT_RANGE_MS[range] ?? REPORT_RANGE_MS['7d']));
  const [configs, components, checks] = await Promise.all([
    selectConfigs(pool, spec),
    selectComponents(pool, spec),
    selectChecks(pool, spec, from),
  ]);
  const configIds = configs.map((config) => config.id);
  const componentIds = components.map((component) => component.id);
  const checkIds = checks.map((check) => check.id);

  const changeColumns = `ch.id, ch.config_id, ci.name AS config_name, ch.change_type, ch.severity, ch.summary, ch.created_at`;
  const [changes, backups, insights, incidents, permissions] = await Promise.all([
    pool.query(
      `SELECT ${changeColumns} FROM config_changes ch JOIN config_items ci ON ci.id = ch.config_id
        WHERE ch.config_id = ANY($1::uuid[]) AND ch.created_at >= $2
        ORDER BY ch.created_at DESC, ch.id LIMIT ${REPORT_LIST_LIMIT}`,
      [configIds, from],
    ),
    pool.query(
      `SELECT ${changeColumns} FROM config_changes ch JOIN config_items ci ON ci.id = ch.config_id
        WHERE ch.config_id = ANY($1::uuid[]) AND ch.change_type ~* '(backup|restore)'
        ORDER BY ch.created_at DESC, ch.id LIMIT ${REPORT_LIST_LIMIT}`,
      [configIds],
    ),
    pool.query(
      `SELECT a.id, a.config_id, ci.name AS config_name, a.analyzer, a.analysis_type, a.severity, a.status,
              a.summary, a.last_observed
         FROM config_analysis a JOIN config_items ci ON ci.id = a.config_id
        WHERE a.config_id = ANY($1::uuid[]) AND a.status IS DISTINCT FROM 'resolved'
        ORDER BY a.last_observed DESC NULLS LAST, a.id LIMIT ${REPORT_LIST_LIMIT}`,
      [configIds],
    ),
    pool.query(
      `SELECT DISTINCT i.id, i.title, i.status, i.severity, i.type, i.created_at
         FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
        WHERE (e.config_id = ANY($1::uuid[]) OR e.component_id = ANY($2::uuid[]) OR e.check_id = ANY($3::uuid[]))
          AND (i.created_at >= $4 OR i.resolved IS NULL)
        ORDER BY i.created_at DESC, i.id LIMIT ${REPORT_LIST_LIMIT}`,
      [configIds, componentIds, checkIds, from],
    ),
    includePermissions
      ? pool.query(
          `SELECT p.id, coalesce(pe.name, t.name, p.subject) AS subject, p.subject_type, p.action, p.deny, p.object,
                  coalesce(ci.name, co.name, ch.name) AS resource, p.description
             FROM permissions p
             LEFT JOIN people pe ON pe.id = p.person_id
             LEFT JOIN teams t ON t.id = p.team_id
             LEFT JOIN config_items ci ON ci.id = p.config_id
             LEFT JOIN components co ON co.id = p.component_id
             LEFT JOIN checks ch ON ch.id = p.check_id
            WHERE p.deleted_at IS NULL AND (p.until IS NULL OR p.until > now())
              AND (p.object IN ('application', 'catalog', 'topology', 'canaries')
                   OR p.config_id = ANY($1::uuid[]) OR p.component_id = ANY($2::uuid[]) OR p.check_id = ANY($3::uuid[]))
            ORDER BY p.deny DESC, p.object NULLS LAST, p.created_at`,
          [configIds, componentIds, checkIds],
        )
      : Promise.resolve({ rows: [] }),
  ]);
  const changeRow = (change: Record<string, unknown>) => ({
    id: String(change.id),
    config_id: String(change.config_id),
    config_name: (change.config_name as string | null) ?? null,
    change_type: (change.change_type as string | null) ?? null,
    severity: (change.severity as string | null) ?? null,
    summary: (change.summary as string | null) ?? null,
    created_at: iso(change.created_at as Date) ?? '',
  });
  return {
    application: {
      id: row.id,
      name: row.name,
      namespace: row.namespace,
      description: row.description ?? spec.description ?? null,
      labels: row.labels,
      sections: (spec.sections ?? []).map((section) => ({
        title: section.title,
        icon: section.icon ?? null,
      })),
    },
    range: { name: range, from: from.toISOString(), to: now.toISOString() },
    generatedAt: now.toISOString(),
    health: rollUpHealth([...configs, ...components, ...checks].map((resource) => resource.health)),
    configs,
    components,
    checks,
    changes: changes.rows.map(changeRow),
    backups: backups.rows.map(changeRow),
    insights: insights.rows.map((insight: Record<string, unknown>) => ({
      id: String(insight.id),
      config_id: String(insight.config_id),
      config_name: (insight.config_name as string | null) ?? null,
      analyzer: String(insight.analyzer),
      analysis_type: (insight.analysis_type as string | null) ?? null,
      severity: (insight.severity as string | null) ?? null,
      status: (insight.status as string | null) ?? null,
      summary: (insight.summary as string | null) ?? null,
      last_observed: iso(insight.last_observed as Date | null),
    })),
    incidents: incidents.rows.map((incident: Record<string, unknown>) => ({
      id: String(incident.id),
      title: String(incident.title),
      status: (incident.status as string | null) ?? null,
      severity: (incident.severity as string | null) ?? null,
      type: (incident.type as string | null) ?? null,
      created_at: iso(incident.created_at as Date) ?? '',
    })),
    access: {
      roles: ROLES.map((role) => ({
        role,
        read: rolesAllow([role], 'database', 'read'),
        write: rolesAllow([role], 'database', 'write'),
      })),
      permissions: (permissions.rows as Record<string, unknown>[]).map((permission) => ({
        id: String(permission.id),
        subject: (permission.subject as string | null) ?? null,
        subject_type: (permission.subject_type as string | null) ?? null,
        action: String(permission.action),
        deny: Boolean(permission.deny),
        object: (permission.object as string | null) ?? null,
        resource: (permission.resource as string | null) ?? null,
        description: (permission.description as string | null) ?? null,
      })),
    },
  };
}

/** Applications counted per query of the list (bound parameters stay far below PostgreSQL's 65,535). */
export const LIST_BATCH = 100;

interface ListCounts {
  configs: number;
  components: number;
  checks: number;
  incidents: number;
  healths: (string | null)[];
}

/**
 * The counts of a batch of applications in one statement: one scan of config items, components
 * and checks each, every row tested against each application's selectors (one CASE per
 * application, unnested into the applications it belongs to), the open incidents linked to any of their resources through evidence, grouped by application. It counts
 * what the report shows: the same selectors, the same health of checks (their status), and
 * incidents open (not resolved or closed) that were opened within the day or are unresolved.
 */
async function countApplications(
  pool: Pool,
  applications: { id: string; spec: ApplicationSpec }[],
  from: Date,
): Promise<Map<string, ListCounts>> {
  const params = new Params();
  // Per kind, one CASE per application: its id when the row matches its selectors.
  const cases = { configs: [] as string[], components: [] as string[], checks: [] as string[] };
  for (const { id, spec } of applications) {
    const configs = configSelectors(spec);
    const when = (conditions: string[]) =>
      `CASE WHEN ${conditions.join(' OR ')} THEN ${params.add(id)}::uuid END`;
    if (configs.length > 0)
      cases.configs.push(
        when(configs.map((entry) => selectorSql(entry.selector, params, 'c', { tagsColumn: 'tags' }))),
      );
    if (spec.components?.length)
      cases.components.push(when(spec.components.map((selector) => selectorSql(selector, params, 'c'))));
    if (spec.checks?.length)
      cases.checks.push(when(spec.checks.map((selector) => selectorSql(selector, params, 'c'))));
  }
  const counts = new Map<string, ListCounts>(
    applications.map(({ id }) => [id, { configs: 0, components: 0, checks: 0, incidents: 0, healths: [] }]),
  );
  // One scan of each relation: each row's applications are the non-null CASEs.
  const cte = (list: string[], table: string, health: string) =>
    list.length > 0
      ? `SELECT a.app, c.id, ${health}::text AS health FROM ${table} c
           CROSS JOIN LATERAL unnest(ARRAY[${list.join(', ')}]::uuid[]) AS a(app)
          WHERE c.deleted_at IS NULL AND a.app IS NOT NULL`
      : 'SELECT NULL::uuid AS app, NULL::uuid AS id, NULL::text AS health WHERE false';
  const branches = {
    configs: cte(cases.configs, 'config_items', 'c.health'),
    components: cte(cases.components, 'components', 'c.health'),
    checks: cte(cases.checks, 'checks', 'c.status'),
  };
  if (cases.configs.length + cases.components.length + cases.checks.length === 0) return counts;
  const since = params.add(from);
  const { rows } = await pool.query<{
    app: string;
    kind: 'configs' | 'components' | 'checks' | 'incidents';
    count: number;
    healths: (string | null)[] | null;
  }>(
    `WITH app_configs AS (${branches.configs}),
          app_components AS (${branches.components}),
          app_checks AS (${branches.checks}),
          links AS (
            SELECT r.app, h.incident_id FROM app_configs r
              JOIN evidences e ON e.config_id = r.id JOIN hypotheses h ON h.id = e.hypothesis_id
            UNION
            SELECT r.app, h.incident_id FROM app_components r
              JOIN evidences e ON e.component_id = r.id JOIN hypotheses h ON h.id = e.hypothesis_id
            UNION
            SELECT r.app, h.incident_id FROM app_checks r
              JOIN evidences e ON e.check_id = r.id JOIN hypotheses h ON h.id = e.hypothesis_id
          )
     SELECT app::text, 'configs' AS kind, count(*)::int AS count, array_agg(DISTINCT health) AS healths
       FROM app_configs GROUP BY app
     UNION ALL
     SELECT app::text, 'components', count(*)::int, array_agg(DISTINCT health) FROM app_components GROUP BY app
     UNION ALL
     SELECT app::text, 'checks', count(*)::int, array_agg(DISTINCT health) FROM app_checks GROUP BY app
     UNION ALL
     SELECT l.app::text, 'incidents', count(*)::int, NULL
       FROM links l JOIN incidents i ON i.id = l.incident_id
      WHERE (i.created_at >= ${since} OR i.resolved IS NULL)
        AND coalesce(i.status::text, '') NOT IN ('resolved', 'closed')
      GROUP BY l.app`,
    params.values,
  );
  for (const row of rows) {
    const entry = counts.get(row.app);
    if (!entry) continue;
    entry[row.kind] = row.count;
    if (row.healths) entry.healths.push(...row.healths);
  }
  return counts;
}

/**
 * `GET /api/application`: every application with its health and resource counts, counted in one
 * statement per LIST_BATCH applications (not one report per application).
 */
export async function listApplications(pool: Pool, now = new Date()): Promise<ApplicationSummary[]> {
  const { rows } = await pool.query<ApplicationRow>(
    `SELECT id, name, namespace, description, labels, spec, updated_at FROM applications
      WHERE deleted_at IS NULL ORDER BY namespace, name LIMIT 1000`,
  );
  const from = new Date(now.getTime() - REPORT_RANGE_MS['1d']);
  const specs = rows.map((row) => ({ id: row.id, spec: specOf(row) }));
  const counts = new Map<string, ListCounts>();
  for (let index = 0; index < specs.length; index += LIST_BATCH)
    for (const [id, entry] of await countApplications(pool, specs.slice(index, index + LIST_BATCH), from))
      counts.set(id, entry);
  return rows.map((row, index) => {
    const entry = counts.get(row.id);
    return {
      id: row.id,
      name: row.name,
      namespace: row.namespace,
      description: row.description ?? specs[index].spec.description ?? null,
      health: rollUpHealth(entry?.healths ?? []),
      configs: entry?.configs ?? 0,
      components: entry?.components ?? 0,
      checks: entry?.checks ?? 0,
      incidents: entry?.incidents ?? 0,
      updated_at: row.updated_at.toISOString(),
    };
  });
}
