import {
  CONNECTION_MASK,
  connectionIdParamsSchema,
  connectionInputSchema,
  connectionTestRequestSchema,
  type ConnectionTestResult,
  type ConnectionValue,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import type { SecretBox } from '../../platform/secrets.js';
import { authorizeRequest, requirePermission } from '../auth/index.js';
import { createConnectionResolver, type OpenedConnection } from './connection-resolver.js';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  recordConnectionTest,
  updateConnection,
} from './connection-store.js';
import { testOpenedConnection } from './connection-testers/index.js';
import { createValueFromResolver, ValueFromError } from './value-from.js';

export interface ConnectionRoutesOptions {
  pool: Pool;
  secrets?: SecretBox;
  /** How long one test may take (default 10 s). */
  testTimeoutMs?: number;
}

/**
 * Connections through the API (spec settings §3, §6, §7):
 * - `GET /api/connections`: read `connections`; every secret masked as `********`;
 * - `GET /api/connections/{id}`: read `connections`; secrets are shown only to those who may
 *   edit connections (admin), masked for everyone else;
 * - `POST /api/connections`, `PUT /api/connections/{id}`, `DELETE /api/connections/{id}`: write
 *   `connections`; checked against the type catalogue (400 naming the field); an update sending
 *   the mask back keeps the stored secret;
 * - `POST /api/connection/test/{id}`: connects to the saved connection, records the outcome (the
 *   list's health colour) and answers `{status, message, duration_ms}`;
 * - `POST /api/connection/test`: the same for a connection from the form before saving.
 */
export async function connectionRoutes(
  app: FastifyInstance,
  options: ConnectionRoutesOptions,
): Promise<void> {
  const { pool, secrets } = options;
  const timeoutMs = options.testTimeoutMs ?? 10_000;
  const read = requirePermission('connections', 'read');
  const write = requirePermission('connections', 'write');
  const resolveValueFrom = createValueFromResolver(pool, secrets);
  const resolve = createConnectionResolver(pool, secrets, resolveValueFrom);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  const canEdit = async (request: FastifyRequest) =>
    (await authorizeRequest(pool, request, 'connections', 'write')).allow;

  // The list never carries secrets, whoever asks: one connection's form reads them by id.
  typed.get('/api/connections', { preHandler: read }, async () => listConnections(pool, false, secrets));

  typed.get(
    '/api/connections/:id',
    { preHandler: read, schema: { params: connectionIdParamsSchema } },
    async (request) => getConnection(pool, request.params.id, await canEdit(request), secrets),
  );

  typed.post(
    '/api/connections',
    { preHandler: write, schema: { body: connectionInputSchema } },
    async (request, reply) => {
      const id = await createConnection(pool, request.body, request.auth?.person.id, secrets);
      return reply.status(201).send(await getConnection(pool, id, true, secrets));
    },
  );

  typed.put(
    '/api/connections/:id',
    { preHandler: write, schema: { params: connectionIdParamsSchema, body: connectionInputSchema } },
    async (request) => {
      await updateConnection(pool, request.params.id, request.body, secrets);
      return getConnection(pool, request.params.id, true, secrets);
    },
  );

  typed.delete(
    '/api/connections/:id',
    { preHandler: write, schema: { params: connectionIdParamsSchema } },
    async (request, reply) => {
      await deleteConnection(pool, request.params.id);
      return reply.status(204).send();
    },
  );

  const runTest = async (opened: () => Promise<OpenedConnection>): Promise<ConnectionTestResult> => {
    const started = Date.now();
    let outcome;
    try {
      outcome = await testOpenedConnection(await opened(), timeoutMs);
    } catch (error) {
      if (!(error instanceof ValueFromError)) throw error;
      outcome = { status: 'unhealthy' as const, message: error.message };
    }
    return { ...outcome, duration_ms: Date.now() - started };
  };

  typed.post(
    '/api/connection/test/:id',
    { preHandler: write, schema: { params: connectionIdParamsSchema } },
    async (request) => {
      const stored = await getConnection(pool, request.params.id, false, secrets);
      const result = await runTest(async () => {
        const opened = await resolve(`connection://${stored.namespace}/${stored.name}`);
        if (!opened) throw new ValueFromError(`connection ${stored.namespace}/${stored.name} was not found`);
        return opened;
      });
      await recordConnectionTest(pool, stored.id, result);
      return result;
    },
  );

  typed.post(
    '/api/connection/test',
    { preHandler: write, schema: { body: connectionTestRequestSchema } },
    async (request) => {
      const input = request.body;
      return runTest(async () => {
        let saved: OpenedConnection | undefined;
        if (input.id) {
          const stored = await getConnection(pool, input.id, false, secrets);
          saved = await resolve(`connection://${stored.namespace}/${stored.name}`);
        }
        const value = async (
          field: 'url' | 'username' | 'password' | 'certificate',
          source?: ConnectionValue,
        ) => {
          if (source === undefined || source === '') return undefined;
          if (source === CONNECTION_MASK) return saved?.[field];
          if (typeof source === 'string') return source;
          try {
            return await resolveValueFrom(source.valueFrom, input.namespace);
          } catch (error) {
            throw new ValueFromError(`${field}: ${(error as Error).message}`);
          }
        };
        const properties = Object.fromEntries(
          Object.entries(input.properties ?? {}).map(([key, text]) => [
            key,
            text === CONNECTION_MASK ? (saved?.properties?.[key] ?? '') : text,
          ]),
        );
        return {
          name: input.name,
          namespace: input.namespace,
          type: input.type,
          url: await value('url', input.url),
          username: await value('username', input.username),
          password: await value('password', input.password),
          certificate: await value('certificate', input.certificate),
          insecureTls: input.insecure_tls ?? false,
          properties,
        };
      });
    },
  );
}
