import {
  NOTIFICATION_LIST_PAGE_SIZE,
  notificationRuleIdParamsSchema,
  notificationRuleSaveRequestSchema,
  notificationSilenceIdParamsSchema,
  notificationSilencePreviewRequestSchema,
  notificationSilenceRequestSchema,
  type NotificationSilencePreviewRequest,
  type NotificationRuleSaveRequest,
  notificationSummaryRequestSchema,
  type NotificationSilenceRequest,
  type NotificationSummaryRequest,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { evaluateCel } from '../../expressions/index.js';
import { withTransaction, type Pool, type PoolClient } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { requirePermission } from '../auth/index.js';
import { notificationKind, type notificationSpec } from './notification-kind.js';
import {
  createNotificationScopeGate,
  notificationScopeSql,
  type NotificationScope,
  type NotificationScopedTable,
} from './row-scope.js';
import { previewSilence } from './silences.js';
import type { z } from 'zod';

export interface NotificationRoutesOptions {
  pool: Pool;
}

const PERMISSION = { object: 'notification', feature: 'settings.notifications' } as const;

/** One page of the send history, newest first, with the total (spec core §7). */
export async function sendHistoryPage(
  pool: Pool,
  request: NotificationSummaryRequest,
  scope: NotificationScope | null = null,
) {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const add = (sql: (placeholder: string) => string, value: unknown) => where.push(sql(param(value)));
  // Only the history of the notifications the caller may read (selector-narrowed permissions).
  const scoped = notificationScopeSql(scope, 'n', param);
  if (scoped)
    where.push(`EXISTS (SELECT 1 FROM notifications n WHERE n.id = s.notification_id AND ${scoped})`);
  if (request.status !== undefined) {
    add(
      (p) => `s.status = ANY(${p}::text[])`,
      Array.isArray(request.status) ? request.status : [request.status],
    );
  }
  if (request.resourceType) {
    add((p) => `s.resource_type = ${p}`, request.resourceType);
  }
  if (request.notificationId) add((p) => `s.notification_id = ${p}`, request.notificationId);
  if (request.resourceId) add((p) => `s.resource_id = ${p}`, request.resourceId);
  if (request.from) add((p) => `s.created_at >= ${p}`, request.from);
  if (request.to) add((p) => `s.created_at <= ${p}`, request.to);
  if (request.search?.trim()) {
    add(
      (p) =>
        `(s.title ILIKE ${p} OR s.error ILIKE ${p} OR s.recipient ILIKE ${p} OR s.source_event ILIKE ${p}
          OR s.notification ->> 'name' ILIKE ${p} OR s.resource ->> 'name' ILIKE ${p})`,
      `%${request.search.trim().replace(/[\\%_]/g, '\\$&')}%`,
    );
  }
  if (!request.includeDeletedResources) {
    where.push(`NOT EXISTS (
      SELECT 1 FROM checks ck WHERE s.resource_type = 'check' AND ck.id = s.resource_id AND ck.deleted_at IS NOT NULL
      UNION ALL SELECT 1 FROM config_items ci WHERE s.resource_type = 'config' AND ci.id = s.resource_id AND ci.deleted_at IS NOT NULL
      UNION ALL SELECT 1 FROM components co WHERE s.resource_type = 'component' AND co.id = s.resource_id AND co.deleted_at IS NOT NULL)`);
  }
  const pageSize = request.pageSize ?? NOTIFICATION_LIST_PAGE_SIZE;
  const pageIndex = request.pageIndex ?? 0;
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [page, total] = await Promise.all([
    pool.query(
      `SELECT * FROM notification_send_history_summary s ${filter}
        ORDER BY s.created_at DESC, s.id LIMIT ${pageSize} OFFSET ${pageIndex * pageSize}`,
      values,
    ),
    pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM notification_send_history_summary s ${filter}`,
      values,
    ),
  ]);
  return {
    results: page.rows.map((row: Record<string, unknown>) => ({
      ...row,
      first_observed: (row.first_observed as Date).toISOString(),
      created_at: (row.created_at as Date).toISOString(),
    })),
    total: total.rows[0].total,
  };
}

const RESOURCE_TABLES = {
  check_id: 'checks',
  config_id: 'config_items',
  component_id: 'components',
  canary_id: 'canaries',
} as const;

/**
 * Whether the caller's selector-narrowed permissions (the gate's scope) cover row `id` of `table`
 * as it is now in the transaction of `client`; a null scope (the roles allow all) covers every row.
 */
async function covers(
  client: PoolClient,
  table: NotificationScopedTable,
  id: string,
  scope: NotificationScope | null,
): Promise<boolean> {
  const bound: unknown[] = [id];
  const condition = notificationScopeSql(scope, 'n', (value) => `$${bound.push(value)}`);
  if (!condition) return true;
  const { rowCount } = await client.query(`SELECT 1 FROM ${table} n WHERE n.id = $1 AND ${condition}`, bound);
  return rowCount === 1;
}

/** Why a write outside the caller's notification permissions is refused (ADR 0041). */
const OUTSIDE_GRANT = 'your notification permissions do not cover it';

/** How a refusal names a silence: by namespace/name, or by namespace alone when it has no name. */
const silenceLabel = (row: { name: string | null; namespace: string }) =>
  row.name ? `${row.namespace}/${row.name}` : `in namespace ${row.namespace}`;

/** A silence's resource must exist and its filter must parse; else a 400 naming the field. */
async function checkSilenceFields(pool: Pool, body: NotificationSilencePreviewRequest): Promise<void> {
  for (const [field, table] of Object.entries(RESOURCE_TABLES) as [keyof typeof RESOURCE_TABLES, string][]) {
    const id = body[field];
    if (!id) continue;
    const { rows } = await pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
    if (rows.length === 0) throw new HttpError(400, `${field}: no such resource`, field);
  }
  if (body.filter?.trim()) {
    try {
      evaluateCel(body.filter, { check: {}, config: {}, component: {}, canary: {}, event: {} });
    } catch (error) {
      const message = (error as Error).message;
      // Missing fields on the empty sample are fine; a syntax error is not.
      if (/syntax|parse|Syntax|unexpected|mismatched/i.test(message)) {
        throw new HttpError(400, `filter: ${message}`, 'filter');
      }
    }
  }
}

/**
 * Saves a silence made in the UI; a bad resource or filter is a 400 naming the field. With a
 * selector-narrowed scope the saved silence must be one the caller may create (its namespace,
 * name and labels), else the insert is rolled back with a 403 saying so.
 */
export async function createSilence(
  pool: Pool,
  body: NotificationSilenceRequest,
  createdBy: string | undefined,
  scope: NotificationScope | null = null,
) {
  await checkSilenceFields(pool, body);
  return await withTransaction(pool, async (client) => {
    const { rows } = await client
      .query<Record<string, unknown> & { id: string; name: string | null; namespace: string }>(
        `INSERT INTO notification_silences
           (description, check_id, config_id, component_id, canary_id, filter, recursive, "from", until, created_by,
            selectors, name, namespace, labels)
         VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()), $9, $10, $11, $12,
                 coalesce(nullif($13, ''), 'default'), coalesce($14::jsonb, '{}'::jsonb))
         RETURNING *`,
        [
          body.description?.trim() || null,
          body.check_id ?? null,
          body.config_id ?? null,
          body.component_id ?? null,
          body.canary_id ?? null,
          body.filter?.trim() || null,
          body.recursive ?? false,
          body.from ?? null,
          body.until,
          createdBy ?? null,
          body.selectors && body.selectors.length > 0 ? JSON.stringify(body.selectors) : null,
          body.name || null,
          body.namespace ?? '',
          body.labels ? JSON.stringify(body.labels) : null,
        ],
      )
      .catch((error: { code?: string }) => {
        if (error.code === '23505')
          throw new HttpError(409, `a silence named ${body.name} already exists in that namespace`, 'name');
        throw error;
      });
    const saved = rows[0];
    if (!(await covers(client, 'notification_silences', saved.id, scope))) {
      throw new HttpError(
        403,
        `You may not create silence ${silenceLabel(saved)}: ${OUTSIDE_GRANT}`,
        'namespace',
      );
    }
    return saved;
  });
}

/**
 * Soft-deletes a rule or a silence (spec core §4: deleted_at set to now) when the caller's scope
 * covers it; a 404 when there is no such live row, a 403 saying why when it is out of reach.
 */
async function softDelete(
  pool: Pool,
  table: NotificationScopedTable,
  id: string,
  scope: NotificationScope | null,
) {
  return await withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; name: string | null; namespace: string }>(
      `SELECT id, name, namespace FROM ${table} WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    const noun = table === 'notifications' ? 'notification' : 'silence';
    if (!row) throw new HttpError(404, `no such ${noun}`, 'id');
    if (!(await covers(client, table, id, scope))) {
      const label = table === 'notifications' ? `${row.namespace}/${row.name}` : silenceLabel(row);
      throw new HttpError(403, `You may not delete ${noun} ${label}: ${OUTSIDE_GRANT}`, 'id');
    }
    await client.query(`UPDATE ${table} SET deleted_at = now(), updated_at = now() WHERE id = $1`, [id]);
    return row;
  });
}

