import { dataApiAllowlistInput } from '../../../modules.js';
import {
  RESOURCE_OBJECTS,
  RESOURCES,
  relationAccess,
  resourceForRelation,
  type Resource,
} from '@opsdeck/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Pool } from '../../../platform/db/pool.js';

/**
 * Every door of the auth test app (buildAuthTestApp) that a caller's rights decide: reads of
 * every data-API relation, each write verb of every writable table, the requirePermission routes
 * per resource and per token scope object, the playbook verbs, and the MCP endpoint when it is
 * registered. Each probe says which resource, permission object and action it needs, so a
 * table-driven test can compute the exact answer each cell should get and compare.
 */

/** The action a probe asks for: a CRUD verb (data API), a matrix `write` (custom routes) or a playbook verb. */
export type ProbeAction =
  'read' | 'create' | 'update' | 'delete' | 'write' | 'playbook:run' | 'playbook:approve';

export interface Probe {
  label: string;
  request: InjectOptions;
  /** The role-matrix resource the probe needs. */
  resource: Resource;
  /** The permission object (and token scope object) it falls under; undefined when none. */
  object: string | undefined;
  action: ProbeAction;
  kind: 'data' | 'route' | 'mcp';
}

const DEFAULT_TABLE_ACTIONS = ['read', 'insert', 'update', 'delete'];
const VERB_METHOD = { create: 'POST', update: 'PATCH', delete: 'DELETE' } as const;

/** All probes against the schema of `pool` (relations a later migration has not made are left out). */
export async function accessProbes(pool: Pool, options: { mcp?: boolean } = {}): Promise<Probe[]> {
  const { rows: relations } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
  );
  const existing = new Set(relations.map((row) => row.table_name));
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const tables = Object.entries(dataApiAllowlistInput.tables ?? {});
  const views = Object.keys(dataApiAllowlistInput.views ?? {});
  const hiddenEverywhere = new Set(dataApiAllowlistInput.hiddenEverywhere ?? []);
  const probes: Probe[] = [];

  for (const relation of [...tables.map(([name]) => name), ...views]) {
    if (!existing.has(relation)) continue;
    probes.push({
      label: `GET /api/db/${relation}`,
      request: { method: 'GET', url: `/api/db/${relation}?limit=0` },
      resource: resourceForRelation(relation, 'read'),
      object: relationAccess(relation).object,
      action: 'read',
      kind: 'data',
    });
  }

  for (const [relation, policy] of tables) {
    if (!existing.has(relation)) continue;
    const actions = policy.actions ?? DEFAULT_TABLE_ACTIONS;
    const hidden = new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]);
    const column = columns.find((row) => row.table_name === relation && !hidden.has(row.column_name));
    if (!column) throw new Error(`${relation} has no visible column to filter on`);
    const name = column.column_name;
    for (const verb of ['create', 'update', 'delete'] as const) {
      if (!actions.includes(verb === 'create' ? 'insert' : verb)) continue;
      // Writes that touch no row: an empty insert, and filters no row matches. An allowed write
      // changes nothing, a refused one never runs.
      const noRow = `${name}=is.null&${name}=not.is.null`;
      probes.push({
        label: `${VERB_METHOD[verb]} /api/db/${relation}`,
        request: {
          method: VERB_METHOD[verb],
          url: verb === 'create' ? `/api/db/${relation}` : `/api/db/${relation}?${noRow}`,
          headers: { 'content-type': 'application/json' },
          ...(verb === 'create' ? { payload: '[]' } : verb === 'update' ? { payload: { [name]: null } } : {}),
        },
        resource: resourceForRelation(relation, 'write'),
        object: relationAccess(relation).object,
        action: verb,
        kind: 'data',
      });
    }
  }

  for (const resource of RESOURCES) {
    for (const action of ['read', 'write'] as const) {
      probes.push({
        label: `${action === 'read' ? 'GET' : 'POST'} /api/test/${resource}`,
        request: { method: action === 'read' ? 'GET' : 'POST', url: `/api/test/${resource}` },
        resource,
        object: RESOURCE_OBJECTS[resource],
        action,
        kind: 'route',
      });
    }
  }
  for (const object of ['canaries', 'catalog', 'application', 'playbooks', 'notification']) {
    for (const action of ['read', 'write'] as const) {
      probes.push({
        label: `${action === 'read' ? 'GET' : 'POST'} /api/test/object/${object}`,
        request: { method: action === 'read' ? 'GET' : 'POST', url: `/api/test/object/${object}` },
        resource: 'database',
        object,
        action,
        kind: 'route',
      });
    }
  }
  for (const verb of ['run', 'approve'] as const) {
    probes.push({
      label: `POST /api/test/playbooks/${verb}`,
      request: { method: 'POST', url: `/api/test/playbooks/${verb}` },
      resource: 'playbooks',
      object: 'playbooks',
      action: `playbook:${verb}`,
      kind: 'route',
    });
  }
  if (options.mcp) {
    probes.push({
      label: 'POST /mcp ping',
      request: {
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      },
      // The MCP endpoint asks only who calls and the token's mcp scope; the tools read with the caller's rights.
      resource: 'database',
      object: 'mcp',
      action: 'read',
      kind: 'mcp',
    });
  }
  return probes;
}

export interface ProbeResult {
  probe: Probe;
  status: number;
  body: string;
}

/** Runs every probe with the caller's headers, a few at a time. */
export async function runProbes(
  app: FastifyInstance,
  probes: readonly Probe[],
  headers: Record<string, string>,
): Promise<ProbeResult[]> {
  const results: ProbeResult[] = new Array(probes.length);
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const index = next++;
      const probe = probes[index];
      const response = await app.inject({
        ...probe.request,
        headers: { ...(probe.request.headers as Record<string, string> | undefined), ...headers },
      });
      results[index] = { probe, status: response.statusCode, body: response.body };
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return results;
}

/** Cells whose answer is not the expected one: allowed means 2xx, refused means exactly 403. */
export function wrongCells(
  results: readonly ProbeResult[],
  expected: (probe: Probe) => boolean,
  refusal?: RegExp,
): string[] {
  const wrong: string[] = [];
  for (const { probe, status, body } of results) {
    const allowed = expected(probe);
    const ok = allowed ? status >= 200 && status < 300 : status === 403 && (!refusal || refusal.test(body));
    if (!ok)
      wrong.push(`${probe.label}: expected ${allowed ? '2xx' : '403'}, got ${status} ${body.slice(0, 200)}`);
  }
  return wrong;
}
