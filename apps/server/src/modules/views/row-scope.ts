/**
 * Row-level permissions on the views API (issue 28, ADR 0040): the data API's gate decides the
 * caller's read of `views` (roles, and permission rows whose object selector names views by
 * name, namespace or labels, or whose tags and agents narrow them); its row filters are compiled
 * here into SQL over `views`, so `POST /api/view/{id}`, `POST /api/view/{id}/rows` and
 * `GET /api/view/list` show what `/api/db/views` would show the same caller.
 */
import type { FastifyRequest } from 'fastify';
import type { RowFilter } from '../../data-api/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { createDataApiAuthorizer } from '../auth/index.js';

/** The tables a views selector's filters may reach: the view itself and its agent. */
const TABLES = new Set(['views', 'agents']);
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const OPERATORS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`row filter names an unexpected column "${name}"`);
  return `"${name}"`;
}

/**
 * The condition a `views` row under `alias` must meet for these filters, values appended to
 * `values` as bound parameters; null when the filters do not narrow. Unknown relations fail closed.
 */
export function viewScopeCondition(
  filters: readonly RowFilter[] | null,
  alias: string,
  values: unknown[],
): string | null {
  if (!filters || filters.length === 0) return null;
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  let counter = 0;
  const compile = (filter: RowFilter, on: string): string => {
    const column = (name: string) => `${on}.${identifier(name)}`;
    switch (filter.kind) {
      case 'compare':
        return `${column(filter.column)}::text ${OPERATORS[filter.op]} ${param(String(filter.value))}::text`;
      case 'in':
        return `${column(filter.column)}::text = ANY(${param(filter.values.map(String))}::text[])`;
      case 'is': {
        const test = filter.value === null ? 'NULL' : filter.value ? 'TRUE' : 'FALSE';
        return `${column(filter.column)} IS ${filter.negate ? 'NOT ' : ''}${test}`;
      }
      case 'contains':
        return Array.isArray(filter.value)
          ? `${column(filter.column)} @> ${param(filter.value)}`
          : `${column(filter.column)}::jsonb @> ${param(JSON.stringify(filter.value))}::jsonb`;
      case 'like':
        return `${column(filter.column)}::text LIKE ${param(filter.pattern)}::text`;
      case 'hasKey':
        return `${column(filter.column)}::jsonb ? ${param(filter.key)}::text`;
      case 'and':
      case 'or':
        if (filter.filters.length === 0) return filter.kind === 'and' ? 'TRUE' : 'FALSE';
        return `(${filter.filters.map((inner) => compile(inner, on)).join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `NOT coalesce((${compile(filter.filter, on)}), FALSE)`;
      case 'constant':
        return filter.value ? 'TRUE' : 'FALSE';
      case 'exists': {
        if (!TABLES.has(filter.relation)) return 'FALSE';
        const other = `vs${++counter}`;
        const joins = filter.on.map(
          ([otherColumn, ownColumn]) => `${other}.${identifier(otherColumn)} = ${column(ownColumn)}`,
        );
        const where = (filter.where ?? []).map((inner) => compile(inner, other));
        return `EXISTS (SELECT 1 FROM ${filter.relation} ${other} WHERE ${[...joins, ...where].join(' AND ') || 'TRUE'})`;
      }
    }
  };
  return filters.map((filter) => `coalesce((${compile(filter, alias)}), FALSE)`).join(' AND ');
}

/** The caller's read of views: refused outright, or allowed with the row filters that narrow it. */
export type ViewScope = { readonly filters: readonly RowFilter[] | null };

/** Decides read on views as the data API would, for the views routes. */
export function createViewGate(pool: Pool) {
  const authorize = createDataApiAuthorizer({ pool });
  /** The caller's scope over `views`, or a 401/403 HttpError when read on views is refused. */
  async function scopeOf(request: FastifyRequest): Promise<ViewScope> {
    const decision = await authorize(request, { relation: 'views', kind: 'table' }, 'read');
    if (!decision.allow) throw new HttpError(decision.status, decision.message);
    return { filters: decision.rowFilters?.length ? decision.rowFilters : null };
  }
  return {
    scopeOf,
    /**
     * Refuses (403) a view the caller's permission rows do not let it read; a view that does not
     * exist stays a 404 for the handler.
     */
    async requireView(request: FastifyRequest, id: string): Promise<void> {
      const scope = await scopeOf(request);
      const values: unknown[] = [id];
      const condition = viewScopeCondition(scope.filters, 'v', values);
      if (!condition) return;
      const { rows } = await pool.query<{ allowed: boolean }>(
        `SELECT ${condition} AS allowed FROM views v WHERE v.id::text = $1 AND v.deleted_at IS NULL`,
        values,
      );
      if (rows[0] && !rows[0].allowed)
        throw new HttpError(403, `You are not allowed to read the view ${id}`, 'id');
    },
  };
}
