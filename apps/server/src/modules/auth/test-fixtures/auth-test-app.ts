import { dataApiAllowlist } from '../../../modules.js';
import { RESOURCES, TOKEN_SCOPE_OBJECTS, type Role } from '@opsdeck/contracts';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type InjectOptions,
  type LightMyRequestResponse,
} from 'fastify';
import { pino, type Logger } from 'pino';
import { dataApiRoutes } from '../../../data-api/index.js';
import { withTransaction, type Pool } from '../../../platform/db/pool.js';
import { registerErrorHandling } from '../../../platform/http/errors.js';
import { createAccessToken } from '../access-tokens.js';
import { loadAuthConfig, type AuthConfig } from '../auth-config.js';
import { authPlugin } from '../auth-plugin.js';
import { requirePermission } from '../authorization.js';
import { createDataApiAuthorizer } from '../data-api-authorizer.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../http.js';
import { createIdentity } from '../identity-store.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { Mailer } from '../mailer.js';
import { authRoutes } from '../routes.js';

/** The auth configuration tests start from: defaults, a fixed public URL, overrides on top. */
export function testAuthConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { ...loadAuthConfig({ PUBLIC_URL: 'http://opsdeck.test' }), ...overrides };
}

/** A pino logger that keeps its lines for assertions. */
export function recordingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

export interface TestApp {
  app: FastifyInstance;
  config: AuthConfig;
}

/**
 * An app with the auth plugin and routes, the real data API at /api/db, one route per resource
 * at /api/test/<resource> (GET needs read, POST write, through requirePermission), one per token
 * scope object at /api/test/object/<object> (the database resource under that object, as the
 * catalog routes do), POST /api/test/playbooks/run and /approve (playbook:run, playbook:approve)
 * and the open /api/version. `register` adds more routes before the app is ready.
 */
export async function buildAuthTestApp(
  pool: Pool,
  options: {
    config?: Partial<AuthConfig>;
    mailer?: Mailer;
    logger?: Logger;
    fastify?: FastifyServerOptions;
    secrets?: SecretBox;
    register?: (app: FastifyInstance) => Promise<void> | void;
  } = {},
): Promise<TestApp> {
  const config = testAuthConfig(options.config);
  const app = Fastify({ logger: false, ...options.fastify });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool, config, ...(options.logger ? { logger: options.logger } : {}) });
  await app.register(authRoutes, {
    pool,
    config,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool,
    allowlist: dataApiAllowlist,
    authorize: createDataApiAuthorizer({ pool }),
  });
  for (const resource of RESOURCES) {
    app.get(`/api/test/${resource}`, { preHandler: requirePermission(resource, 'read') }, async () => ({
      ok: true,
    }));
    app.post(`/api/test/${resource}`, { preHandler: requirePermission(resource, 'write') }, async () => ({
      ok: true,
    }));
  }
  for (const object of TOKEN_SCOPE_OBJECTS.filter((name) => name !== 'mcp')) {
    app.get(
      `/api/test/object/${object}`,
      { preHandler: requirePermission('database', 'read', { object }) },
      async () => ({ ok: true }),
    );
    app.post(
      `/api/test/object/${object}`,
      { preHandler: requirePermission('database', 'write', { object }) },
      async () => ({ ok: true }),
    );
  }
  for (const verb of ['run', 'approve'] as const) {
    app.post(
      `/api/test/playbooks/${verb}`,
      { preHandler: requirePermission('playbooks', `playbook:${verb}`) },
      async () => ({ ok: true }),
    );
  }
  app.get('/api/version', async () => ({ version: 'test' }));
  await options.register?.(app);
  await app.ready();
  return { app, config };
}

export interface TestPerson {
  id: string;
  email: string;
  password: string;
}

let sequence = 0;

/** A person with a password and roles, made the way registration makes them. */
export async function createTestPerson(
  pool: Pool,
  options: { roles?: Role[]; email?: string; password?: string; verified?: boolean } = {},
): Promise<TestPerson> {
  sequence += 1;
  const email = options.email ?? `person${sequence}-${Date.now()}@example.com`;
  const password = options.password ?? `correct horse ${sequence}`;
  const person = await withTransaction(pool, (client) =>
    createIdentity(client, {
      email,
      firstName: 'Test',
      lastName: `Person ${sequence}`,
      roles: options.roles ?? [],
      verified: options.verified ?? true,
      password,
    }),
  );
  return { id: person.id, email, password };
}

/** An API token for a person, optionally scoped. */
export async function createTestToken(
  pool: Pool,
  personId: string,
  scopes: { object: string; action: string }[] = [],
): Promise<string> {
  const { token } = await createAccessToken(pool, {
    name: 'test',
    personId,
    createdBy: personId,
    expiresAt: null,
    scopes: scopes.map((scope) => ({ subject: '', ...scope })) as never,
  });
  return token;
}

/**
 * A browser for app.inject: keeps cookies between requests and sends the CSRF header the web
 * app would send.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  /** `remoteAddress` is the client IP address the requests come from (default 127.0.0.1). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (options.csrf !== false && csrf && !headers[CSRF_HEADER]) headers[CSRF_HEADER] = csrf;
    const { csrf: _ignored, ...rest } = options;
    const response = await this.app.inject({
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      ...rest,
      headers,
    });
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired =
        (cookie.expires && cookie.expires.getTime() <= Date.now()) ||
        cookie.maxAge === 0 ||
        cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  }

  /** Creates a flow of a type and returns its JSON. */
  async startFlow(type: string, query = ''): Promise<FlowJson> {
    const response = await this.get(`/api/auth/self-service/${type}/browser${query}`);
    if (response.statusCode !== 200)
      throw new Error(`creating a ${type} flow answered ${response.statusCode}: ${response.body}`);
    return response.json<FlowJson>();
  }

  submitFlow(flow: FlowJson, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return this.post(`/api/auth/self-service/${flow.type}?flow=${flow.id}`, {
      csrf_token: flow.csrf_token,
      ...body,
    });
  }

  /** Password sign-in through a login flow. */
  async signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    const flow = await this.startFlow('login');
    return this.submitFlow(flow, { method: 'password', identifier: email, password });
  }
}

export interface FlowJson {
  id: string;
  type: string;
  state: string | null;
  csrf_token: string;
  return_to: string | null;
  expires_at: string;
  requested_aal: string;
  refresh: boolean;
  ui: {
    action: string;
    method: string;
    messages: { id: string; text: string; type: string }[];
    nodes: {
      group: string;
      name: string;
      type: string;
      value?: unknown;
      required?: boolean;
      disabled?: boolean;
      messages: { id: string; text: string; type: string }[];
    }[];
  };
  identity?: { id: string; traits: { email: string } };
}

export function nodeValue(flow: FlowJson, name: string, group?: string): unknown {
  return flow.ui.nodes.find((entry) => entry.name === name && (!group || entry.group === group))?.value;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