/** The spec checked as `opsdeck apply` checks it; the first problem is a 400 naming its path. */
function validSpec(spec: unknown): z.infer<typeof notificationSpec> {
  const parsed = notificationKind.spec.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['spec', ...issue.path.map(String)].join('.');
    throw new HttpError(400, `${path}: ${issue.message}`, path);
  }
  for (const [field, value] of [
    ['spec.filter', parsed.data.filter],
    ['spec.repeatInterval', parsed.data.repeatInterval],
  ] as const) {
    if (field === 'spec.filter' && value) {
      try {
        evaluateCel(value, { check: {}, canary: {}, config: {}, component: {}, incident: {}, event: {} });
      } catch (error) {
        const message = (error as Error).message;
        if (/syntax|parse|unexpected|mismatched/i.test(message))
          throw new HttpError(400, `${field}: ${message}`, field);
      }
    }
  }
  return parsed.data;
}

function ruleValues(request: NotificationRuleSaveRequest) {
  const spec = validSpec(request.spec);
  const columns = notificationKind.columns(spec) as Record<string, unknown>;
  return { spec, columns };
}

const RULE_COLUMNS = [
  'events',
  'title',
  'template',
  'filter',
  'properties',
  'repeat_interval',
  'wait_for',
  'group_by',
];

