import {
  NOTIFICATION_LIST_PAGE_SIZE,
  notificationSilenceRequestSchema,
  notificationSummaryRequestSchema,
  type NotificationSilenceRequest,
  type NotificationSummaryRequest,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { evaluateCel } from '../../expressions/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { requirePermission } from '../auth/index.js';

export interface NotificationRoutesOptions {
  pool: Pool;
}

const PERMISSION = { object: 'notification', feature: 'settings.notifications' } as const;

/** One page of the send history, newest first, with the total (spec core §7). */
export async function sendHistoryPage(pool: Pool, request: NotificationSummaryRequest) {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
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

/** Saves a silence made in the UI; a bad resource or filter is a 400 naming the field. */
export async function createSilence(
  pool: Pool,
  body: NotificationSilenceRequest,
  createdBy: string | undefined,
) {
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
  const { rows } = await pool.query(
    `INSERT INTO notification_silences
       (description, check_id, config_id, component_id, canary_id, filter, recursive, "from", until, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()), $9, $10)
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
    ],
  );
  return rows[0] as Record<string, unknown>;
}

/** POST /api/notification/summary and POST /api/notification/silence (spec core §7). */
export async function notificationRoutes(
  app: FastifyInstance,
  options: NotificationRoutesOptions,
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/notification/summary',
    {
      preHandler: requirePermission('notifications', 'read', PERMISSION),
      schema: { body: notificationSummaryRequestSchema.optional() },
    },
    async (request) => await sendHistoryPage(options.pool, request.body ?? {}),
  );
  typed.post(
    '/api/notification/silence',
    {
      preHandler: requirePermission('notifications', 'create', PERMISSION),
      schema: { body: notificationSilenceRequestSchema },
    },
    async (request, reply) => {
      const saved = await createSilence(options.pool, request.body, request.auth?.person.id);
      return await reply.status(201).send(saved);
    },
  );
}
