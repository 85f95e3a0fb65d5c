import { timingSafeEqual } from 'node:crypto';
import {
  webhookPushParamsSchema,
  webhookPushQuerySchema,
  type WebhookPushResponse,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { parseJsonWithinLimits } from '../../platform/http/json-limits.js';
import type { Logger } from '../../platform/logger.js';
import { CANARY_COLUMNS, syncCanaryChecks, type CanaryRow } from './canary-sync.js';
import { recordCheckResult, recordDerivedResult } from './check-recorder.js';
import { evaluateCheckMetrics, type CheckIdentity, type CheckMetrics } from './check-metrics.js';
import {
  pushedWebhookCheck,
  runCheckOfType,
  webhookCheck,
  type RunCheckOptions,
  type WebhookCheckSpec,
  type WebhookPayload,
} from './checks/index.js';
import type { JsonValue } from '../../expressions/index.js';
import { resolveValue } from './checks/spec-fields.js';
import { isUuid } from './health-service.js';
import { asRecord, stringMap, textOrNull } from './spec-values.js';

export interface WebhookRoutesOptions {
  pool: Pool;
  logger: Logger;
  /** Resolves `valueFrom` in a webhook's token (and its expressions' checks); static values otherwise. */
  resolveValueFrom?: RunCheckOptions['resolveValueFrom'];
  /** Where pushed results and the check's `metrics` are exported (the /metrics registry). */
  metrics?: CheckMetrics;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

/** Largest body a push may carry. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** Request headers never kept in a pushed result: they carry credentials. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'webhook-token']);

interface PushTarget {
  canary: CanaryRow;
  checkId: string;
  spec: unknown;
}

/** The check's metric labels, as the canary runner gives them to scheduled runs. */
function identityOf(target: PushTarget): CheckIdentity {
  const canarySpec = asRecord(target.canary.spec);
  const entrySpec = asRecord(target.spec);
  return {
    checkId: target.checkId,
    name: textOrNull(entrySpec.name) ?? '',
    type: 'webhook',
    canaryName: target.canary.name,
    canaryNamespace: textOrNull(entrySpec.namespace) ?? target.canary.namespace,
    owner: textOrNull(canarySpec.owner),
    severity: textOrNull(entrySpec.severity) ?? textOrNull(canarySpec.severity),
    labels: { ...stringMap(target.canary.labels), ...stringMap(entrySpec.labels) },
  };
}

/** `content-type` → `Content-Type`, as the ecosystem shows header names. */
function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The canaries whose spec declares a webhook check with this id (of its checks row) or name.
 * The spec is searched rather than the checks rows alone, so a push right after `opsdeck apply`
 * finds its check before the scheduler's next poll has created the row.
 */
async function findCanaries(pool: Pool, idOrName: string): Promise<CanaryRow[]> {
  if (isUuid(idOrName)) {
    const { rows } = await pool.query<CanaryRow>(
      `SELECT ${CANARY_COLUMNS.split(', ')
        .map((column) => `ca.${column}`)
        .join(', ')}
       FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE c.id = $1 AND c.type = 'webhook' AND c.deleted_at IS NULL AND ca.deleted_at IS NULL`,
      [idOrName],
    );
    if (rows.length > 0) return rows;
  }
  const { rows } = await pool.query<CanaryRow>(
    `SELECT ${CANARY_COLUMNS} FROM canaries
     WHERE deleted_at IS NULL
       AND ((jsonb_typeof(spec->'webhook') = 'object' AND spec->'webhook'->>'name' = $1)
         OR (jsonb_typeof(spec->'webhook') = 'array'
             AND spec->'webhook' @> jsonb_build_array(jsonb_build_object('name', $1::text))))`,
    [idOrName],
  );
  return rows;
}

async function findTarget(pool: Pool, idOrName: string): Promise<PushTarget> {
  const canaries = await findCanaries(pool, idOrName);
  if (canaries.length > 1) {
    throw new HttpError(
      409,
      `several canaries have a webhook check named ${idOrName}: push to the check's id`,
      'id',
    );
  }
  const canary = canaries[0];
  if (!canary) throw new HttpError(404, `no webhook check ${idOrName}`, 'id');
  const synced = await syncCanaryChecks(pool, canary);
  const check = synced.find(
    (entry) => entry.entry.type === 'webhook' && (entry.id === idOrName || entry.entry.name === idOrName),
  );
  if (!check) throw new HttpError(404, `no webhook check ${idOrName}`, 'id');
  return { canary, checkId: check.id, spec: check.entry.spec };
}

function readPayload(request: FastifyRequest): WebhookPayload {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || SECRET_HEADERS.has(name.toLowerCase())) continue;
    headers[canonicalHeader(name)] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = typeof request.body === 'string' ? request.body : '';
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  if (/^application\/([\w.+-]*\+)?json\b/.test(contentType) && text.trim() !== '') {
    // The push is stored with the result: the same depth, size and NUL limits as any API body.
    const parsed = parseJsonWithinLimits(text);
    if (parsed.ok) return { headers, json: parsed.value as JsonValue };
    const problem = parsed.problem;
    if (!problem) throw new HttpError(400, 'The request body is not valid JSON', 'body');
    throw new HttpError(400, problem.message, problem.field || 'body');
  }
  if (text.includes('\u0000')) {
    throw new HttpError(400, 'the body holds a NUL character, which cannot be stored', 'body');
  }
  return { headers, content: text };
}

/**
 * `POST /webhook/{id}`: pushes a result to a webhook check (by its check id or name). The
 * request (headers, `json` or `content`) becomes the check's `results`; the spec's transform,
 * display and test apply, and the outcome is recorded like any run. When the spec has a token,
 * the push must carry it as `?token=` or a `Webhook-Token` header.
 *
 * The path parameter and the query are the contracts' schemas (health.ts; `?token=a&token=b` is
 * a 400 naming `token`); the body is the pushed result itself, any content type, read as text.
 * The answer is `webhookPushResponseSchema`; refusals are the usual `{error, field}`.
 */
export async function webhookRoutes(app: FastifyInstance, options: WebhookRoutesOptions): Promise<void> {
  const { pool, logger } = options;
  // Pushes come from other tools with any content type; the body is read as text and parsed here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhook/:id',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { params: webhookPushParamsSchema, querystring: webhookPushQuerySchema },
    },
    async (request, reply) => {
      const idOrName = request.params.id;
      const found = await findTarget(pool, idOrName);
      const target = options.openSecrets ? { ...found, spec: options.openSecrets(found.spec) } : found;
      // A push is one outcome: retrying it would only evaluate the same request again.
      const { retries: _retries, ...checkSpec } = asRecord(target.spec);
      let spec: WebhookCheckSpec;
      try {
        spec = webhookCheck.parse(checkSpec);
      } catch (error) {
        throw new HttpError(
          409,
          `webhook check ${idOrName} has an invalid spec: ${(error as Error).message}`,
        );
      }
      const canaryRef = {
        id: target.canary.id,
        name: target.canary.name,
        namespace: target.canary.namespace,
        labels: (target.canary.labels ?? {}) as Record<string, string>,
      };
      let expected: string | undefined;
      try {
        expected = await resolveValue(
          spec.token,
          {
            signal: new AbortController().signal,
            timeoutMs: 0,
            logger,
            canary: canaryRef,
            resolveConnection: () => undefined,
            resolveValueFrom: options.resolveValueFrom,
          },
          'token',
        );
      } catch (error) {
        // The caller is not authenticated yet: the reason (field, secret or config map and key,
        // never a value) goes to the log for the operator, not into the response.
        const reason = (error as Error).message;
        logger.warn({ check: target.checkId, err: reason }, 'webhook token could not be read');
        throw new HttpError(
          503,
          `the token of webhook check ${idOrName} could not be read; the server log says why`,
        );
      }
      if (expected) {
        const header = request.headers['webhook-token'];
        const presented = request.query.token ?? (Array.isArray(header) ? header[0] : header) ?? '';
        if (!safeEqual(presented, expected)) throw new HttpError(401, 'invalid webhook token', 'token');
      }
      const payload = readPayload(request);
      const run = await runCheckOfType(pushedWebhookCheck(payload), checkSpec, {
        canary: canaryRef,
        logger,
        resolveConnection: () => undefined,
        resolveValueFrom: options.resolveValueFrom,
      });
      // The check's own `metrics` are evaluated against the push, as after a scheduled run.
      const identity = identityOf(target);
      if (options.metrics && !run.result.invalid) {
        const evaluated = evaluateCheckMetrics(asRecord(checkSpec).metrics, {
          ...run.result.data,
          check: {
            name: identity.name,
            description: textOrNull(checkSpec.description) ?? '',
            labels: stringMap(checkSpec.labels),
            endpoint: run.endpoint,
            type: run.type,
          },
          canary: canaryRef,
        });
        const errors = [
          ...evaluated.errors,
          ...options.metrics.exportMetrics([...(run.result.metrics ?? []), ...evaluated.metrics]),
        ];
        if (errors.length > 0) {
          const added = errors.join(', ');
          run.result = {
            ...run.result,
            pass: false,
            error: run.result.error ? `${run.result.error}, ${added}` : added,
          };
        }
      }
      await recordCheckResult(pool, target.checkId, target.canary.id, run, { nextRuntime: null });
      options.metrics?.observeResult(identity, run.result);
      for (const derived of run.derived) {
        const recorded = await recordDerivedResult(pool, target.canary, run.startedAt, derived, {
          nextRuntime: null,
        });
        if (!recorded) continue;
        options.metrics?.exportMetrics(derived.metrics ?? []);
        options.metrics?.observeResult(
          {
            ...identity,
            checkId: recorded.checkId,
            name: derived.name,
            type: derived.type,
            canaryNamespace: derived.namespace ?? identity.canaryNamespace,
            labels: derived.labels ?? {},
          },
          derived,
        );
      }
      const answer: WebhookPushResponse = {
        message: 'ok',
        id: target.checkId,
        pass: run.result.pass,
        ...(run.result.error ? { error: run.result.error } : {}),
        derived: run.derived.length,
      };
      return reply.send(answer);
    },
  );
}
