/**
 * The topology engine: a Topology's spec → rows in `components`. Lookups (check specs run through
 * the health module's runners) run first; only when every one succeeded is the tree written, so a
 * failing lookup keeps the last good components. Components no longer produced are soft-deleted.
 * Health rolls up from checks, children and `healthExpr`; changes enqueue `component.<health>`.
 */
import { linkConfigsToComponent, selectConfigs, type ConfigSelector } from '../catalog/index.js';
import {
  linkChecksToComponent,
  loadCanary,
  parseLabelSelector,
  syncCanaryChecks,
  runCheckSpec,
  selectChecks,
  type CheckSelector,
  type RunCheckOptions,
  type SelectedCheck,
} from '../health/index.js';
import {
  applyResources,
  deleteResourcesMissingFromSource,
  stableHash,
  type ResourceIdentity,
} from '../resources/index.js';
import type { SecretBox } from '../../platform/secrets.js';
import { evaluate, renderTemplate, stringifyResult, type Expression } from '../../expressions/index.js';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { enqueueEvents, type EventToEnqueue } from '../../platform/jobs/index.js';

export const COMPONENT_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ComponentHealth = (typeof COMPONENT_HEALTHS)[number];

export interface TopologyRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
  agent_id: string;
  schedule: string | null;
  updated_at: Date;
  deleted_at: Date | null;
}

export const TOPOLOGY_COLUMNS =
  'id, name, namespace, labels, spec, agent_id, schedule, updated_at, deleted_at';

export async function loadTopology(db: Pool, id: string): Promise<TopologyRow | undefined> {
  const { rows } = await db.query<TopologyRow>(`SELECT ${TOPOLOGY_COLUMNS} FROM topologies WHERE id = $1`, [
    id,
  ]);
  return rows[0];
}

/** What a run needs besides the database: how lookups reach connections, secrets and logs. */
export interface TopologyRunOptions {
  logger: RunCheckOptions['logger'];
  resolveConnection?: RunCheckOptions['resolveConnection'];
  resolveValueFrom?: RunCheckOptions['resolveValueFrom'];
  /** Opens the sealed secrets of a stored spec for the run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
  signal?: AbortSignal;
  /** Budget per lookup check, ms. */
  lookupTimeoutMs?: number;
  /** Seals the secrets of inline check specs in the canaries a run creates. */
  secrets?: SecretBox;
}

export interface TopologyRunSummary {
  components: number;
  deleted: number;
  lookups: number;
  events: number;
}

/** A lookup or expression that failed: the run fails and nothing is written. */
export class TopologyRunError extends Error {
  override readonly name = 'TopologyRunError';
}

type Json = Record<string, unknown>;

interface Property {
  name?: string;
  label?: string;
  text?: string;
  value?: number;
  unit?: string;
  min?: number;
  max?: number;
  color?: string;
  headline?: boolean;
  icon?: string;
  tooltip?: string;
  type?: string;
  links?: unknown[];
}

/** One component of the tree, built in memory before it is written. */
interface Built {
  name: string;
  type: string | null;
  namespace: string | null;
  icon: string | null;
  owner: string | null;
  text: string | null;
  tooltip: string | null;
  description: string | null;
  lifecycle: string | null;
  external_id: string | null;
  labels: Record<string, string>;
  hidden: boolean;
  order: number | null;
  properties: Property[];
  health: ComponentHealth | null;
  status: string | null;
  status_reason: string | null;
  healthExpr: unknown;
  statusExpr: unknown;
  selectors: CheckSelector[];
  checks: Json[];
  configs: ConfigSelector[];
  children: Built[];
  /**
   * Where in the spec this component's `checks` are declared: its own path for a component
   * written there (`spec.components[0]`), the lookup's for one a lookup produced (its checks come
   * from the lookup's items or `forEach`): `spec.components[2].lookup`.
   */
  specPath: string;
  /** The checks of this component's inline canaries, by index in `checks` (set before writing). */
  inlineChecks?: Map<number, SelectedCheck[]>;
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    const written = text(entry);
    if (written !== null) out[key] = written;
  }
  return out;
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export function normaliseHealth(value: unknown): ComponentHealth | null {
  const written = text(value)?.toLowerCase();
  if (!written) return null;
  if ((COMPONENT_HEALTHS as readonly string[]).includes(written)) return written as ComponentHealth;
  if (['ok', 'pass', 'passing', 'up', 'running', 'online'].includes(written)) return 'healthy';
  if (['error', 'fail', 'failed', 'failing', 'down', 'critical', 'offline'].includes(written))
    return 'unhealthy';
  if (['warn', 'degraded'].includes(written)) return 'warning';
  return 'unknown';
}

