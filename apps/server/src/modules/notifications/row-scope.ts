/**
 * Selector-narrowed permissions on the notification routes (issue 25): the data API's gate
 * decides the caller's access to `notifications` (roles, and permission rows whose object
 * selects notifications by name, namespace, labels or agent; a Deny wins) and returns its row
 * filters; they are compiled here into SQL over a `notifications` alias, so the routes show and
 * edit what `/api/db/notifications` would for the same caller.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RowFilter } from '../../data-api/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { createDataApiAuthorizer } from '../auth/index.js';

/** The notifications the caller may read or edit; null: every one. */
export interface NotificationScope {
  readonly filters: readonly RowFilter[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const OPERATORS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function quoted(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`row filter names an unexpected column "${name}"`);
  return `"${name}"`;
}

/**
 * The condition a notification row under `alias` must meet, its values bound through `param`
 * (which answers the `$n` placeholder); null for no restriction. A filter reaching a relation
 * other than `agents` (none does for notifications) matches nothing.
 */
export function notificationScopeSql(
  scope: NotificationScope | null,
  alias: string,
  param: (value: unknown) => string,
): string | null {
  if (!scope || scope.filters.length === 0) return null;
  let joined = 0;
  const compile = (filter: RowFilter, on: string): string => {
    const column = (name: string) => `${on}.${quoted(name)}`;
    switch (filter.kind) {
      case 'compare':
        return `${column(filter.column)}::text ${OPERATORS[filter.op]} ${param(String(filter.value))}::text`;
      case 'in':
        return `${column(filter.column)}::text = ANY(${param(filter.values.map(String))}::text[])`;
      case 'is':
        return `${column(filter.column)} IS ${filter.negate ? 'NOT ' : ''}${
          filter.value === null ? 'NULL' : filter.value ? 'TRUE' : 'FALSE'
        }`;
      case 'contains':
        return `${column(filter.column)}::jsonb @> ${param(JSON.stringify(filter.value))}::jsonb`;
      case 'like':
        return `${column(filter.column)}::text LIKE ${param(filter.pattern)}::text`;
      case 'hasKey':
        return `${column(filter.column)}::jsonb ? ${param(filter.key)}::text`;
      case 'and':
      case 'or': {
        if (filter.filters.length === 0) return filter.kind === 'and' ? 'TRUE' : 'FALSE';
        const parts = filter.filters.map((inner) => compile(inner, on));
        return `(${parts.join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
      }
      case 'not':
        return `NOT coalesce((${compile(filter.filter, on)}), FALSE)`;
      case 'constant':
        return filter.value ? 'TRUE' : 'FALSE';
      case 'exists': {
        if (filter.relation !== 'agents') return 'FALSE';
        const other = `ns${++joined}`;
        const conditions = [
          ...filter.on.map(([theirs, ours]) => `${other}.${quoted(theirs)} = ${column(ours)}`),
          ...(filter.where ?? []).map((inner) => compile(inner, other)),
        ];
        return `EXISTS (SELECT 1 FROM agents ${other} WHERE ${conditions.join(' AND ') || 'TRUE'})`;
      }
    }
  };
  return scope.filters.map((filter) => `coalesce((${compile(filter, alias)}), FALSE)`).join(' AND ');
}

/** The relations whose rows notification selectors match (a silence on its own name, namespace and labels). */
export type NotificationScopedTable = 'notifications' | 'notification_silences';

/**
 * A preHandler gate for reading, creating (`insert`), editing or deleting notifications or
 * silences, decided as the data API decides it; it leaves the caller's scope for the handler,
 * which must check the rows it writes against it. Refusals answer 401/403 at once.
 */
export function createNotificationScopeGate(
  pool: Pool,
  action: 'read' | 'insert' | 'update' | 'delete',
  relation: NotificationScopedTable = 'notifications',
) {
  const authorize = createDataApiAuthorizer({ pool });
  const scopes = new WeakMap<FastifyRequest, NotificationScope | null>();
  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const decision = await authorize(request, { relation, kind: 'table' }, action);
      if (!decision.allow) {
        await reply.status(decision.status).send({ error: decision.message });
        return;
      }
      scopes.set(request, decision.rowFilters?.length ? { filters: decision.rowFilters } : null);
    },
    scopeOf(request: FastifyRequest): NotificationScope | null {
      return scopes.get(request) ?? null;
    },
  };
}
