/**
 * Check runs for other modules (the topology's `lookup`s): a canary-shaped spec run through the
 * same check runners as canaries, without recording results; and links from components to checks.
 */
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { listCanaryChecks, runCheck, type CheckRun, type RunCheckOptions } from './checks/index.js';

type Queryable = Pool | PoolClient;

export interface LookupRun {
  /** `<type>/<name>` of the check in the lookup spec. */
  name: string;
  run: CheckRun;
}

/**
 * Runs every check a canary-shaped spec (`{exec: [...], postgres: [...]}`) declares, in spec
 * order, one after the other. An unsupported type comes back as an invalid result.
 */
export async function runCheckSpec(spec: unknown, options: RunCheckOptions): Promise<LookupRun[]> {
  const runs: LookupRun[] = [];
  for (const entry of listCanaryChecks(spec)) {
    const run = await runCheck(entry.type, entry.spec, options);
    runs.push({ name: `${entry.specKey}/${entry.name}`, run });
  }
  return runs;
}

/** A check selector of a component's `checks[]` (the ecosystem's ResourceSelector). */
export interface CheckSelector {
  name?: string;
  namespace?: string;
  types?: string[];
  labelSelector?: string;
}

export interface SelectedCheck {
  id: string;
  canary_id: string;
  status: string | null;
}

/** `k=v,k2=v2` (and bare `k` for "has the key") as a jsonb containment and key list. */
export function parseLabelSelector(text: string | undefined): {
  equals: Record<string, string>;
  keys: string[];
} {
  const equals: Record<string, string> = {};
  const keys: string[] = [];
  for (const part of (text ?? '').split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const index = trimmed.indexOf('=');
    if (index < 0) keys.push(trimmed);
    else
      equals[trimmed.slice(0, index).trim()] = trimmed
        .slice(index + 1)
        .replace(/^=/, '')
        .trim();
  }
  return { equals, keys };
}

/** The live checks a selector matches; an empty selector matches none. */
export async function selectChecks(db: Queryable, selector: CheckSelector): Promise<SelectedCheck[]> {
  const { equals, keys } = parseLabelSelector(selector.labelSelector);
  const hasCriteria =
    Boolean(selector.name) ||
    Object.keys(equals).length > 0 ||
    keys.length > 0 ||
    (selector.types ?? []).length > 0;
  if (!hasCriteria) return [];
  const { rows } = await db.query<SelectedCheck>(
    `SELECT id, canary_id, status FROM checks
     WHERE deleted_at IS NULL
       AND ($1::text IS NULL OR name = $1)
       AND ($2::text IS NULL OR namespace = $2)
       AND (cardinality($3::text[]) = 0 OR type = ANY($3::text[]))
       AND coalesce(labels, '{}'::jsonb) @> $4::jsonb
       AND coalesce(labels, '{}'::jsonb) ?& $5::text[]
     ORDER BY name, id`,
    [selector.name ?? null, selector.namespace ?? null, selector.types ?? [], JSON.stringify(equals), keys],
  );
  return rows;
}

/**
 * Makes `links` exactly the checks linked to the component by its selectors: new links are
 * written (or undeleted); selector links no longer matched are marked deleted (manual ones stay).
 */
export async function linkChecksToComponent(
  db: Queryable,
  componentId: string,
  links: readonly (SelectedCheck & { selectorId: string })[],
): Promise<void> {
  for (const link of links) {
    await db.query(
      `INSERT INTO check_component_relationships (component_id, check_id, canary_id, selector_id)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (component_id, check_id) DO UPDATE SET selector_id = EXCLUDED.selector_id, deleted_at = NULL`,
      [componentId, link.id, link.canary_id, link.selectorId],
    );
  }
  await db.query(
    `UPDATE check_component_relationships SET deleted_at = now()
     WHERE component_id = $1 AND deleted_at IS NULL AND selector_id IS DISTINCT FROM 'manual'
       AND NOT (check_id = ANY($2::uuid[]))`,
    [componentId, links.map((link) => link.id)],
  );
}