/** `$(.component.name)` in every string of a forEach, as the ecosystem's Go templates. */
function applyTemplating(value: unknown, variables: Json): unknown {
  if (typeof value === 'string') {
    if (!value.includes('$(')) return value;
    const source = value.replace(/\$\(((?:[^()]|\([^()]*\))*)\)/g, (_match, inner: string) => `{{${inner}}}`);
    try {
      return renderTemplate(source, variables);
    } catch (error) {
      throw new TopologyRunError(`forEach template "${value}": ${(error as Error).message}`);
    }
  }
  if (Array.isArray(value)) return value.map((entry) => applyTemplating(entry, variables));
  if (isRecord(value)) {
    const out: Json = {};
    for (const [key, entry] of Object.entries(value)) out[key] = applyTemplating(entry, variables);
    return out;
  }
  return value;
}

interface RunContext {
  topology: TopologyRow;
  options: TopologyRunOptions;
  lookups: number;
}

/** Runs a lookup; its checks' `display` results (JSON arrays) joined. Throws when one fails. */
async function runLookup(lookup: unknown, context: RunContext, where: string): Promise<unknown[]> {
  const { topology, options } = context;
  const runs = await runCheckSpec(lookup, {
    canary: {
      id: topology.id,
      name: topology.name,
      namespace: topology.namespace,
      labels: topology.labels ?? {},
    },
    logger: options.logger,
    resolveConnection: options.resolveConnection ?? (() => undefined),
    resolveValueFrom: options.resolveValueFrom,
    signal: options.signal,
    timeoutMs: options.lookupTimeoutMs,
  });
  if (runs.length === 0) throw new TopologyRunError(`${where}: the lookup declares no check`);
  const items: unknown[] = [];
  for (const { name, run } of runs) {
    context.lookups += 1;
    const result = run.result;
    if (result.invalid || !result.pass) {
      const reason = result.error || result.message || 'failed';
      throw new TopologyRunError(`${where} ${name}: ${reason}`);
    }
    items.push(result.message);
  }
  return items;
}

function parseDisplayed(raw: unknown, where: string): unknown[] {
  if (typeof raw !== 'string') return [raw];
  const trimmed = raw.trim();
  if (trimmed === '') return [];
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    throw new TopologyRunError(`${where}: the lookup's display did not return JSON`);
  }
}

async function buildProperties(raw: unknown, context: RunContext, where: string): Promise<Property[]> {
  const out: Property[] = [];
  for (const [index, entry] of records(raw).entries()) {
    const { lookup, ...rest } = entry;
    const property: Json = { ...rest };
    // Lookups hand numbers over as text (SQL bigint, CEL strings): a numeric text is the value.
    for (const key of ['value', 'min', 'max'] as const) {
      const raw = property[key];
      if (raw === undefined || typeof raw === 'number') continue;
      const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (Number.isFinite(number)) property[key] = number;
      else {
        delete property[key];
        if (key === 'value' && property.text === undefined && raw !== null)
          property.text = stringifyResult(raw);
      }
    }
    if (lookup !== undefined) {
      const values = await runLookup(lookup, context, `${where}.properties[${index}].lookup`);
      const shown = values.map((value) => stringifyResult(value)).join('');
      const number = Number(shown);
      if (shown.trim() !== '' && Number.isFinite(number)) property.value = number;
      else property.text = shown;
    }
    out.push(property as Property);
  }
  return out;
}