/**
 * Creates a rule from the editor (source UI). With a selector-narrowed scope the new rule must be
 * one the caller may create (its name, namespace and labels), else the insert is rolled back
 * with a 403 saying so.
 */
export async function createRule(
  pool: Pool,
  request: NotificationRuleSaveRequest,
  createdBy: string | undefined,
  scope: NotificationScope | null = null,
) {
  if (!request.name) throw new HttpError(400, 'name is required', 'name');
  const { spec, columns } = ruleValues(request);
  const values = RULE_COLUMNS.map((column) => {
    const value = columns[column] ?? null;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? JSON.stringify(value)
      : value;
  });
  return await withTransaction(pool, async (client) => {
    const { rows } = await client
      .query<{ id: string; name: string; namespace: string }>(
        `INSERT INTO notifications (name, namespace, labels, spec, source, person_id, team_id, custom_services, created_by,
                                  ${RULE_COLUMNS.join(', ')})
       VALUES ($1, coalesce(nullif($2, ''), 'default'), coalesce($3::jsonb, '{}'::jsonb), $4, 'UI', NULL, NULL, NULL, $5,
               ${RULE_COLUMNS.map((_, index) => `$${index + 6}`).join(', ')})
       RETURNING id, name, namespace`,
        [
          request.name,
          request.namespace ?? '',
          request.labels ? JSON.stringify(request.labels) : null,
          JSON.stringify(spec),
          createdBy ?? null,
          ...values,
        ],
      )
      .catch((error: { code?: string }) => {
        if (error.code === '23505')
          throw new HttpError(
            409,
            `a notification named ${request.name} already exists in that namespace`,
            'name',
          );
        throw error;
      });
    const saved = rows[0];
    if (!(await covers(client, 'notifications', saved.id, scope))) {
      throw new HttpError(
        403,
        `You may not create notification ${saved.namespace}/${saved.name}: ${OUTSIDE_GRANT}`,
        'namespace',
      );
    }
    return saved;
  });
}

