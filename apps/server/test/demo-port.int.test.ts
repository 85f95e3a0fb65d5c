import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenForUser } from '../src/modules/auth/index.js';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import { runOpsdeck, type OpsdeckProcess } from './harness/process.js';

const RUNNING = /Opsdeck is running at (http:\/\/localhost:(\d+))/;
const ADMIN_EMAIL = 'demo-port-admin@example.com';

async function checksOfOpsdeckSelf(db: TestDatabase): Promise<{ id: string; name: string }[]> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const { rows } = await db.pool.query<{ id: string; name: string }>(
      `SELECT c.id, c.name FROM checks c JOIN canaries k ON k.id = c.canary_id
        WHERE k.namespace = 'demo' AND k.name = 'opsdeck-self' AND c.type = 'http' AND c.deleted_at IS NULL
        ORDER BY c.name`,
    );
    if (rows.length > 0) return rows;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the scheduler never created the checks of demo/opsdeck-self');
}

// Issue 19 §5: the demo's checks of the server itself used port 8080 whatever PORT said.
describe('the demo checks of the server follow the port it listens on', () => {
  let db: TestDatabase;
  let serve: OpsdeckProcess;
  let url: string;
  let port: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // PORT=0: the server listens on a free port, never 8080.
    serve = runOpsdeck(['serve'], {
      PORT: '0',
      DATABASE_URL: db.url,
      DEMO: 'true',
      ADMIN_EMAIL,
      ADMIN_PASSWORD: 'demo-port-password-1',
    });
    const [, address, listening] = await serve.waitFor(RUNNING, 150_000);
    url = address as string;
    port = listening as string;
  }, 180_000);
  afterAll(async () => {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await db.close();
  });

  it('loads opsdeck-self pointing at the actual port, and its checks pass when run', async () => {
    expect(port).not.toBe('8080');
    // The scheduler creates the canary's check rows when it first picks the canary up.
    const rows = await checksOfOpsdeckSelf(db);
    expect(rows.map((row) => row.name)).toEqual(['opsdeck-healthz', 'opsdeck-readyz']);
    const spec = await db.pool.query<{ urls: string[] }>(
      `SELECT array_agg(h ->> 'url' ORDER BY h ->> 'name') AS urls
         FROM canaries k, jsonb_array_elements(k.spec -> 'http') h
        WHERE k.namespace = 'demo' AND k.name = 'opsdeck-self'`,
    );
    expect(spec.rows[0]?.urls).toEqual([
      `http://localhost:${port}/healthz`,
      `http://localhost:${port}/readyz`,
    ]);

    const token = await createTokenForUser(db.pool, { email: ADMIN_EMAIL, name: 'demo-port' });
    for (const check of rows) {
      const run = await fetch(`${url}/api/canary/run/check/${check.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(run.status, check.name).toBe(200);
      expect(await run.json(), check.name).toMatchObject({ total: 1, failed: 0, success: 1 });
    }
  });
});