/** One component definition (and what its lookup brings) → built components at its position. */
async function buildComponent(definition: Json, context: RunContext, where: string): Promise<Built[]> {
  const children: Built[] = [];
  for (const [index, child] of records(definition.components).entries())
    children.push(...(await buildComponent(child, context, `${where}.components[${index}]`)));

  if (definition.lookup !== undefined) {
    const looked: Built[] = [];
    const forEach = isRecord(definition.forEach) ? definition.forEach : undefined;
    const displayed = await runLookup(definition.lookup, context, `${where}.lookup`);
    const items = displayed.flatMap((raw) => parseDisplayed(raw, `${where}.lookup`));
    for (const [index, item] of items.entries()) {
      if (!isRecord(item)) throw new TopologyRunError(`${where}.lookup: item ${index + 1} is not an object`);
      let merged: Json = item;
      if (forEach) {
        const templated = applyTemplating(forEach, {
          component: item,
          properties: item.properties ?? [],
        }) as Json;
        merged = {
          ...item,
          ...templated,
          labels: { ...stringRecord(item.labels), ...stringRecord(templated.labels) },
          properties: [...records(item.properties), ...records(templated.properties)],
          components: [...records(item.components), ...records(templated.components)],
          name: item.name ?? templated.name,
        };
      }
      looked.push(...(await buildComponent(merged, context, `${where}.lookup[${index}]`)));
    }
    // A named component groups what its lookup found; an unnamed one is replaced by it.
    if (text(definition.name) === null) return [...looked, ...children];
    children.push(...looked);
  }

  const name = text(definition.name);
  if (name === null) throw new TopologyRunError(`${where}.name: a component needs a name`);
  return [
    {
      name,
      type: text(definition.type),
      namespace: text(definition.namespace),
      icon: text(definition.icon),
      owner: text(definition.owner),
      text: text(definition.text),
      tooltip: text(definition.tooltip),
      description: text(definition.description),
      lifecycle: text(definition.lifecycle),
      external_id: text(definition.id) ?? text(definition.external_id),
      labels: stringRecord(definition.labels),
      hidden: definition.hidden === true || definition.hidden === 'true',
      order: typeof definition.order === 'number' ? definition.order : null,
      properties: await buildProperties(definition.properties, context, where),
      health: normaliseHealth(definition.health),
      status: text(definition.status),
      status_reason: text(definition.statusReason) ?? text(definition.status_reason),
      healthExpr: definition.healthExpr,
      statusExpr: definition.statusExpr,
      selectors: records(definition.selectors) as CheckSelector[],
      checks: records(definition.checks),
      configs: records(definition.configs) as ConfigSelector[],
      children,
      specPath: where.includes('.lookup[')
        ? where.slice(0, where.indexOf('.lookup[') + '.lookup'.length)
        : where,
    },
  ];
}

/** The whole tree of a topology: the root (the topology itself) with its components. */
export async function buildTopologyTree(topology: TopologyRow, context: RunContext): Promise<Built> {
  const spec = topology.spec;
  const root = await buildComponent(
    {
      ...spec,
      name: topology.name,
      namespace: topology.namespace,
      labels: { ...stringRecord(topology.labels), ...stringRecord(spec.label ?? spec.labels) },
      lookup: undefined,
    },
    context,
    'spec',
  );
  return groupChildren(root[0], isRecord(spec.groupBy) ? text(spec.groupBy.tag) : null);
}

/**
 * `groupBy: {tag}`: the root's components that carry the label move under one `Group` component
 * per value (named after it, ordered by name); the others stay where they are.
 */
