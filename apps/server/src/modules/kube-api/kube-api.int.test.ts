import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KUBE_API_PATH, ROLES, type Role } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createJobsService } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  TestBrowser,
} from '../auth/test-fixtures/auth-test-app.js';
import { matrixAllows, specResourceOf } from '../auth/test-fixtures/role-matrix.js';
import { resourceKinds } from '../resources/index.js';

const run = promisify(execFile);

let db: TestDatabase;
let app: FastifyInstance;
let origin: string;
let work: string;
let adminConfig: string;
let viewerConfig: string;
let certificate: string;

/** A GET over real HTTPS, trusting the test's self-signed certificate. */
function httpsGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { headers, ca: certificate }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** kubectl, the real one, with its own cache directory; resolves even on failure. */
async function kubectl(
  config: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      'kubectl',
      ['--kubeconfig', config, '--cache-dir', path.join(work, 'cache'), ...args],
      { env: { ...process.env, HOME: work, KUBECONFIG: '' }, timeout: 30_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : 1,
      stdout: failure.stdout ?? '',
      stderr: failure.stderr ?? '',
    };
  }
}

async function manifest(name: string, text: string): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, text);
  return file;
}

/** Signs a person in through the login flow and downloads their kubeconfig as the browser would. */
async function downloadKubeconfig(roles: Role[]): Promise<string> {
  const person = await createTestPerson(db.pool, { roles });
  const browser = new TestBrowser(app);
  const signIn = await browser.signIn(person.email, person.password);
  expect(signIn.statusCode).toBeLessThan(400);
  // Over the server's real HTTPS port, as the browser's new tab opens it.
  const response = await httpsGet(`${origin}/api/kubeconfig`, { cookie: browser.cookieHeader() });
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toContain('application/yaml');
  expect(response.headers['content-disposition']).toContain('opsdeck-kubeconfig.yaml');
  const file = path.join(work, `kubeconfig-${roles.join('-') || 'none'}.yaml`);
  await writeFile(file, response.body);
  return file;
}

const canary = (name: string, spec: string, labels = '') => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: kube-test
${labels}spec:
${spec}`;

beforeAll(async () => {
  db = await createTestDatabase();
  work = await mkdtemp(path.join(tmpdir(), 'opsdeck-kubectl-'));
  // kubectl sends credentials only over HTTPS: the server serves TLS_CERT_FILE/TLS_KEY_FILE.
  const certFile = path.join(work, 'tls.crt');
  const keyFile = path.join(work, 'tls.key');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  certificate = await readFile(certFile, 'utf8');
  const logger = createLogger('silent');
  ({ app } = await buildApp({
    config: loadConfig({
      WEB_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'silent',
      TLS_CERT_FILE: certFile,
      TLS_KEY_FILE: keyFile,
    }),
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs: createJobsService({ pool: db.pool, logger }),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  adminConfig = await downloadKubeconfig(['admin']);
  viewerConfig = await downloadKubeconfig(['viewer']);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('GET /api/kubeconfig', () => {
  it('points kubectl at this server with a token listed among the person’s tokens', async () => {
    const person = await createTestPerson(db.pool, { roles: ['editor'] });
    const browser = new TestBrowser(app);
    await browser.signIn(person.email, person.password);
    const config = parseYaml((await browser.get('/api/kubeconfig', { host: 'opsdeck.example:8443' })).body);
    expect(config.kind).toBe('Config');
    expect(config['current-context']).toBe('opsdeck');
    expect(config.clusters[0].cluster.server).toBe(`http://opsdeck.example:8443${KUBE_API_PATH}`);
    // The certificate Opsdeck serves is the cluster's, so kubectl trusts a self-signed one.
    expect(
      Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString(),
    ).toContain(certificate.trim().split('\n')[1]);
    expect(config.users[0].user.token).toMatch(/^opsdeck_/);
    const tokens = (await browser.get('/api/auth/tokens')).json<{ payload: { name: string }[] }>().payload;
    expect(tokens.map((token) => token.name).some((name) => name.startsWith('kubeconfig '))).toBe(true);
  });

  it('is revocable: once its token is deleted from the person’s tokens, kubectl must log in again', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(app);
    await browser.signIn(person.email, person.password);
    const download = await httpsGet(`${origin}/api/kubeconfig`, { cookie: browser.cookieHeader() });
    const file = path.join(work, 'kubeconfig-revoked.yaml');
    await writeFile(file, download.body);
    expect((await kubectl(file, 'get', 'canaries', '-A')).code).toBe(0);
    const listed = (await browser.get('/api/auth/tokens')).json<{
      payload: { id: string; name: string }[];
    }>();
    const issued = listed.payload.find((token) => token.name.startsWith('kubeconfig '));
    expect(issued).toBeDefined();
    const revoked = await browser.request({ method: 'DELETE', url: `/api/auth/token/${issued?.id}` });
    expect(revoked.statusCode).toBeLessThan(300);
    const refused = await kubectl(file, 'get', 'canaries', '-A');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You must be logged in to the server');
  });

  it('is refused without a session, and to a token (a token does not mint tokens)', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/kubeconfig' })).statusCode).toBe(401);
    const person = await createTestPerson(db.pool, { roles: ['admin'] });
    const token = await createTestToken(db.pool, person.id);
    const refused = await app.inject({ method: 'GET', url: '/api/kubeconfig', headers: bearer(token) });
    expect(refused.statusCode).toBe(403);
  });
});

