import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { applyCommand, getCommand } from './cli-commands.js';
import { startResourceDirectoryWatcher } from './directory-watcher.js';
import { listResources, toResourceManifest } from './resource-store.js';
import {
  recordingLogger,
  resetResourceTables,
  temporaryDirectory,
  testSecretBox,
} from './test-fixtures/helpers.js';
import { createValueFromResolver } from './value-from.js';

const VALUE = 'the-db-password-42';

function buffer(): { write(text: string): void; text(): string } {
  let written = '';
  return { write: (text) => void (written += text), text: () => written };
}

function secretYaml(name: string, password: string, extra = ''): string {
  return `apiVersion: v1
kind: Secret
metadata: {name: ${name}, namespace: prod}
type: Opaque
data:
  password: ${Buffer.from(password).toString('base64')}
stringData:
  user: app${extra}
`;
}

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: endpoints, namespace: prod}
data:
  url: http://db.internal:5432
  port: 5432
`;

describe('Secret and ConfigMap resources', () => {
  let db: TestDatabase;
  let folder: { dir: string; remove(): Promise<void> };
  const secrets = testSecretBox();

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await resetResourceTables(db.pool);
    folder = await temporaryDirectory();
  });
  afterEach(() => folder.remove());

  it('opsdeck apply stores them (Secret values sealed), reports unchanged and updated, and resolves keys', async () => {
    const file = path.join(folder.dir, 'values.yaml');
    await writeFile(file, `${secretYaml('db', VALUE)}---\n${CONFIG_MAP}`);
    const out = buffer();
    expect(await applyCommand(db.pool, [file], out, { secrets })).toBe(0);
    expect(out.text()).toBe('secret/prod/db created\nconfigmap/prod/endpoints created\n');

    const again = buffer();
    expect(await applyCommand(db.pool, [file], again, { secrets })).toBe(0);
    expect(again.text()).toBe('secret/prod/db unchanged\nconfigmap/prod/endpoints unchanged\n');

    const { rows } = await db.pool.query<{ data: string; keys: string[]; spec: object; type: string }>(
      "SELECT data, keys, spec, type FROM secrets WHERE name = 'db'",
    );
    expect(rows[0]).toMatchObject({ keys: ['password', 'user'], spec: { type: 'Opaque' }, type: 'Opaque' });
    expect(rows[0].data).not.toContain(VALUE);
    expect(JSON.parse(secrets.open(rows[0].data))).toEqual({ password: VALUE, user: 'app' });

    const resolve = createValueFromResolver(db.pool, secrets);
    await expect(resolve({ secretKeyRef: { name: 'db', key: 'password' } }, 'prod')).resolves.toBe(VALUE);
    await expect(resolve({ configMapKeyRef: { name: 'endpoints', key: 'port' } }, 'prod')).resolves.toBe(
      '5432',
    );
    await expect(resolve({ secretKeyRef: { name: 'db', key: 'password' } }, 'default')).rejects.toThrowError(
      'secret "db" was not found in namespace "default"',
    );
    await expect(
      resolve({ configMapKeyRef: { name: 'endpoints', key: 'nope' } }, 'prod'),
    ).rejects.toThrowError('key "nope" was not found in config map "endpoints" (namespace "prod")');

    await writeFile(file, secretYaml('db', 'a-new-password'));
    const changed = buffer();
    await applyCommand(db.pool, [file], changed, { secrets });
    expect(changed.text()).toContain('secret/prod/db updated');
    await expect(resolve({ secretKeyRef: { name: 'db', key: 'password' } }, 'prod')).resolves.toBe(
      'a-new-password',
    );
  });

  it('lists keys but never values, and writes manifests without data', async () => {
    const file = path.join(folder.dir, 'values.yaml');
    await writeFile(file, secretYaml('db', VALUE));
    await applyCommand(db.pool, [file], buffer(), { secrets });
    const listed = await listResources(db.pool, 'secrets');
    expect(listed).toHaveLength(1);
    const manifest = toResourceManifest(listed[0]);
    expect(manifest).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'prod' },
      type: 'Opaque',
    });
    const out = buffer();
    expect(await getCommand(db.pool, 'secrets', out)).toBe(0);
    expect(out.text()).toMatch(/^NAMESPACE\s+NAME\s+KEYS\s+SOURCE\s+AGE\nprod\s+db\s+password,user\s+\//);
    expect(out.text()).not.toContain(VALUE);
  });

  it('lists a ConfigMap with its key names', async () => {
    const file = path.join(folder.dir, 'config.yaml');
    await writeFile(file, CONFIG_MAP);
    await applyCommand(db.pool, [file], buffer(), { secrets });
    const out = buffer();
    expect(await getCommand(db.pool, 'configmaps', out)).toBe(0);
    expect(out.text()).toMatch(/\nprod\s+endpoints\s+port,url\s+\//);
  });

  it('refuses invalid documents with the field path and without quoting values', async () => {
    const file = path.join(folder.dir, 'bad.yaml');
    await writeFile(
      file,
      `apiVersion: v1
kind: Secret
metadata: {name: bad}
data: {password: "${VALUE}!"}
---
apiVersion: v1
kind: Secret
metadata: {name: nested}
spec: {data: {a: b}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: keys}
data: {"bad key": x}
`,
    );
    const out = buffer();
    expect(await applyCommand(db.pool, [file], out, { secrets })).toBe(1);
    const text = out.text();
    expect(text).toContain(`${file}#1: data.password: must be base64-encoded`);
    expect(text).toContain(`${file}#2: spec: Secret resources have no spec`);
    expect(text).toContain(`${file}#3: data["bad key"]`);
    expect(text).not.toContain(VALUE);
  });

  it('refuses a Secret when no secret key is configured to seal it', async () => {
    const file = path.join(folder.dir, 'values.yaml');
    await writeFile(file, secretYaml('db', VALUE));
    const out = buffer();
    expect(await applyCommand(db.pool, [file], out)).toBe(1);
    expect(out.text()).toContain('cannot store data: no secret key is configured');
    expect(out.text()).not.toContain(VALUE);
  });

  it('loads them from RESOURCES_DIR and soft-deletes them with their file', async () => {
    const file = path.join(folder.dir, 'secret.yaml');
    await writeFile(file, secretYaml('from-dir', VALUE));
    const logger = recordingLogger();
    const watcher = await startResourceDirectoryWatcher({
      pool: db.pool,
      dir: folder.dir,
      logger,
      debounceMs: 60_000,
      secrets,
    });
    try {
      const resolve = createValueFromResolver(db.pool, secrets);
      await expect(resolve({ secretKeyRef: { name: 'from-dir', key: 'user' } }, 'prod')).resolves.toBe('app');
      await writeFile(file, CONFIG_MAP);
      const report = await watcher.sync();
      expect(report.deleted.map((entry) => entry.kind)).toEqual(['Secret']);
      await expect(resolve({ secretKeyRef: { name: 'from-dir', key: 'user' } }, 'prod')).rejects.toThrowError(
        'secret "from-dir" was not found',
      );
      expect(JSON.stringify(logger.entries)).not.toContain(VALUE);
    } finally {
      await watcher.stop();
    }
  });
});