function groupChildren(root: Built, tag: string | null): Built {
  if (tag === null) return root;
  const groups = new Map<string, Built[]>();
  const ungrouped: Built[] = [];
  for (const child of root.children) {
    const value = child.labels[tag];
    if (value === undefined) ungrouped.push(child);
    else groups.set(value, [...(groups.get(value) ?? []), child]);
  }
  const grouped = [...groups.keys()].sort().map((value): Built => ({
    name: value,
    type: 'Group',
    namespace: root.namespace,
    icon: null,
    owner: null,
    text: null,
    tooltip: null,
    description: null,
    lifecycle: null,
    external_id: null,
    labels: { [tag]: value },
    hidden: false,
    order: null,
    properties: [],
    health: null,
    status: null,
    status_reason: null,
    healthExpr: undefined,
    statusExpr: undefined,
    selectors: [],
    checks: [],
    configs: [],
    children: groups.get(value) ?? [],
    specPath: root.specPath,
  }));
  return { ...root, children: [...grouped, ...ungrouped] };
}

const SEVERITY: Record<ComponentHealth, number> = { unknown: 0, healthy: 1, warning: 2, unhealthy: 3 };

function worst(values: readonly (ComponentHealth | null)[]): ComponentHealth | null {
  let out: ComponentHealth | null = null;
  for (const value of values) {
    if (value === null) continue;
    if (out === null || SEVERITY[value] > SEVERITY[out]) out = value;
  }
  return out;
}

function asExpression(raw: unknown): Expression | undefined {
  if (typeof raw === 'string' && raw.trim() !== '') return { expr: raw };
  if (isRecord(raw)) return raw as Expression;
  return undefined;
}

interface Written {
  id: string;
  built: Built;
  previousHealth: string | null;
  existed: boolean;
  children: Written[];
  checkStatuses: (string | null)[];
  relatedHealth: (string | null)[];
}

