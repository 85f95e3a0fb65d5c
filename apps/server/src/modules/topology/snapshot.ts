/** `GET /api/snapshot/topology/{id}`: the component tree with checks, configs and incidents. */
import type { Pool } from '../../platform/db/pool.js';
import { tarGz } from './tar.js';
import { andScope, UNSCOPED, type TopologyScopes } from './row-scope.js';
import { queryTopology } from './topology-service.js';

/** How many recent statuses of each linked check go into the snapshot. */
export const SNAPSHOT_CHECK_STATUSES = 20;

export async function topologySnapshot(
  pool: Pool,
  componentId: string,
  scopes: TopologyScopes = UNSCOPED,
): Promise<{ name: string; archive: Buffer }> {
  const tree = await queryTopology(pool, { id: componentId, depth: 10, flatten: true }, scopes);
  const ids = tree.components.map((component) => component.id);
  const root = tree.components[0];
  // Only the checks and configs the caller may read, as on the component page.
  const only = andScope;
  const checkValues: unknown[] = [ids];
  const configValues: unknown[] = [ids];
  const checks = await pool.query(
    `SELECT ch.id, ch.name, ch.type, ch.status, r.component_id,
            (SELECT coalesce(jsonb_agg(s ORDER BY s.time DESC), '[]'::jsonb) FROM (
               SELECT cs.time, cs.status, cs.duration, cs.message, cs.error FROM check_statuses cs
               WHERE cs.check_id = ch.id ORDER BY cs.time DESC LIMIT ${SNAPSHOT_CHECK_STATUSES}) s) AS statuses
     FROM check_component_relationships r JOIN checks ch ON ch.id = r.check_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL${only(scopes.checks, 'ch', checkValues)}
     ORDER BY ch.name`,
    checkValues,
  );
  const configs = await pool.query(
    `SELECT ci.id, ci.name, ci.type, ci.config_class, ci.health, ci.status, ci.config, r.component_id
     FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL${only(scopes.configs, 'ci', configValues)}
     ORDER BY ci.name`,
    configValues,
  );
  const incidents = await pool.query(
    `SELECT id, title, type, status, severity, created_at, component_id FROM incidents_by_component
     WHERE component_id = ANY($1::uuid[]) ORDER BY created_at DESC`,
    [ids],
  );
  const nested = await queryTopology(pool, { id: componentId, depth: 10 }, scopes);
  const now = new Date();
  const folder = `snapshot-${root.name.replace(/[^A-Za-z0-9_.-]+/g, '-')}-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  const archive = tarGz([
    { name: `${folder}/topology.json`, content: json(nested.components[0]), mtime: now },
    { name: `${folder}/checks.json`, content: json(checks.rows), mtime: now },
    { name: `${folder}/configs.json`, content: json(configs.rows), mtime: now },
    { name: `${folder}/incidents.json`, content: json(incidents.rows), mtime: now },
  ]);
  return { name: `${folder}.tar.gz`, archive };
}
