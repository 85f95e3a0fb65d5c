/**
 * Row-level permissions on the topology API: the data API's gate decides the caller's access to
 * `components` (roles, and permission rows limited by object selectors, tags, agents or a single
 * component, or named topologies) and returns its row filters; they are compiled here into SQL
 * over the `components` alias the topology queries use, so the API shows what `/api/db/components`
 * would show the same caller.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RowFilter } from '../../data-api/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { createDataApiAuthorizer } from '../auth/index.js';

/** The tables the component scope reaches (components themselves and their topologies). */
const TABLES = new Set(['components', 'topologies']);
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const OPERATORS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** A restriction of the components the caller may read; `sql(alias, param)` is its condition. */
export interface ComponentScope {
  readonly filters: readonly RowFilter[];
}

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`row filter names an unexpected column "${name}"`);
  return `"${name}"`;
}

/**
 * The condition a component row under `alias` must meet, its values bound through `param`
 * (which returns the `$n` placeholder). Unknown relations fail closed.
 */
export function scopeCondition(
  scope: ComponentScope | null,
  alias: string,
  param: (value: unknown) => string,
): string | null {
  if (!scope || scope.filters.length === 0) return null;
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
        const other = `rs${++counter}`;
        const joins = filter.on.map(
          ([otherColumn, ownColumn]) => `${other}.${identifier(otherColumn)} = ${column(ownColumn)}`,
        );
        const where = (filter.where ?? []).map((inner) => compile(inner, other));
        return `EXISTS (SELECT 1 FROM ${filter.relation} ${other} WHERE ${[...joins, ...where].join(' AND ') || 'TRUE'})`;
      }
    }
  };
  return scope.filters.map((filter) => `coalesce((${compile(filter, alias)}), FALSE)`).join(' AND ');
}

/**
 * A preHandler-style gate: decides read on `components` as the data API would and leaves the
 * caller's scope (null when unrestricted) for the handler. Refusals answer 401/403 at once.
 */
export function createComponentScopeGate(pool: Pool) {
  const authorize = createDataApiAuthorizer({ pool });
  const scopes = new WeakMap<FastifyRequest, ComponentScope | null>();
  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const decision = await authorize(request, { relation: 'components', kind: 'table' }, 'read');
      if (!decision.allow) {
        await reply.status(decision.status).send({ error: decision.message });
        return;
      }
      scopes.set(request, decision.rowFilters?.length ? { filters: decision.rowFilters } : null);
    },
    scopeOf(request: FastifyRequest): ComponentScope | null {
      return scopes.get(request) ?? null;
    },
  };
}