async function writeComponent(
  client: PoolClient,
  topology: TopologyRow,
  built: Built,
  parent: { id: string; path: string | null } | null,
  topologyType: string | null,
): Promise<Written> {
  const previous = await client.query<{ id: string; health: string | null; deleted_at: Date | null }>(
    `SELECT id, health, deleted_at FROM components
     WHERE topology_id = $1 AND type IS NOT DISTINCT FROM $2 AND name = $3 AND parent_id IS NOT DISTINCT FROM $4`,
    [topology.id, built.type, built.name, parent?.id ?? null],
  );
  const path = parent ? (parent.path ? `${parent.path}.${parent.id}` : parent.id) : null;
  const values = [
    topology.id,
    parent?.id ?? null,
    built.name,
    built.type,
    topologyType,
    built.namespace,
    built.icon,
    built.owner,
    JSON.stringify(built.labels),
    JSON.stringify(built.properties),
    built.text,
    built.tooltip,
    built.description,
    built.lifecycle,
    built.external_id,
    built.hidden,
    built.order,
    JSON.stringify(built.selectors),
    JSON.stringify(built.checks),
    JSON.stringify(built.configs),
    path,
    built.children.length === 0,
    topology.agent_id,
  ];
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO components (topology_id, parent_id, name, type, topology_type, namespace, icon, owner,
        labels, properties, text, tooltip, description, lifecycle, external_id, hidden, display_order,
        selectors, component_checks, configs, path, is_leaf, agent_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $15, $16, $17,
        $18::jsonb, $19::jsonb, $20::jsonb, $21, $22, $23)
     ON CONFLICT (topology_id, type, name, parent_id) DO UPDATE SET
        topology_type = EXCLUDED.topology_type, namespace = EXCLUDED.namespace, icon = EXCLUDED.icon,
        owner = EXCLUDED.owner, labels = EXCLUDED.labels, properties = EXCLUDED.properties,
        text = EXCLUDED.text, tooltip = EXCLUDED.tooltip, description = EXCLUDED.description,
        lifecycle = EXCLUDED.lifecycle, external_id = EXCLUDED.external_id, hidden = EXCLUDED.hidden,
        display_order = EXCLUDED.display_order, selectors = EXCLUDED.selectors,
        component_checks = EXCLUDED.component_checks, configs = EXCLUDED.configs, path = EXCLUDED.path,
        is_leaf = EXCLUDED.is_leaf, agent_id = EXCLUDED.agent_id, deleted_at = NULL
     RETURNING id`,
    values,
  );
  const id = rows[0].id;
  const old = previous.rows[0];
  const written: Written = {
    id,
    built,
    previousHealth: old && old.deleted_at === null ? old.health : null,
    existed: old !== undefined && old.deleted_at === null,
    children: [],
    checkStatuses: [],
    relatedHealth: [],
  };
  for (const child of built.children)
    written.children.push(await writeComponent(client, topology, child, { id, path }, topologyType));
  return written;
}

function flatten(node: Written): Written[] {
  return [node, ...node.children.flatMap(flatten)];
}

/** checks[] (selector entries and inline canaries' checks) and configs[] as relationship rows. */
async function writeLinks(client: PoolClient, node: Written): Promise<void> {
  const checkLinks: Parameters<typeof linkChecksToComponent>[2][number][] = [];
  for (const [index, entry] of node.built.checks.entries()) {
    const inline = node.built.inlineChecks?.get(index);
    if (inline) {
      for (const check of inline)
        if (!checkLinks.some((link) => link.id === check.id))
          checkLinks.push({ ...check, selectorId: `checks[${index}].inline` });
      continue;
    }
    const selector = (isRecord(entry.selector) ? entry.selector : entry) as CheckSelector;
    for (const check of await selectChecks(client, selector))
      if (!checkLinks.some((link) => link.id === check.id))
        checkLinks.push({ ...check, selectorId: `checks[${index}]` });
  }
  await linkChecksToComponent(client, node.id, checkLinks);
  node.checkStatuses = checkLinks.map((link) => link.status);

  const configLinks: { configId: string; selectorId: string }[] = [];
  for (const [index, selector] of node.built.configs.entries())
    for (const configId of await selectConfigs(client, selector))
      if (!configLinks.some((link) => link.configId === configId))
        configLinks.push({ configId, selectorId: `configs[${index}]` });
  await linkConfigsToComponent(client, node.id, configLinks);

  // selectors[]: other live components pulled in under this one (component_relationships).
  const related: { id: string; health: string | null }[] = [];
  for (const selector of node.built.selectors) {
    const { equals, keys } = parseLabelSelector(selector.labelSelector);
    const types = selector.types ?? [];
    if (!selector.name && Object.keys(equals).length === 0 && keys.length === 0 && types.length === 0)
      continue;
    const { rows } = await client.query<{ id: string; health: string | null }>(
      `SELECT id, health FROM components
       WHERE deleted_at IS NULL AND id <> $1
         AND ($2::text IS NULL OR name = $2)
         AND ($3::text IS NULL OR namespace = $3)
         AND (cardinality($4::text[]) = 0 OR type = ANY($4::text[]))
         AND coalesce(labels, '{}'::jsonb) @> $5::jsonb
         AND coalesce(labels, '{}'::jsonb) ?& $6::text[]`,
      [node.id, selector.name ?? null, selector.namespace ?? null, types, JSON.stringify(equals), keys],
    );
    for (const row of rows) if (!related.some((entry) => entry.id === row.id)) related.push(row);
  }
  for (const entry of related)
    await client.query(
      `INSERT INTO component_relationships (component_id, relationship_id, selector_id)
       VALUES ($1, $2, 'selectors') ON CONFLICT (component_id, relationship_id) DO UPDATE SET deleted_at = NULL`,
      [node.id, entry.id],
    );
  await client.query(
    `UPDATE component_relationships SET deleted_at = now()
     WHERE component_id = $1 AND deleted_at IS NULL AND NOT (relationship_id = ANY($2::uuid[]))`,
    [node.id, related.map((entry) => entry.id)],
  );
  node.relatedHealth = related.map((entry) => entry.health);
}

/** Health bottom-up: explicit, else the worst of checks, children and pulled-in components. */
async function rollUp(client: PoolClient, node: Written, events: EventToEnqueue[]): Promise<ComponentHealth> {
  const childHealths: ComponentHealth[] = [];
  for (const child of node.children) childHealths.push(await rollUp(client, child, events));
  const checkHealths = node.checkStatuses.map((status) => normaliseHealth(status));
  const relatedHealths = node.relatedHealth.map((status) => normaliseHealth(status));
  let health: ComponentHealth =
    node.built.health ?? worst([...checkHealths, ...childHealths, ...relatedHealths]) ?? 'unknown';
  let status = node.built.status ?? health;
  const variables = {
    component: {
      name: node.built.name,
      type: node.built.type ?? '',
      labels: node.built.labels,
      health,
      status,
      properties: node.built.properties,
    },
    properties: node.built.properties,
    checks: node.checkStatuses.map((value) => ({ status: value ?? 'unknown' })),
    children: node.children.map((child) => ({ name: child.built.name })),
  };
  const healthExpression = asExpression(node.built.healthExpr);
  if (healthExpression) {
    try {
      health = normaliseHealth(await evaluate(healthExpression, variables)) ?? 'unknown';
    } catch (error) {
      throw new TopologyRunError(`${node.built.name}: healthExpr: ${(error as Error).message}`);
    }
  }
  const statusExpression = asExpression(node.built.statusExpr);
  if (statusExpression) {
    try {
      status = stringifyResult(await evaluate(statusExpression, { ...variables, health })) || status;
    } catch (error) {
      throw new TopologyRunError(`${node.built.name}: statusExpr: ${(error as Error).message}`);
    }
  }
  const counts: Record<string, number> = {};
  for (const value of childHealths) counts[value] = (counts[value] ?? 0) + 1;
  await client.query(
    `UPDATE components SET health = $2, status = $3, status_reason = $4, summary = $5::jsonb WHERE id = $1`,
    [
      node.id,
      health,
      status,
      node.built.status_reason,
      JSON.stringify({ ...counts, checks: node.checkStatuses.length }),
    ],
  );
  if ((node.previousHealth ?? 'unknown') !== health && (node.existed || health !== 'unknown'))
    events.push({ name: `component.${health}`, properties: { id: node.id } });
  return health;
}

/** The `source` of the canaries a topology's inline checks create. */
export function inlineCanarySource(topologyId: string): string {
  return `topology:${topologyId}`;
}

/**
 * The label on an inline canary naming, as a dotted JSON path into the topology's spec, what
 * declares it: the inline check (`components.0.checks.1.inline`), or the lookup whose items made
 * its component (`components.2.lookup`). When a spec edit removes that path the canary is deleted
 * at once (migration 0350's trigger), not only at the topology's next run.
 */
export const INLINE_CHECK_PATH_LABEL = 'opsdeck.io/topology-check';

/** `spec.components[2].checks[0].inline` → `components.2.checks.0.inline`. */
export function specJsonPath(where: string): string {
  return where
    .replace(/^spec\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\./, '');
}

/** `<topology>-<component path>-<index>`: stable across runs, unique within the namespace. */
function inlineCanaryName(topology: TopologyRow, names: readonly string[], index: number): string {
  const name = `${topology.name}-${names.join('.')}-${index}`.replace(/\//g, '-').replace(/\s+/g, '-');
  return name.length <= 200 ? name : `${name.slice(0, 180)}-${stableHash(name).slice(0, 12)}`;
}

/**
 * Inline check specs (`checks[].inline`) become canaries owned by the topology (source
 * `topology:<id>`), applied through the resources store like any Canary document so the health
 * module's scheduler runs them; their checks rows are synced at once (health's `syncCanaryChecks`)
 * so this run links them. Canaries no longer declared are soft-deleted.
 */
async function applyInlineChecks(
  pool: Pool,
  topology: TopologyRow,
  root: Built,
  options: TopologyRunOptions,
): Promise<void> {
  const source = inlineCanarySource(topology.id);
  const keep: ResourceIdentity[] = [];
  const visit = async (node: Built, names: string[]): Promise<void> => {
    for (const [index, entry] of node.checks.entries()) {
      if (!isRecord(entry.inline)) continue;
      const where = `${names.join('.')}.checks[${index}].inline`;
      const name = inlineCanaryName(topology, names, index);
      const [result] = await applyResources(
        pool,
        [
          {
            origin: { file: `topology/${topology.namespace}/${topology.name}`, document: 1 },
            content: {
              apiVersion: 'canaries.flanksource.com/v1',
              kind: 'Canary',
              metadata: {
                name,
                namespace: topology.namespace,
                labels: {
                  ...node.labels,
                  'opsdeck.io/topology': topology.name,
                  [INLINE_CHECK_PATH_LABEL]: specJsonPath(
                    node.specPath.endsWith('.lookup')
                      ? node.specPath
                      : `${node.specPath}.checks[${index}].inline`,
                  ),
                },
              },
              spec: entry.inline,
            },
            yamlErrors: [],
          },
        ],
        { source, secrets: options.secrets },
      );
      if (!result.id || !['created', 'updated', 'unchanged'].includes(result.status)) {
        const reason =
          result.message ??
          result.issues?.map((issue) => `${issue.path || 'spec'}: ${issue.message}`).join('; ') ??
          result.status;
        throw new TopologyRunError(`${where}: ${reason}`);
      }
      keep.push({ kind: 'Canary', namespace: topology.namespace, name });
      const canary = await loadCanary(pool, result.id);
      if (canary) await syncCanaryChecks(pool, canary);
      const { rows } = await pool.query<SelectedCheck>(
        `SELECT id, canary_id, status FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY name`,
        [result.id],
      );
      (node.inlineChecks ??= new Map()).set(index, rows);
    }
    for (const child of node.children) await visit(child, [...names, child.name]);
  };
  await visit(root, [root.name]);
  await deleteResourcesMissingFromSource(pool, source, keep);
}

/**
 * Runs one topology: lookups, then (in one transaction) the tree, links, soft deletes, roll-up
 * and events. Throws TopologyRunError (nothing written) when a lookup or expression fails.
 */
export async function runTopology(
  pool: Pool,
  topology: TopologyRow,
  options: TopologyRunOptions,
): Promise<TopologyRunSummary> {
  const opened: TopologyRow = options.openSecrets
    ? { ...topology, spec: options.openSecrets(topology.spec) as Json }
    : topology;
  const context: RunContext = { topology: opened, options, lookups: 0 };
  const tree = await buildTopologyTree(opened, context);
  await applyInlineChecks(pool, topology, tree, options);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const root = await writeComponent(client, topology, tree, null, text(topology.spec.type));
    const all = flatten(root);
    for (const node of all) await writeLinks(client, node);
    const deleted = await client.query(
      `UPDATE components SET deleted_at = now()
       WHERE topology_id = $1 AND deleted_at IS NULL AND NOT (id = ANY($2::uuid[]))`,
      [topology.id, all.map((node) => node.id)],
    );
    const events: EventToEnqueue[] = [];
    await rollUp(client, root, events);
    await enqueueEvents(client, events);
    await client.query('COMMIT');
    return {
      components: all.length,
      deleted: deleted.rowCount ?? 0,
      lookups: context.lookups,
      events: events.length,
    };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
