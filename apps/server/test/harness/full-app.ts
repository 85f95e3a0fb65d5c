import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTestDatabase, type TestDatabase } from './db.js';
import { createPerson } from './factories.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createJobsService, type JobsService } from '../../src/platform/jobs/index.js';
import { createLogger } from '../../src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../src/platform/secrets.js';
import { createTokenForUser } from '../../src/modules/auth/index.js';

/** The whole app as `app.ts` wires it (the data API with its row checks), an admin's token. */
export interface FullApp {
  db: TestDatabase;
  jobs: JobsService;
  app: FastifyInstance;
  /** A JSON write as the admin, answering with the representation. */
  send(method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown): Promise<LightMyRequestResponse>;
  /** A read as the admin. */
  get(url: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startFullApp(adminName: string): Promise<FullApp> {
  const db = await createTestDatabase();
  const logger = createLogger('silent');
  const jobs = createJobsService({ pool: db.pool, logger });
  const config = loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  const { app } = await buildApp({
    config,
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs,
  });
  const admin = await createPerson(db.pool, { name: adminName, roles: ['admin'] });
  const token = await createTokenForUser(db.pool, { email: admin.email as string, name: adminName });
  return {
    db,
    jobs,
    app,
    send: (method, url, payload) =>
      app.inject({
        method,
        url,
        payload: JSON.stringify(payload),
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          prefer: 'return=representation',
        },
      }),
    get: (url) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
