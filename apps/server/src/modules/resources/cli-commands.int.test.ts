import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { applyCommand, getCommand } from './cli-commands.js';
import { resetResourceTables, temporaryDirectory } from './test-fixtures/helpers.js';

function buffer(): { write(text: string): void; text(): string } {
  let written = '';
  return { write: (text) => void (written += text), text: () => written };
}

const VALID = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: api, namespace: prod}
spec:
  schedule: "@every 1m"
  http: [{name: api, url: "http://127.0.0.1:1/health"}]
---
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: platform}
spec: {icon: group}
`;

const INVALID = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ok}
spec: {schedule: "@daily"}
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: bad}
spec: {schedule: "every day", replicas: -1}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
`;

describe('opsdeck apply and get', () => {
  let db: TestDatabase;
  let folder: { dir: string; remove(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await resetResourceTables(db.pool);
    folder = await temporaryDirectory();
  });
  afterEach(() => folder.remove());

  it('applies a directory recursively, prints one line per document and problem, exits 1 on any failure', async () => {
    const valid = path.join(folder.dir, 'a-valid.yaml');
    const invalid = path.join(folder.dir, 'sub', 'b-invalid.yml');
    await mkdir(path.dirname(invalid));
    await writeFile(valid, VALID);
    await writeFile(invalid, INVALID);
    await writeFile(path.join(folder.dir, 'README.md'), '# ignored');

    const out = buffer();
    expect(await applyCommand(db.pool, [folder.dir], out)).toBe(1);
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'canary/prod/api created',
      'team/default/platform created',
      'canary/default/ok created',
      expect.stringMatching(
        new RegExp(
          `^${invalid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#2: spec\\.schedule: Invalid schedule "every day": `,
        ),
      ),
      `${invalid}#2: spec.replicas: Too small: expected number to be >=0`,
      expect.stringMatching(
        new RegExp(
          `^.*b-invalid\\.yml#3: kind: unknown resource kind "Widget" \\(apiVersion example\\.com/v1\\)\\. Supported kinds: Team \\(`,
        ),
      ),
    ]);
    const { rows } = await db.pool.query('SELECT name, source FROM canaries ORDER BY name');
    expect(rows).toEqual([
      { name: 'api', source: valid },
      { name: 'ok', source: invalid },
    ]);

    const again = buffer();
    expect(await applyCommand(db.pool, [valid], again)).toBe(0);
    expect(again.text()).toBe('canary/prod/api unchanged\nteam/default/platform unchanged\n');

    await writeFile(valid, VALID.replace('@every 1m', '@every 5m'));
    const changed = buffer();
    expect(await applyCommand(db.pool, [valid], changed)).toBe(0);
    expect(changed.text()).toBe('canary/prod/api updated\nteam/default/platform unchanged\n');
  });

  it('applies several files given one by one and reports missing paths', async () => {
    const one = path.join(folder.dir, 'one.yaml');
    await writeFile(one, VALID);
    const missing = path.join(folder.dir, 'nope.yaml');
    const out = buffer();
    expect(await applyCommand(db.pool, [one, missing], out)).toBe(1);
    expect(out.text()).toBe(
      `${missing}: no such file or directory\ncanary/prod/api created\nteam/default/platform created\n`,
    );
    expect(await applyCommand(db.pool, [], buffer())).toBe(1);
  });

  it('reports a conflict with a UI resource and takes it over with force', async () => {
    await db.pool.query(`INSERT INTO teams (name) VALUES ('platform')`);
    const file = path.join(folder.dir, 'team.yaml');
    await writeFile(file, VALID.split('---\n')[1]);
    const out = buffer();
    expect(await applyCommand(db.pool, [file], out)).toBe(1);
    expect(out.text()).toBe(
      `${file}#1: team/default/platform belongs to source "UI"; not changed (use --force to take it over)\n`,
    );
    const forced = buffer();
    expect(await applyCommand(db.pool, [file], forced, { force: true })).toBe(0);
    expect(forced.text()).toBe('team/default/platform updated\n');
  });

  it('lists resources as a table, by kind, plural or table name', async () => {
    const file = path.join(folder.dir, 'a.yaml');
    await writeFile(file, VALID);
    await applyCommand(db.pool, [file], buffer());
    for (const name of ['canaries', 'canary', 'Canary']) {
      const out = buffer();
      expect(await getCommand(db.pool, name, out)).toBe(0);
      const lines = out.text().split('\n');
      expect(lines[0]).toMatch(/^NAMESPACE {3}NAME {3}SOURCE +AGE$/);
      expect(lines[1]).toMatch(
        new RegExp(`^prod {8}api {4}${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} {3}\\d+s$`),
      );
    }
    const empty = buffer();
    expect(await getCommand(db.pool, 'config_scrapers', empty)).toBe(0);
    expect(empty.text()).toBe('No resources found\n');
    const unknown = buffer();
    expect(await getCommand(db.pool, 'widgets', unknown)).toBe(1);
    expect(unknown.text()).toMatch(
      /^error: Unknown resource kind "widgets". Supported: teams, permissions, connections, secrets, configmaps, canaries/,
    );
  });
});