describe('kubectl against Opsdeck', () => {
  it('discovers the kinds', async () => {
    const result = await kubectl(adminConfig, 'api-resources', '--no-headers');
    expect(result.stderr).toBe('');
    const versions = (await kubectl(adminConfig, 'api-versions')).stdout.split('\n');
    expect(versions).toEqual(
      expect.arrayContaining([
        'v1',
        'canaries.flanksource.com/v1',
        'configs.flanksource.com/v1',
        'mission-control.flanksource.com/v1',
      ]),
    );
    // Namespaces are those in use (from one DISTINCT read), and always default.
    const namespaces = await kubectl(adminConfig, 'get', 'namespaces', '-o', 'name');
    expect(namespaces.stdout.split('\n')).toContain('namespace/default');
    for (const name of [
      'canaries',
      'scrapeconfigs',
      'playbooks',
      'notifications',
      'connections',
      'secrets',
      'configmaps',
      'topologies',
    ])
      expect(result.stdout).toMatch(new RegExp(`^${name}\\s`, 'm'));
  });

  it('applies, lists, reads, reconfigures and deletes a canary', async () => {
    const file = await manifest(
      'web.yaml',
      canary(
        'web',
        "  schedule: '@every 5m'\n  http:\n    - name: home\n      url: http://127.0.0.1:1/\n      responseCodes: [200]\n",
      ),
    );
    const created = await kubectl(adminConfig, 'apply', '-f', file);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('canary.canaries.flanksource.com/web created');
    const { rows } = await db.pool.query(
      `SELECT source, spec FROM canaries WHERE name = 'web' AND deleted_at IS NULL`,
    );
    expect(rows[0].source).toBe('KubernetesCRD');

    // The canary's status is what its checks recorded: one run, failed, in the last hour.
    const { rows: checks } = await db.pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, name, type, status, last_runtime, last_transition_time)
       SELECT id, 'home', 'http', 'unhealthy', now(), now() FROM canaries WHERE name = 'web' RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO check_statuses (check_id, time, duration, status, error) VALUES ($1, now(), 42, false, 'connection refused')`,
      [checks[0].id],
    );
    const listed = await kubectl(adminConfig, 'get', 'canaries', '-A');
    expect(listed.stdout).toMatch(
      /^NAMESPACE\s+NAME\s+SCHEDULE\s+STATUS\s+LAST CHECK\s+UPTIME 1H\s+LATENCY 1H\s+LAST TRANSITIONED\s+AGE/m,
    );
    expect(listed.stdout).toMatch(
      /^kube-test\s+web\s+@every 5m\s+unhealthy\s+\d+s\s+0\/1\s+42ms\s+\d+s\s+\d+s/m,
    );
    const wide = await kubectl(adminConfig, 'get', 'canary', 'web', '-n', 'kube-test', '-o', 'wide');
    expect(wide.stdout).toMatch(/MESSAGE\s+SOURCE/);
    expect(wide.stdout).toContain('connection refused');

    const yaml = parseYaml(
      (await kubectl(adminConfig, 'get', 'canary', 'web', '-n', 'kube-test', '-o', 'yaml')).stdout,
    );
    expect(yaml.spec.http[0].responseCodes).toEqual([200]);
    expect(yaml.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(yaml.status).toMatchObject({
      status: 'unhealthy',
      uptime1h: '0/1',
      latency1h: 42,
      message: 'connection refused',
    });

    expect((await kubectl(adminConfig, 'apply', '-f', file)).stdout.trim()).toBe(
      'canary.canaries.flanksource.com/web unchanged',
    );
    // A field removed from the file goes (three-way merge against the stored manifest).
    await manifest(
      'web.yaml',
      canary('web', "  schedule: '@every 10m'\n  http:\n    - name: home\n      url: http://127.0.0.1:1/\n"),
    );
    expect((await kubectl(adminConfig, 'apply', '-f', file)).stdout.trim()).toBe(
      'canary.canaries.flanksource.com/web configured',
    );
    const after = await db.pool.query(`SELECT spec FROM canaries WHERE name = 'web' AND deleted_at IS NULL`);
    expect(after.rows[0].spec).toEqual({
      schedule: '@every 10m',
      http: [{ name: 'home', url: 'http://127.0.0.1:1/' }],
    });

    const deleted = await kubectl(adminConfig, 'delete', 'canary', 'web', '-n', 'kube-test');
    expect(deleted.stdout.trim()).toBe('canary.canaries.flanksource.com "web" deleted');
    const gone = await kubectl(adminConfig, 'get', 'canary', 'web', '-n', 'kube-test');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain(
      'Error from server (NotFound): canaries.canaries.flanksource.com "web" not found',
    );
  });

  it('labels, selects by label and patches', async () => {
    const file = await manifest(
      'api.yaml',
      canary('api', "  schedule: '@every 5m'\n  http:\n    - name: api\n      url: http://127.0.0.1:1/api\n"),
    );
    await kubectl(adminConfig, 'apply', '-f', file);
    expect(
      (await kubectl(adminConfig, 'label', 'canary', 'api', '-n', 'kube-test', 'team=payments')).stdout,
    ).toContain('labeled');
    const selected = await kubectl(adminConfig, 'get', 'canaries', '-A', '-l', 'team=payments', '-o', 'name');
    expect(selected.stdout.trim()).toBe('canary.canaries.flanksource.com/api');
    const none = await kubectl(adminConfig, 'get', 'canaries', '-A', '-l', 'team in (search)');
    expect(none.stderr).toContain('No resources found');

    const patched = await kubectl(
      adminConfig,
      'patch',
      'canary',
      'api',
      '-n',
      'kube-test',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/schedule","value":"@every 1m"}]',
    );
    expect(patched.stdout).toContain('patched');
    const merged = await kubectl(
      adminConfig,
      'patch',
      'canary',
      'api',
      '-n',
      'kube-test',
      '--type=merge',
      '-p',
      '{"spec":{"http":[{"name":"api","url":"http://127.0.0.1:2/"}]}}',
    );
    expect(merged.stdout).toContain('patched');
    const { rows } = await db.pool.query(
      `SELECT labels, spec FROM canaries WHERE name = 'api' AND deleted_at IS NULL`,
    );
    expect(rows[0].labels).toEqual({ team: 'payments' });
    expect(rows[0].spec).toEqual({
      schedule: '@every 1m',
      http: [{ name: 'api', url: 'http://127.0.0.1:2/' }],
    });
  });

  it('creates, replaces with the resourceVersion read, and refuses a stale one as a Conflict', async () => {
    const file = await manifest(
      'rv.yaml',
      canary('rv', "  schedule: '@every 5m'\n  http:\n    - name: rv\n      url: http://127.0.0.1:1/rv\n"),
    );
    const created = await kubectl(adminConfig, 'create', '-f', file);
    expect(created.stdout.trim()).toBe('canary.canaries.flanksource.com/rv created');
    const again = await kubectl(adminConfig, 'create', '-f', file);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Error from server (AlreadyExists)');

    const read = JSON.parse(
      (await kubectl(adminConfig, 'get', 'canary', 'rv', '-n', 'kube-test', '-o', 'json')).stdout,
    ) as { metadata: { resourceVersion: string }; spec: { schedule: string } };
    const stale = structuredClone(read);
    read.spec.schedule = '@every 2m';
    const replaceFile = await manifest('rv-replace.json', JSON.stringify(read));
    const replaced = await kubectl(adminConfig, 'replace', '-f', replaceFile);
    expect(replaced.stderr).toBe('');
    expect(replaced.stdout.trim()).toBe('canary.canaries.flanksource.com/rv replaced');

    // The object changed since `stale` was read: replacing with its resourceVersion is refused.
    stale.spec.schedule = '@every 3m';
    const staleFile = await manifest('rv-stale.json', JSON.stringify(stale));
    const conflict = await kubectl(adminConfig, 'replace', '-f', staleFile);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Error from server (Conflict)');
    expect(conflict.stderr).toContain('the object has been modified');
    const { rows } = await db.pool.query(
      `SELECT spec FROM canaries WHERE name = 'rv' AND deleted_at IS NULL`,
    );
    expect(rows[0].spec.schedule).toBe('@every 2m');
    // A JSON patch naming a stale resourceVersion is refused too.
    const patch = await kubectl(
      adminConfig,
      'patch',
      'canary',
      'rv',
      '-n',
      'kube-test',
      '--type=merge',
      '-p',
      JSON.stringify({
        metadata: { resourceVersion: stale.metadata.resourceVersion },
        spec: { schedule: '@every 4m' },
      }),
    );
    expect(patch.stderr).toContain('Error from server (Conflict)');
  });

  it("lists scrapers, playbooks and notifications in one get, a scraper's status carrying its last run", async () => {
    const file = await manifest(
      'kinds.yaml',
      [
        'apiVersion: configs.flanksource.com/v1',
        'kind: ScrapeConfig',
        'metadata: {name: pods, namespace: kube-test}',
        'spec:',
        "  schedule: '@every 30m'",
        '  file: [{type: "Kube::File", id: "$.id", paths: ["nothing.json"]}]',
        '---',
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Playbook',
        'metadata: {name: restart, namespace: kube-test}',
        'spec: {title: Restart, category: Kubernetes, actions: [{name: restart, exec: {script: echo}}]}',
        '---',
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Notification',
        'metadata: {name: failures, namespace: kube-test}',
        'spec: {events: [check.failed], title: Down, to: {email: ops@example.com}}',
        '',
      ].join('\n'),
    );
    const applied = await kubectl(adminConfig, 'apply', '-f', file);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual([
      'scrapeconfig.configs.flanksource.com/pods created',
      'playbook.mission-control.flanksource.com/restart created',
      'notification.mission-control.flanksource.com/failures created',
    ]);
    await db.pool.query(
      `INSERT INTO job_history (name, resource_type, resource_id, status, time_start, time_end, duration_millis, success_count, error_count, details)
       SELECT 'Scraper', 'config_scraper', id::text, 'FAILED', now() - interval '2 minutes', now() - interval '1 minute', 60000, 3, 1,
              '{"errors":["nothing.json: no such file"]}'
         FROM config_scrapers WHERE name = 'pods' AND namespace = 'kube-test'`,
    );
    const listed = await kubectl(
      adminConfig,
      'get',
      'scrapeconfigs,playbooks,notifications',
      '-n',
      'kube-test',
    );
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toMatch(/^NAME\s+SCHEDULE\s+LAST RUN\s+LAST RUN AT\s+AGE/m);
    expect(listed.stdout).toMatch(
      /^scrapeconfig\.configs\.flanksource\.com\/pods\s+@every 30m\s+FAILED\s+\d+[sm]\s+/m,
    );
    expect(listed.stdout).toMatch(
      /^playbook\.mission-control\.flanksource\.com\/restart\s+Restart\s+Kubernetes/m,
    );
    expect(listed.stdout).toMatch(/^notification\.mission-control\.flanksource\.com\/failures\s/m);
    const yaml = parseYaml(
      (await kubectl(adminConfig, 'get', 'scrapeconfig', 'pods', '-n', 'kube-test', '-o', 'yaml')).stdout,
    );
    expect(yaml.status).toMatchObject({
      lastRun: { status: 'FAILED', successCount: 3, errorCount: 1, errors: ['nothing.json: no such file'] },
    });
    expect(Date.parse(yaml.status.lastFailed)).toBeGreaterThan(Date.now() - 600_000);
  });

  it('refuses an invalid spec with the field, and keeps what is stored', async () => {
    const file = await manifest('bad.yaml', canary('api', "  schedule: 'every now and then'\n"));
    const refused = await kubectl(adminConfig, 'apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/is invalid: spec\.schedule/);
    const { rows } = await db.pool.query(
      `SELECT spec FROM canaries WHERE name = 'api' AND deleted_at IS NULL`,
    );
    expect(rows[0].spec.schedule).toBe('@every 1m');
  });

  it('applies server-side and honours a server-side dry run', async () => {
    const file = await manifest(
      'ssa.yaml',
      canary('ssa', "  schedule: '@every 5m'\n  http:\n    - name: s\n      url: http://127.0.0.1:1/s\n"),
    );
    const dry = await kubectl(adminConfig, 'apply', '--server-side', '--dry-run=server', '-f', file);
    expect(dry.stdout).toContain('serverside-applied (server dry run)');
    expect((await db.pool.query(`SELECT 1 FROM canaries WHERE name = 'ssa'`)).rowCount).toBe(0);
    const applied = await kubectl(adminConfig, 'apply', '--server-side', '-f', file);
    expect(applied.stdout.trim()).toBe('canary.canaries.flanksource.com/ssa serverside-applied');
    expect(
      (await db.pool.query(`SELECT 1 FROM canaries WHERE name = 'ssa' AND deleted_at IS NULL`)).rowCount,
    ).toBe(1);
  });

  it('refuses to change a resource a file owns', async () => {
    await db.pool.query(
      `INSERT INTO canaries (name, namespace, spec, source) VALUES ('owned', 'kube-test', '{"schedule":"@every 5m"}', '/etc/opsdeck/owned.yaml')`,
    );
    const refused = await kubectl(adminConfig, 'delete', 'canary', 'owned', '-n', 'kube-test');
    expect(refused.stderr).toContain('Error from server (Conflict)');
    expect(refused.stderr).toContain('is managed by "/etc/opsdeck/owned.yaml"');
    expect(
      (await db.pool.query(`SELECT 1 FROM canaries WHERE name = 'owned' AND deleted_at IS NULL`)).rowCount,
    ).toBe(1);
  });

  it('stores a Secret sealed and never serves its values', async () => {
    const file = await manifest(
      'secret.yaml',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-password\n  namespace: kube-test\nstringData:\n  password: hunter2-kube\n',
    );
    expect((await kubectl(adminConfig, 'apply', '-f', file)).stdout.trim()).toBe(
      'secret/db-password created',
    );
    const read = await kubectl(adminConfig, 'get', 'secret', 'db-password', '-n', 'kube-test', '-o', 'json');
    expect(read.stdout).not.toContain('hunter2');
    const labelled = await kubectl(adminConfig, 'label', 'secret', 'db-password', '-n', 'kube-test', 'a=b');
    expect(labelled.stderr).toContain('must send data or stringData');
  });

  it('lets a viewer read and refuses their writes', async () => {
    const listed = await kubectl(viewerConfig, 'get', 'canaries', '-n', 'kube-test', '-o', 'name');
    expect(listed.stdout).toContain('canary.canaries.flanksource.com/api');
    const file = await manifest('viewer.yaml', canary('viewer-made', "  schedule: '@every 5m'\n"));
    const refused = await kubectl(viewerConfig, 'apply', '-f', file);
    expect(refused.stderr).toContain('Error from server (Forbidden)');
    const secrets = await kubectl(viewerConfig, 'get', 'secrets', '-A');
    expect(secrets.stderr).toContain('Error from server (Forbidden)');
  });
});

describe('the Kubernetes API in the role matrix', () => {
  it('answers each role for each kind as the matrix says', async () => {
    const wrong: string[] = [];
    for (const role of ROLES) {
      const person = await createTestPerson(db.pool, { roles: [role] });
      const headers = bearer(await createTestToken(db.pool, person.id));
      for (const kind of resourceKinds()) {
        const groupVersion = kind.apiVersions[0];
        const prefix = groupVersion.includes('/')
          ? `${KUBE_API_PATH}/apis/${groupVersion}`
          : `${KUBE_API_PATH}/api/${groupVersion}`;
        const resource = (action: 'read' | 'write') =>
          kind.table === 'secrets' || kind.table === 'config_maps'
            ? 'connections'
            : specResourceOf(kind.table, action);
        const read = await app.inject({
          method: 'GET',
          url: `${prefix}/namespaces/matrix/${kind.plural}`,
          headers,
        });
        const readable = matrixAllows(role, resource('read') as string, 'read');
        if (readable ? read.statusCode !== 200 : read.statusCode !== 403)
          wrong.push(`${role} GET ${kind.plural}: ${read.statusCode}`);
        // A dry-run create of a nameless object: a writer gets 422 (no name), others 403.
        const create = await app.inject({
          method: 'POST',
          url: `${prefix}/namespaces/matrix/${kind.plural}?dryRun=All`,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: { apiVersion: groupVersion, kind: kind.kind, metadata: {} },
        });
        const writable = matrixAllows(role, resource('write') as string, 'write');
        if (writable ? create.statusCode !== 422 : create.statusCode !== 403)
          wrong.push(`${role} POST ${kind.plural}: ${create.statusCode} ${create.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
