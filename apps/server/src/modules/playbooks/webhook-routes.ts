import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { openSealedStrings, type Json } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { validateParameters } from './parameters.js';
import { verifyWebhookJwt } from './webhook-jwt.js';
import { createRun } from './runs.js';
import { parametersOf, type PlaybookRecord } from './store.js';

/** Request bodies kept on the run (`.request.body`). */
const BODY_LIMIT = 1024 * 1024;

interface WebhookSpec {
  path?: string;
  authentication?: {
    basic?: { username?: unknown; password?: unknown };
    github?: { token?: unknown };
    jwt?: { jwksUri?: unknown; jwksURI?: unknown };
  };
}

function webhookOf(spec: Record<string, unknown>): WebhookSpec | undefined {
  const on = spec.on as { webhook?: WebhookSpec } | undefined;
  return on?.webhook && typeof on.webhook === 'object' ? on.webhook : undefined;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A plain value of the spec (`valueFrom` is not resolved for webhook credentials). */
function plain(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') {
    return (value as { value: string }).value;
  }
  return undefined;
}

/** Refuses the call unless it carries what the webhook's `authentication` asks for. */
async function authenticate(webhook: WebhookSpec, request: FastifyRequest, raw: Buffer): Promise<void> {
  const auth = webhook.authentication;
  if (!auth) return;
  if (auth.jwt) {
    const jwksUri = plain(auth.jwt.jwksUri) ?? plain(auth.jwt.jwksURI) ?? '';
    if (jwksUri === '') throw new HttpError(401, 'Unauthorized: the webhook has no jwt.jwksUri');
    await verifyWebhookJwt(request.headers.authorization, jwksUri);
  }
  if (auth.basic) {
    const header = request.headers.authorization ?? '';
    const expected = `Basic ${Buffer.from(`${plain(auth.basic.username) ?? ''}:${plain(auth.basic.password) ?? ''}`).toString('base64')}`;
    if (!safeEqual(header, expected)) throw new HttpError(401, 'Unauthorized');
  }
  if (auth.github) {
    const signature = request.headers['x-hub-signature-256'];
    const token = plain(auth.github.token) ?? '';
    const expected = `sha256=${createHmac('sha256', token).update(raw).digest('hex')}`;
    if (typeof signature !== 'string' || !safeEqual(signature, expected))
      throw new HttpError(401, 'Unauthorized');
  }
}

/** Headers kept on the run: never the credentials. */
function keptHeaders(request: FastifyRequest): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (['authorization', 'cookie', 'x-hub-signature-256', 'x-hub-signature'].includes(name)) continue;
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

/**
 * `POST /playbook/webhook/{path}`: starts a run of the playbook whose `on.webhook.path` it is,
 * authenticated by the webhook's own basic credentials, GitHub signature or a JWT verified
 * against its JWKS (all of those given must hold; outside /api: no
 * session). The request (headers without credentials, body) is the run's `.request`.
 */
export async function playbookWebhookRoutes(
  appBase: FastifyInstance,
  options: { pool: Pool; secrets?: SecretBox },
): Promise<void> {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { pool, secrets } = options;
  // The raw bytes: a GitHub signature covers them exactly.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/playbook/webhook/:path',
    { schema: { params: z.object({ path: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const { rows } = await pool.query<PlaybookRecord>(
        `SELECT id, name, namespace, title, description, spec FROM playbooks
          WHERE deleted_at IS NULL AND spec -> 'on' -> 'webhook' ->> 'path' = $1
          ORDER BY created_at LIMIT 1`,
        [request.params.path],
      );
      const playbook = rows[0];
      // Its credentials are sealed at rest (the playbooks spec is sealed): opened to compare only.
      const webhook = playbook
        ? webhookOf(openSealedStrings(playbook.spec as Json, secrets) as Record<string, unknown>)
        : undefined;
      if (!playbook || !webhook) throw new HttpError(404, 'no playbook has this webhook path', 'path');
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await authenticate(webhook, request, raw);
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      const parameters = validateParameters(parametersOf(playbook.spec), {});
      const run = await createRun(pool, {
        playbook,
        target: {},
        parameters,
        request: { trigger: 'webhook', path: request.params.path, headers: keptHeaders(request), body },
        createdBy: null,
        secrets,
      });
      reply.status(201);
      return { run_id: run.id, starts_at: run.scheduled_time.toISOString() };
    },
  );
}
