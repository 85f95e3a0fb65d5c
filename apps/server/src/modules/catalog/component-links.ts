/** Links from components to config items (a component's `configs[]`), for the topology module. */
import type { Pool, PoolClient } from '../../platform/db/pool.js';

type Queryable = Pool | PoolClient;

/** One entry of a component's `configs[]` (the ecosystem's config selector). */
export interface ConfigSelector {
  id?: string;
  name?: string;
  namespace?: string;
  type?: string;
  types?: string[];
  /** Exact tag values the item must carry. */
  tags?: Record<string, string>;
  labelSelector?: string;
}

function labelPairs(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const index = part.indexOf('=');
    if (index > 0)
      pairs[part.slice(0, index).trim()] = part
        .slice(index + 1)
        .replace(/^=/, '')
        .trim();
  }
  return pairs;
}

/** The ids of the live config items a selector matches; an empty selector matches none. */
export async function selectConfigs(db: Queryable, selector: ConfigSelector): Promise<string[]> {
  const types = [...(selector.types ?? []), ...(selector.type ? [selector.type] : [])];
  const labels = { ...labelPairs(selector.labelSelector) };
  const tags = selector.tags ?? {};
  if (
    !selector.id &&
    !selector.name &&
    types.length === 0 &&
    Object.keys(labels).length === 0 &&
    Object.keys(tags).length === 0
  )
    return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM config_items
     WHERE deleted_at IS NULL
       AND ($1::text IS NULL OR id::text = $1)
       AND ($2::text IS NULL OR name = $2)
       AND ($3::text IS NULL OR coalesce(tags->>'namespace', '') = $3)
       AND (cardinality($4::text[]) = 0 OR type = ANY($4::text[]))
       AND coalesce(labels, '{}'::jsonb) @> $5::jsonb
       AND coalesce(tags, '{}'::jsonb) @> $6::jsonb
     ORDER BY name, id`,
    [
      selector.id ?? null,
      selector.name ?? null,
      selector.namespace ?? null,
      types,
      JSON.stringify(labels),
      JSON.stringify(tags),
    ],
  );
  return rows.map((row) => row.id);
}

/**
 * Makes `links` exactly the config items linked to the component by its selectors; links no
 * selector matches any more are marked deleted (the ones a user added, selector 'manual', stay).
 */
export async function linkConfigsToComponent(
  db: Queryable,
  componentId: string,
  links: readonly { configId: string; selectorId: string }[],
): Promise<void> {
  for (const link of links) {
    await db.query(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id)
       VALUES ($1, $2, $3)
       ON CONFLICT (component_id, config_id) DO UPDATE SET selector_id = EXCLUDED.selector_id, deleted_at = NULL`,
      [componentId, link.configId, link.selectorId],
    );
  }
  await db.query(
    `UPDATE config_component_relationships SET deleted_at = now()
     WHERE component_id = $1 AND deleted_at IS NULL AND selector_id IS DISTINCT FROM 'manual'
       AND NOT (config_id = ANY($2::uuid[]))`,
    [componentId, links.map((link) => link.configId)],
  );
}
