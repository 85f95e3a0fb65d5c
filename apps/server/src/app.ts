import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { AboutResponse } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { OpsdeckConfig } from './config.js';
import type { Pool } from './platform/db/pool.js';
import { registerErrorHandling } from './platform/http/errors.js';
import { registerInputLimits } from './platform/http/input-limits.js';
import { DEFAULT_BODY_LIMIT } from './platform/http/json-limits.js';
import { registerWebApp } from './platform/http/static-web.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { createLogger, type Logger } from './platform/logger.js';
import { createMetrics, metricsCallerAllowed, type Metrics } from './platform/telemetry/metrics.js';
import { OPSDECK_VERSION } from './platform/version.js';
import { authPlugin, createDataApiAuthorizer } from './modules/auth/index.js';
import { createRowSealer } from './modules/resources/index.js';
import { createSchemaCatalog, dataApiRoutes } from './data-api/index.js';
import { dataApiAllowlist, dataApiRowChecks, SERVER_MODULES } from './modules.js';
import type { ModuleContext } from './server-module.js';
import type { SecretBox } from './platform/secrets.js';
import { maskSealedText } from './platform/secret-fields.js';
import type { JobsService } from './platform/jobs/index.js';

export interface AppDependencies {
  config: Pick<OpsdeckConfig, 'logLevel' | 'webDistDir' | 'auth' | 'dataApiMaxRows'> &
    Partial<Pick<OpsdeckConfig, 'trustedProxies' | 'metricsToken' | 'tls'>>;
  pool: Pool;
  /** Seals secrets at rest (TOTP secrets, connection credentials). */
  secrets: SecretBox;
  /** Records job history for work that routes run (Run Now). */
  jobs: Pick<JobsService, 'startJob'>;
  /** Shared with the workers so /metrics shows both. Created here when absent. */
  metrics?: Metrics;
  /** Used instead of a new pino logger (tests pass a silent one). */
  logger?: Logger;
}

export interface OpsdeckApp {
  app: FastifyInstance;
  metrics: Metrics;
  /** Makes /readyz answer 503 so a load balancer drains this process before it stops. */
  markShuttingDown(): void;
}

/** Composes the platform and the modules into one Fastify instance (not listening yet). */
export async function buildApp(deps: AppDependencies): Promise<OpsdeckApp> {
  const { pool } = deps;
  // Typed as the default instance: our pino Logger is structurally a FastifyBaseLogger, and
  // modules are written against FastifyInstance.
  const logger = deps.logger ?? createLogger(deps.config.logLevel);
  const app = Fastify({
    ...(deps.config.tls ? { https: { cert: deps.config.tls.cert, key: deps.config.tls.key } } : {}),
    loggerInstance: logger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    // Routes with larger legitimate bodies (the data API's bulk writes) raise it for themselves.
    bodyLimit: DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    // X-Forwarded-For/-Proto count only from TRUSTED_PROXIES (request.ip, request.protocol).
    trustProxy: deps.config.trustedProxies?.length ? deps.config.trustedProxies : false,
  }) as unknown as FastifyInstance;
  const metrics = deps.metrics ?? createMetrics(pool);
  const moduleContext: ModuleContext = {
    pool,
    logger,
    secrets: deps.secrets,
    jobs: deps.jobs,
    metrics,
    config: deps.config,
    dataApi: dataApiAllowlist,
  };
  let shuttingDown = false;

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    metrics.httpRequestsTotal.inc(labels);
    // Every 503 and 504 (database unreachable, pool exhausted, draining at shutdown) leaves a
    // line, whichever route answered it; 500s are logged with their error where they are raised.
    if (reply.statusCode === 503 || reply.statusCode === 504) {
      request.log.warn(
        {
          method: request.method,
          route: labels.route,
          statusCode: reply.statusCode,
          responseTimeMs: Math.round(reply.elapsedTime),
        },
        `answered ${reply.statusCode}`,
      );
    }
  });

  registerErrorHandling(app);
  registerSecurityHeaders(app);
  registerInputLimits(app);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (shuttingDown) return reply.status(503).send({ status: 'shutting down' });
    try {
      await pool.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
  app.get('/metrics', async (request, reply) => {
    if (!metricsCallerAllowed(request.headers.authorization, deps.config.metricsToken)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: 'Unauthorized: /metrics needs the METRICS_TOKEN as a Bearer token' });
    }
    for (const module of SERVER_MODULES) {
      await module
        .beforeMetricsScrape?.(moduleContext)
        .catch((error: unknown) =>
          request.log.warn({ err: error, module: module.name }, 'preparing /metrics failed'),
        );
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  const about = async (): Promise<AboutResponse> => {
    const { rows } = await pool.query<{ server_version: string }>('SHOW server_version');
    return {
      name: 'opsdeck',
      version: OPSDECK_VERSION,
      hostname: os.hostname(),
      database: { version: rows[0]?.server_version ?? 'unknown' },
    };
  };
  app.get('/api/version', about);
  app.get('/api/about', about);
  // The path ecosystem clients ask the canary checker's version at (API.md).
  app.get('/api/canary/about', about);

  // Every /api route below needs a caller (session, token or public mode); see modules/auth.
  await app.register(authPlugin, { pool, logger, config: deps.config.auth });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool,
    allowlist: dataApiAllowlist,
    catalog: createSchemaCatalog(pool),
    maxRows: deps.config.dataApiMaxRows,
    authorize: createDataApiAuthorizer({ pool }),
    actingPerson: (request) => request.auth?.person.id,
    // Secrets are sealed on the way in and masked on the way out, for every caller.
    transformRow: deps.secrets ? createRowSealer(deps.secrets) : undefined,
    transformResponseBody: maskSealedText,
    checkRow: dataApiRowChecks,
  });
  for (const module of SERVER_MODULES) await module.routes?.(app, moduleContext);
  await registerWebApp(app, deps.config.webDistDir);

  return {
    app,
    metrics,
    markShuttingDown: () => {
      shuttingDown = true;
    },
  };
}
