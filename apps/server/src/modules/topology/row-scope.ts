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

/**
 * The tables a scope's filters may reach: components and their topologies, and for the linked
 * checks and configs their canaries, agents and scrapers.
 */
const TABLES = new Set([
  'components',
  'topologies',
  'checks',
  'canaries',
  'config_items',
  'agents',
  'config_scrapers',
]);
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const OPERATORS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** A restriction of the rows (components, checks or configs) the caller may read. */
export interface ComponentScope {
  readonly filters: readonly RowFilter[];
}

/** Rows of a relation the caller may not read at all. */
const NONE: ComponentScope = { filters: [{ kind: 'constant', value: false }] };

/** What the caller may read of a component page: components, and the checks and configs linked to them. */
export interface TopologyScopes {
  readonly components: ComponentScope | null;
  readonly checks: ComponentScope | null;
  readonly configs: ComponentScope | null;
}

export const UNSCOPED: TopologyScopes = { components: null, checks: null, configs: null };

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

/** ` AND <condition>` for a query whose bound values are `values` (appended to), or '' unscoped. */
export function andScope(scope: ComponentScope | null, alias: string, values: unknown[]): string {
  const condition = scopeCondition(scope, alias, (value) => {
    values.push(value);
    return `$${values.length}`;
  });
  return condition ? ` AND ${condition}` : '';
}

/**
 * A preHandler-style gate: decides read on `components` as the data API would and leaves the
 * caller's scopes for the handler: the components' row filters, and those of `checks` and
 * `config_items` for the checks and configs linked to them (none of them when read on that
 * relation is refused). Null scopes are unrestricted. A refusal on components answers 401/403 at once.
 */
export function createComponentScopeGate(pool: Pool) {
  const authorize = createDataApiAuthorizer({ pool });
  const scopes = new WeakMap<FastifyRequest, TopologyScopes>();
  type Decision = Awaited<ReturnType<typeof authorize>>;
  const scopeOf = (decision: Decision): ComponentScope | null => {
    if (!decision.allow) return NONE;
    return decision.rowFilters?.length ? { filters: decision.rowFilters } : null;
  };
  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const [components, checks, configs] = await Promise.all([
        authorize(request, { relation: 'components', kind: 'table' }, 'read'),
        authorize(request, { relation: 'checks', kind: 'table' }, 'read'),
        authorize(request, { relation: 'config_items', kind: 'table' }, 'read'),
      ]);
      if (!components.allow) {
        await reply.status(components.status).send({ error: components.message });
        return;
      }
      scopes.set(request, {
        components: scopeOf(components),
        checks: scopeOf(checks),
        configs: scopeOf(configs),
      });
    },
    scopeOf(request: FastifyRequest): TopologyScopes {
      return scopes.get(request) ?? UNSCOPED;
    },
  };
}
