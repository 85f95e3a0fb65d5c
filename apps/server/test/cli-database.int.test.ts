import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/platform/config.js';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import { uniqueName } from './harness/postgres.js';
import { runOpsdeck } from './harness/process.js';

// Issue 19 §5: `opsdeck token create` / `opsdeck apply` without the server's DATA_DIR silently
// created and wrote a second, empty database.
describe('opsdeck commands and the database they use', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it(
    'refuses to create a new embedded database for token create, apply and get',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(PROJECT_ROOT, '.test-data', uniqueName('no_database'));
      const demoFile = path.join(PROJECT_ROOT, 'demo/teams.yaml');
      for (const args of [
        ['token', 'create', '--user', 'admin@opsdeck.local', '--name', 'ci'],
        ['apply', '-f', demoFile],
        ['get', 'canaries'],
      ]) {
        const command = runOpsdeck(args, { DATA_DIR: dataDir, DATABASE_URL: undefined });
        expect(await command.exited, args.join(' ')).toBe(1);
        expect(command.output(), args.join(' ')).toContain(
          `opsdeck: There is no Opsdeck database in the data directory ${dataDir}, and this command would create a new, empty one. Set DATA_DIR to the data directory your server uses`,
        );
        expect(command.output()).toContain('DATABASE_URL');
        // Nothing was created: no directory, no cluster, no lock.
        expect(existsSync(dataDir), args.join(' ')).toBe(false);
      }
    },
  );

  it('says on stderr which database a command used', { timeout: 120_000 }, async () => {
    const url = new URL(db.url);
    const get = runOpsdeck(['get', 'teams'], { DATABASE_URL: db.url });
    expect(await get.exited, get.output()).toBe(0);
    expect(get.output()).toContain(
      `Database: the external PostgreSQL in DATABASE_URL (${url.host}${url.pathname})\n`,
    );
    if (url.password) expect(get.output()).not.toContain(url.password);
  });
});