/** Replaces a rule's spec (and labels); its name and namespace stay. */
export async function updateRule(
  pool: Pool,
  id: string,
  request: NotificationRuleSaveRequest,
  scope: NotificationScope | null = null,
) {
  const { spec, columns } = ruleValues(request);
  const values = RULE_COLUMNS.map((column) => {
    const value = columns[column] ?? null;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? JSON.stringify(value)
      : value;
  });
  const client = await pool.connect();
  const inScope = () => covers(client, 'notifications', id, scope);
  try {
    await client.query('BEGIN');
    const { rows: found } = await client.query<{ name: string; namespace: string }>(
      'SELECT name, namespace FROM notifications WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
      [id],
    );
    if (!found[0]) throw new HttpError(404, 'no such notification', 'id');
    const label = `${found[0].namespace}/${found[0].name}`;
    if (!(await inScope()))
      throw new HttpError(403, `You may not edit notification ${label}: ${OUTSIDE_GRANT}`, 'id');
    const { rows } = await client.query<{ id: string; name: string; namespace: string }>(
      `UPDATE notifications
          SET spec = $2, labels = coalesce($3::jsonb, labels), person_id = NULL, team_id = NULL, custom_services = NULL,
              ${RULE_COLUMNS.map((column, index) => `${column} = $${index + 4}`).join(', ')}
        WHERE id = $1 AND deleted_at IS NULL
        RETURNING id, name, namespace`,
      [id, JSON.stringify(spec), request.labels ? JSON.stringify(request.labels) : null, ...values],
    );
    // The edited row must still be one the caller may edit (new labels cannot take it out of reach).
    if (!(await inScope())) {
      throw new HttpError(
        403,
        `The change would take notification ${label} out of what you may edit`,
        'labels',
      );
    }
    await client.query('COMMIT');
    return rows[0];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * POST /api/notification/summary and POST /api/notification/silence (spec core §7), the rule
 * editor's saves and the silence preview.
 */
export async function notificationRoutes(
  app: FastifyInstance,
  options: NotificationRoutesOptions,
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const readGate = createNotificationScopeGate(options.pool, 'read');
  const createGate = createNotificationScopeGate(options.pool, 'insert');
  const updateGate = createNotificationScopeGate(options.pool, 'update');
  const deleteGate = createNotificationScopeGate(options.pool, 'delete');
  const silenceCreateGate = createNotificationScopeGate(options.pool, 'insert', 'notification_silences');
  const silenceDeleteGate = createNotificationScopeGate(options.pool, 'delete', 'notification_silences');
  typed.post(
    '/api/notification/summary',
    {
      preHandler: readGate.preHandler,
      schema: { body: notificationSummaryRequestSchema.optional() },
    },
    async (request) => await sendHistoryPage(options.pool, request.body ?? {}, readGate.scopeOf(request)),
  );
  typed.post(
    '/api/notification/rules',
    {
      preHandler: createGate.preHandler,
      schema: { body: notificationRuleSaveRequestSchema },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createRule(options.pool, request.body, request.auth?.person.id, createGate.scopeOf(request)),
        ),
  );
  typed.put(
    '/api/notification/rules/:id',
    {
      preHandler: updateGate.preHandler,
      schema: { params: notificationRuleIdParamsSchema, body: notificationRuleSaveRequestSchema },
    },
    async (request) =>
      await updateRule(options.pool, request.params.id, request.body, updateGate.scopeOf(request)),
  );
  typed.delete(
    '/api/notification/rules/:id',
    { preHandler: deleteGate.preHandler, schema: { params: notificationRuleIdParamsSchema } },
    async (request) =>
      await softDelete(options.pool, 'notifications', request.params.id, deleteGate.scopeOf(request)),
  );
  typed.post(
    '/api/notification/silence/preview',
    {
      preHandler: requirePermission('notifications', 'read', PERMISSION),
      schema: { body: notificationSilencePreviewRequestSchema },
    },
    async (request) => {
      await checkSilenceFields(options.pool, request.body);
      return await previewSilence(options.pool, request.body);
    },
  );
  typed.post(
    '/api/notification/silence',
    {
      preHandler: silenceCreateGate.preHandler,
      schema: { body: notificationSilenceRequestSchema },
    },
    async (request, reply) => {
      const saved = await createSilence(
        options.pool,
        request.body,
        request.auth?.person.id,
        silenceCreateGate.scopeOf(request),
      );
      return await reply.status(201).send(saved);
    },
  );
  typed.delete(
    '/api/notification/silence/:id',
    { preHandler: silenceDeleteGate.preHandler, schema: { params: notificationSilenceIdParamsSchema } },
    async (request) =>
      await softDelete(
        options.pool,
        'notification_silences',
        request.params.id,
        silenceDeleteGate.scopeOf(request),
      ),
  );
}
