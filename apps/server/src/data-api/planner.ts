/**
 * Stage 2: query tree + live catalog → one SQL statement with bound parameters.
 *
 * Every identifier in the SQL comes from the catalog (quoted); every client-supplied value,
 * including JSON keys and output names that are not catalog identifiers, is a parameter. The
 * plan refers to request values by slot only, so it is cached by request shape and reused.
 *
 * Row-level restrictions are not known when a plan is made (they depend on the user): the
 * statement carries a marker where each relation's restriction goes, and `finalizePlan`
 * replaces the markers with compiled, parameterised SQL (cached by the restrictions' shape).
 */
import type { DataApiAllowlist } from './allowlist.js';
import type { Catalog } from './catalog.js';
import { Builder, resolveRelation, type Plan, type PlanRequest } from './planner/common.js';
import { planInsert, planPut } from './planner/insert.js';
import { planRpc } from './planner/rpc.js';
import { planRead } from './planner/select.js';
import { planUpdateOrDelete } from './planner/update-delete.js';

export {
  resolveRelation,
  type BodyShape,
  type FinalStatement,
  type FinalizedPlan,
  type ParamSource,
  type Plan,
  type PlanKind,
  type PlanRequest,
  type RowFilterConvert,
  type RowFilterSlot,
  type RpcBinding,
  type StatementTemplate,
  type Touched,
} from './planner/common.js';
export { finalizeTemplate } from './planner/finalize.js';
export { resolveFunction } from './planner/rpc.js';

export function planRequest(catalog: Catalog, allowlist: DataApiAllowlist, request: PlanRequest): Plan {
  const builder = new Builder(catalog, allowlist, request.query, request.maxRows);
  if (request.target.kind === 'function') return planRpc(builder, request);
  const relation = resolveRelation(catalog, allowlist, request.target.name);
  const policy = allowlist.relation(relation.name)!;
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      return planRead(builder, request, relation, policy);
    case 'POST':
      return planInsert(builder, request, relation, policy);
    case 'PUT':
      return planPut(builder, request, relation, policy);
    case 'PATCH':
    case 'DELETE':
      return planUpdateOrDelete(builder, request, relation, policy);
  }
}
