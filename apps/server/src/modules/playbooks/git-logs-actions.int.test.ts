import { execFile, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import ssh2, { type Connection } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import type { ModuleWorkers } from '../../server-module.js';
import { requireBinary } from '../health/test-fixtures/daemons.js';
import { azureRepositoryOf } from './actions/gitops.js';
import { parseLogTime } from './actions/logs.js';
import { createRun } from './runs.js';
import type { RunTarget } from './store.js';
import { startPlaybookWorkers } from './workers.js';

const run = promisify(execFile);
const logger = pino({ level: 'silent' });
const box = createSecretBox(keyFromSecret('git-logs-actions-test-key'));
let db: TestDatabase;
let jobs: JobsService;
let workers: ModuleWorkers;
let dir = '';
let previousRoots: string | undefined;

/** A minute `offset` seconds after a fixed base a few minutes ago. */
const base = Date.now() - 5 * 60_000;
const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', ...args],
    {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
    },
  );
  return stdout.trim();
}

/** A bare repository with `main` holding `files`. */
async function bareRepository(name: string, files: Record<string, string>): Promise<string> {
  const bare = path.join(dir, `${name}.git`);
  await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const seed = path.join(dir, `${name}-seed`);
  await run('git', ['clone', '--quiet', bare, seed]);
  await git(seed, 'checkout', '--quiet', '-b', 'main');
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(seed, file)), { recursive: true });
    await writeFile(path.join(seed, file), content);
  }
  await git(seed, 'add', '--all');
  await git(seed, 'commit', '--quiet', '-m', 'seed');
  await git(seed, 'push', '--quiet', 'origin', 'main');
  return bare;
}

beforeAll(async () => {
  await requireBinary('/usr/bin/git', 'git');
  await requireBinary('/usr/bin/jq', 'jq');
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-playbook-git-logs-'));
  previousRoots = process.env.LOG_FILE_ROOTS;
  process.env.LOG_FILE_ROOTS = path.join(dir, 'logs');
  jobs = createJobsService({ pool: db.pool, logger, events: { pollIntervalMs: 30 } });
  workers = await startPlaybookWorkers({
    pool: db.pool,
    jobs,
    logger,
    metrics: undefined as never,
    cancelPollMs: 100,
    schedulePollMs: 60_000,
    secrets: box,
  });
  await jobs.start();
}, 60_000);

afterAll(async () => {
  if (previousRoots === undefined) delete process.env.LOG_FILE_ROOTS;
  else process.env.LOG_FILE_ROOTS = previousRoots;
  await jobs?.stop({ graceMs: 1000 });
  await workers?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  await db?.close();
});

interface ActionRow {
  name: string;
  status: string;
  error: string | null;
  result: Record<string, unknown> | null;
}

async function runPlaybook(spec: Record<string, unknown>, target: RunTarget = {}) {
  const { rows } = await db.pool.query<{ id: string; name: string; namespace: string }>(
    `INSERT INTO playbooks (name, title, spec) VALUES ('pb-' || gen_random_uuid(), 'git and logs', $1)
     RETURNING id, name, namespace`,
    [spec],
  );
  const created = await createRun(db.pool, {
    playbook: { ...rows[0], title: null, description: null, spec },
    target,
    parameters: {},
    request: { trigger: 'test' },
    createdBy: null,
  });
  const status = await waitFor(
    async () => {
      const current = await db.pool.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM playbook_runs WHERE id = $1',
        [created.id],
      );
      const row = current.rows[0];
      return ['completed', 'failed', 'timed_out'].includes(row.status) ? row : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50, what: 'the run to finish' },
  );
  const actions = await db.pool.query<ActionRow>(
    'SELECT name, status, error, result FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at',
    [created.id],
  );
  return { id: created.id, ...status, actions: actions.rows };
}

describe('logs action through the logs module', () => {
  beforeAll(async () => {
    await mkdir(path.join(dir, 'logs'), { recursive: true });
    await writeFile(
      path.join(dir, 'logs', 'app.log'),
      [
        { time: Date.parse(at(-3600)), level: 30, msg: 'long ago' },
        { time: Date.parse(at(10)), level: 30, msg: 'request served' },
        { time: Date.parse(at(20)), level: 50, msg: 'request failed: database timeout' },
        { time: Date.parse(at(30)), level: 50, msg: 'request failed: out of stock' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    await db.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ('app-files', $1::jsonb)`, [
      JSON.stringify({ file: { path: path.join(dir, 'logs', '*.log'), format: 'json' } }),
    ]);
    // A file outside LOG_FILE_ROOTS is refused, as on the logs page.
    await db.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ('outside', $1::jsonb)`, [
      JSON.stringify({ file: { path: path.resolve('package.json') } }),
    ]);
  });

  it('reads a file backend by name with query, range, limit and direction, and keeps logs.txt', async () => {
    const result = await runPlaybook({
      actions: [
        {
          name: 'failures',
          logs: { name: 'app-files', query: 'failed', start: at(0), end: at(60), limit: '10' },
        },
        {
          // The ecosystem's loki block carries the request fields; oldest first.
          name: 'oldest',
          logs: { name: 'app-files', loki: { since: '2h', limit: '2', direction: 'forward' } },
        },
      ],
    });
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    const failures = result.actions[0].result as {
      total: number;
      logs: { message: string; level: string }[];
    };
    expect(failures.total).toBe(2);
    expect(failures.logs.map((line) => [line.message, line.level])).toEqual([
      ['request failed: out of stock', 'error'],
      ['request failed: database timeout', 'error'],
    ]);
    const oldest = result.actions[1].result as { direction: string; logs: { message: string }[] };
    expect(oldest.direction).toBe('forward');
    // The two newest of the last two hours (limit 2), oldest first.
    expect(oldest.logs.map((line) => line.message)).toEqual([
      'request failed: database timeout',
      'request failed: out of stock',
    ]);
    const { rows: artifacts } = await db.pool.query<{ filename: string; size: number }>(
      `SELECT a.filename, a.size FROM artifacts a JOIN playbook_run_actions x ON x.id = a.playbook_run_action_id
        WHERE a.playbook_run_id = $1 AND x.name = 'failures'`,
      [result.id],
    );
    expect(artifacts.map((row) => row.filename)).toEqual(['logs.txt']);
    expect(Number(artifacts[0].size)).toBeGreaterThan(0);
  });

  it("reads the logs of the run's component by its log selector", async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type, log_selectors) VALUES ('api', 'Service', $1::jsonb) RETURNING id`,
      [JSON.stringify([{ name: 'app-files' }])],
    );
    const result = await runPlaybook(
      { actions: [{ name: 'component logs', logs: { query: 'served', since: '1h' } }] },
      { component_id: rows[0].id },
    );
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    expect(result.actions[0].result).toMatchObject({ id: rows[0].id, total: 1 });
  });

  it("fails with the field and the logs module's message", async () => {
    const result = await runPlaybook({
      actions: [
        { name: 'missing', logs: { name: 'nope' } },
        { name: 'outside', if: 'always()', logs: { name: 'outside' } },
        { name: 'bad limit', if: 'always()', logs: { name: 'app-files', limit: '0' } },
        { name: 'bad start', if: 'always()', logs: { name: 'app-files', start: 'yesterday-ish' } },
        { name: 'nothing', if: 'always()', logs: { query: 'x' } },
        {
          name: 'inline',
          if: 'always()',
          logs: { loki: { baseURL: 'http://127.0.0.1:3100', query: '{a="b"}' } },
        },
        { name: 'cloud', if: 'always()', logs: { cloudWatch: { query: 'x' } } },
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.actions.map((action) => action.error)).toEqual([
      'logs: name: Logging backend nope not found',
      expect.stringMatching(
        /^logs: name: file.path must be below one of the folders logs may be read from \(LOG_FILE_ROOTS\)/,
      ),
      'logs.limit: limit must be 1 or more',
      'logs.start must be an ISO time, a Unix epoch or date math such as now-1h: yesterday-ish',
      'logs.name: name (a logging backend) or id (a component or config item) is required; the run has no component or config item',
      'logs.loki.baseURL: inline backends are not supported here; create a LoggingBackend and name it in logs.name',
      'logs.cloudWatch: CloudWatch needs AWS and is not supported here',
    ]);
  });

  it('parses epochs, ISO times and date math', () => {
    const now = new Date('2026-11-28T10:30:45.000Z');
    expect(parseLogTime('now', now)?.toISOString()).toBe('2026-11-28T10:30:45.000Z');
    expect(parseLogTime('now-1h', now)?.toISOString()).toBe('2026-11-28T09:30:45.000Z');
    expect(parseLogTime('now-1d+30m/h', now)?.toISOString()).toBe('2026-11-27T11:00:00.000Z');
    expect(parseLogTime('1764325845', now)?.toISOString()).toBe('2025-11-28T10:30:45.000Z');
    expect(parseLogTime('1764325845000', now)?.toISOString()).toBe('2025-11-28T10:30:45.000Z');
    expect(parseLogTime('1764325845000000000', now)?.toISOString()).toBe('2025-11-28T10:30:45.000Z');
    expect(parseLogTime('2026-01-02T03:04:05Z', now)?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parseLogTime('soon', now)).toBeUndefined();
  });
});

describe('exec checkout of a local bare repository', () => {
  it('clones a branch into the working directory (or a destination) before the script runs there', async () => {
    const bare = await bareRepository('scripts', { 'hello.sh': 'echo "hello from $1"\n' });
    const seed = path.join(dir, 'scripts-seed');
    await git(seed, 'checkout', '--quiet', '-b', 'release');
    await writeFile(path.join(seed, 'VERSION'), '2.0\n');
    await git(seed, 'add', '--all');
    await git(seed, 'commit', '--quiet', '-m', 'release');
    await git(seed, 'push', '--quiet', 'origin', 'release');
    const releaseSha = await git(seed, 'rev-parse', 'HEAD');
    await db.pool.query(
      `INSERT INTO connections (name, namespace, type, url) VALUES ('scripts', 'default', 'git', $1)`,
      [box.seal(`file://${bare}`)],
    );
    const result = await runPlaybook({
      actions: [
        { name: 'main', exec: { script: 'bash hello.sh main && pwd', checkout: { url: bare } } },
        {
          name: 'release',
          exec: {
            script: 'cat VERSION && git rev-parse --abbrev-ref HEAD && basename "$PWD"',
            checkout: { connection: 'connection://default/scripts', branch: 'release', destination: 'src' },
          },
        },
      ],
    });
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    const main = result.actions[0].result as { stdout: string; checkout: Record<string, unknown> };
    expect(main.stdout.split('\n')[0]).toBe('hello from main');
    expect(main.stdout).toMatch(/opsdeck-exec-/);
    expect(main.checkout).toMatchObject({ url: bare, branch: null, destination: '.' });
    const release = result.actions[1].result as { stdout: string; checkout: Record<string, unknown> };
    expect(release.stdout).toBe('2.0\nrelease\nsrc\n');
    expect(release.checkout).toMatchObject({ branch: 'release', commit: releaseSha, destination: 'src' });
  });

  it('fails before the script when the checkout cannot be cloned, without the password', async () => {
    const result = await runPlaybook({
      actions: [
        {
          name: 'missing branch',
          exec: {
            script: 'echo should-not-run',
            checkout: { url: path.join(dir, 'scripts.git'), branch: 'nope', password: 's3cr3t-value' },
          },
        },
        {
          name: 'escape',
          if: 'always()',
          exec: { script: 'true', checkout: { url: path.join(dir, 'scripts.git'), destination: '../x' } },
        },
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.actions[0].error).toMatch(/^exec: checkout: git clone failed: .*nope/);
    expect(result.actions[0].error).not.toContain('s3cr3t-value');
    expect(result.actions[0].result).toBeNull();
    expect(result.actions[1].error).toBe(
      'exec.checkout.destination must be a relative path inside the repository: ../x',
    );
  });
});

/**
 * An ed25519 key pair in OpenSSH form. ssh2's generator drops a leading zero byte of the key now
 * and then (about 1 pair in 200 here), and such a key is then "Malformed" to its own parser and to
 * ssh: draw again until both halves parse.
 */
function ed25519KeyPair(): { public: string; private: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (
      !(ssh2.utils.parseKey(pair.public) instanceof Error) &&
      !(ssh2.utils.parseKey(pair.private) instanceof Error)
    )
      return pair;
  }
}

/**
 * A git host over SSH for the test: an ssh2 server that accepts one public key (checking the
 * signature) and runs git-upload-pack / git-receive-pack on the local path the client asks for.
 */
async function startGitSshServer(
  allowedPublicKey: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const { Server, utils } = ssh2;
  const allowed = utils.parseKey(allowedPublicKey);
  if (allowed instanceof Error) throw allowed;
  const hostKey = ed25519KeyPair().private;
  const server = new Server({ hostKeys: [hostKey] }, (client: Connection) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (
        ctx.method === 'publickey' &&
        ctx.key.algo === allowed.type &&
        ctx.key.data.equals(allowed.getPublicSSH())
      ) {
        if (!ctx.signature || !ctx.blob) return ctx.accept();
        if (allowed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      ctx.reject(['publickey']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        acceptSession().on('exec', (accept, reject, info) => {
          const match = /^(git-upload-pack|git-receive-pack) '([^']+)'$/.exec(info.command);
          if (!match) return reject();
          const stream = accept();
          const child = spawn(match[1], [match[2]], { stdio: ['pipe', 'pipe', 'pipe'] });
          stream.pipe(child.stdin);
          child.stdout.pipe(stream, { end: false });
          child.stderr.pipe(stream.stderr, { end: false });
          child.on('close', (code) => {
            stream.exit(code ?? 1);
            stream.end();
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('exec checkout over SSH with a key', () => {
  it("clones with the key (given inline or by a connection) and fails with ssh's message for a wrong key", async () => {
    await requireBinary('/usr/bin/ssh', 'openssh-client');
    const bare = await bareRepository('over-ssh', { 'README.md': 'cloned over ssh\n' });
    const key = ed25519KeyPair();
    const wrong = ed25519KeyPair();
    const host = await startGitSshServer(key.public);
    try {
      const url = `ssh://git@127.0.0.1:${host.port}${bare}`;
      await db.pool.query(
        `INSERT INTO connections (name, namespace, type, url, certificate) VALUES ('over-ssh', 'default', 'git', $1, $2)`,
        [box.seal(url), box.seal(key.private)],
      );
      const result = await runPlaybook({
        actions: [
          { name: 'inline', exec: { script: 'cat README.md', checkout: { url, certificate: key.private } } },
          {
            name: 'connection',
            exec: {
              script: 'git log -1 --format=%s',
              checkout: { connection: 'connection://default/over-ssh' },
            },
          },
          {
            name: 'wrong key',
            exec: { script: 'echo should-not-run', checkout: { url, certificate: wrong.private } },
          },
          {
            name: 'key on http',
            if: 'always()',
            exec: {
              script: 'true',
              checkout: { url: 'https://git.example/x.git', certificate: key.private },
            },
          },
        ],
      });
      expect(result.actions.map((action) => action.status)).toEqual([
        'completed',
        'completed',
        'failed',
        'failed',
      ]);
      const inline = result.actions[0].result as { stdout: string; checkout: Record<string, unknown> };
      expect(inline.stdout).toBe('cloned over ssh\n');
      // Shown without its user info.
      expect(inline.checkout).toMatchObject({
        url: `ssh://127.0.0.1:${host.port}${bare}`,
        commit: await git(bare, 'rev-parse', 'main'),
      });
      expect((result.actions[1].result as { stdout: string }).stdout).toBe('seed\n');
      expect(result.actions[2].error).toMatch(
        /^exec: checkout: git clone failed: [\s\S]*Permission denied \(publickey\)/,
      );
      expect(result.actions[2].result).toBeNull();
      expect(result.actions[3].error).toBe(
        'exec.checkout.certificate is an SSH key: it needs an ssh:// or user@host:path URL, not https://git.example/x.git',
      );
    } finally {
      await host.close();
    }
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

async function startApi(): Promise<{ origin: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.setHeader('content-type', 'application/json');
      const url = request.url ?? '';
      if (request.method === 'POST' && /^\/repos\/acme\/deploy\/pulls$/.test(url)) {
        if (request.headers.authorization !== 'Bearer gh-token') {
          response.statusCode = 401;
          response.end(JSON.stringify({ message: 'Bad credentials' }));
          return;
        }
        response.statusCode = 201;
        response.end(JSON.stringify({ number: 7, html_url: 'https://github.example/acme/deploy/pull/7' }));
      } else if (request.method === 'POST' && url === '/repos/acme/deploy/issues/7/labels') {
        response.statusCode = 200;
        response.end(JSON.stringify([]));
      } else if (
        request.method === 'POST' &&
        url === '/fabrikam/web/_apis/git/repositories/deploy/pullrequests?api-version=7.1'
      ) {
        if (request.headers.authorization !== `Basic ${Buffer.from(':az-token').toString('base64')}`) {
          response.statusCode = 401;
          response.end(
            JSON.stringify({ message: 'TF400813: The user is not authorized to access this resource.' }),
          );
          return;
        }
        response.statusCode = 201;
        response.end(
          JSON.stringify({
            pullRequestId: 12,
            url: 'https://dev.azure.example/fabrikam/_apis/git/repositories/1/pullRequests/12',
            repository: { webUrl: 'https://dev.azure.example/fabrikam/web/_git/deploy' },
          }),
        );
      } else if (request.method === 'POST' && /^\/api\/v4\/projects\/[^/]+\/merge_requests$/.test(url)) {
        response.statusCode = 201;
        response.end(
          JSON.stringify({ iid: 3, web_url: 'https://gitlab.example/acme/deploy/-/merge_requests/3' }),
        );
      } else {
        response.statusCode = 404;
        response.end(JSON.stringify({ message: 'Not Found' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('gitops action against a local bare repository', () => {
  it('creates, deletes and patches files (YAML keeps its comments), commits as the author and pushes a branch', async () => {
    const bare = await bareRepository('deploy', {
      'apps/web.yaml': '# the web app\nspec:\n  replicas: 1 # scaled by playbooks\n  image: web:1.0\n',
      'apps/worker.yaml': 'spec:\n  replicas: 2\n',
      'config.json': '{"debug": true, "level": "info"}\n',
      'old.txt': 'remove me\n',
    });
    const result = await runPlaybook({
      actions: [
        {
          name: 'scale',
          gitops: {
            repo: { url: bare, base: 'main', branch: 'scale-web' },
            commit: { author: 'Ops Bot', email: 'bot@example.test', message: 'Scale web to 3' },
            files: [
              { path: 'notes/scale.md', content: 'Scaled by {{.run.id}}\n' },
              { path: 'old.txt', content: '$delete' },
            ],
            patches: [
              { path: 'apps/web.yaml', yq: '.spec.replicas = 3' },
              { path: 'config.json', jq: '.debug = false | del(.level)' },
            ],
          },
        },
      ],
    });
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    const outcome = result.actions[0].result as { commit: string; changed: string[]; pushed: boolean };
    expect(outcome.pushed).toBe(true);
    expect(outcome.changed.sort()).toEqual(['apps/web.yaml', 'config.json', 'notes/scale.md', 'old.txt']);
    const check = path.join(dir, 'deploy-check');
    await run('git', ['clone', '--quiet', '--branch', 'scale-web', bare, check]);
    expect(await git(check, 'rev-parse', 'HEAD')).toBe(outcome.commit);
    expect(await git(check, 'log', '-1', '--format=%an <%ae>|%s')).toBe(
      'Ops Bot <bot@example.test>|Scale web to 3',
    );
    expect(await readFile(path.join(check, 'apps/web.yaml'), 'utf8')).toBe(
      '# the web app\nspec:\n  replicas: 3 # scaled by playbooks\n  image: web:1.0\n',
    );
    expect(await readFile(path.join(check, 'apps/worker.yaml'), 'utf8')).toBe('spec:\n  replicas: 2\n');
    expect(JSON.parse(await readFile(path.join(check, 'config.json'), 'utf8'))).toEqual({ debug: false });
    expect(await readFile(path.join(check, 'notes/scale.md'), 'utf8')).toBe(`Scaled by ${result.id}\n`);
    await expect(readFile(path.join(check, 'old.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    // main is untouched.
    expect(await git(bare, 'log', '-1', '--format=%s', 'main')).toBe('seed');

    // A second run with skipExisting leaves the branch as it is; with nothing to change, nothing is pushed.
    const again = await runPlaybook({
      actions: [
        {
          name: 'skip',
          gitops: {
            repo: { url: bare, branch: 'scale-web', skipExisting: true },
            commit: { message: 'again' },
            patches: [{ path: 'apps/*.yaml', yq: '.spec.replicas = 5' }],
          },
        },
        {
          name: 'no change',
          gitops: {
            repo: { url: bare },
            commit: { message: 'nothing' },
            patches: [{ path: 'apps/worker.yaml', yq: '.spec.replicas = 2' }],
          },
        },
      ],
    });
    expect(again.status, JSON.stringify(again.actions)).toBe('completed');
    expect(again.actions[0].result).toMatchObject({
      pushed: false,
      skipped: 'branch scale-web exists already',
    });
    expect(again.actions[1].result).toMatchObject({ pushed: false, commit: null, changed: [] });
    expect(await git(bare, 'rev-parse', 'scale-web')).toBe(outcome.commit);
  });

  it('opens a GitHub pull request with labels and a GitLab merge request through their HTTP APIs', async () => {
    const bare = await bareRepository(path.join('acme', 'deploy'), { 'values.yaml': 'tag: v1\n' });
    const api = await startApi();
    try {
      const result = await runPlaybook({
        actions: [
          {
            name: 'github',
            gitops: {
              repo: {
                url: bare,
                branch: 'bump-v2',
                type: 'github',
                apiURL: api.origin,
                password: 'gh-token',
              },
              commit: { message: 'Bump to v2\n\nFrom a playbook.' },
              pr: { title: 'Bump web to v2', tags: ['automated', 'deploy'] },
              patches: [{ path: 'values.yaml', yq: '.tag = "v2"' }],
            },
          },
          {
            name: 'gitlab',
            gitops: {
              repo: {
                url: bare,
                branch: 'bump-v3',
                type: 'gitlab',
                apiURL: api.origin,
                password: 'gl-token',
              },
              commit: { message: 'Bump to v3' },
              pr: { title: 'Bump web to v3', tags: ['deploy'] },
              patches: [{ path: 'values.yaml', yq: '.tag = "v3"' }],
            },
          },
          {
            name: 'refused',
            gitops: {
              repo: { url: bare, branch: 'bump-v4', type: 'github', apiURL: api.origin, password: 'wrong' },
              commit: { message: 'Bump to v4' },
              pr: { title: 'Bump web to v4' },
              patches: [{ path: 'values.yaml', yq: '.tag = "v4"' }],
            },
          },
        ],
      });
      expect(result.actions.map((action) => action.status)).toEqual(['completed', 'completed', 'failed']);
      expect(result.actions[0].result).toMatchObject({
        pullRequest: { created: true, number: 7, url: 'https://github.example/acme/deploy/pull/7' },
      });
      expect(result.actions[1].result).toMatchObject({
        pullRequest: {
          created: true,
          number: 3,
          url: 'https://gitlab.example/acme/deploy/-/merge_requests/3',
        },
      });
      expect(result.actions[2].error).toBe('gitops: GitHub answered 401: Bad credentials');
      // The push happened before the refusal: the result says so.
      expect(result.actions[2].result).toMatchObject({ pushed: true, branch: 'bump-v4' });

      const [pull, labels, merge] = api.requests;
      expect(pull).toMatchObject({
        method: 'POST',
        url: '/repos/acme/deploy/pulls',
        body: {
          title: 'Bump web to v2',
          head: 'bump-v2',
          base: 'main',
          body: 'Bump to v2\n\nFrom a playbook.',
        },
      });
      expect(pull.headers.accept).toBe('application/vnd.github+json');
      expect(pull.headers['x-github-api-version']).toBe('2022-11-28');
      expect(labels).toMatchObject({
        url: '/repos/acme/deploy/issues/7/labels',
        body: { labels: ['automated', 'deploy'] },
      });
      expect(merge.url).toBe(
        `/api/v4/projects/${encodeURIComponent(bare.replace(/^\/+/, '').replace(/\.git$/, ''))}/merge_requests`,
      );
      expect(merge.headers['private-token']).toBe('gl-token');
      expect(merge.body).toEqual({
        source_branch: 'bump-v3',
        target_branch: 'main',
        title: 'Bump web to v3',
        description: 'Bump to v3',
        labels: 'deploy',
      });
      expect(await git(bare, 'show', 'bump-v2:values.yaml')).toBe('tag: v2');
    } finally {
      await api.close();
    }
  });

  it('opens an Azure DevOps pull request through its REST API (PAT as basic auth, labels) and reports a refusal', async () => {
    const bare = await bareRepository(path.join('fabrikam', 'web', '_git', 'deploy'), {
      'values.yaml': 'tag: v1\n',
    });
    const api = await startApi();
    try {
      const repo = (branch: string, password: string) => ({
        url: bare,
        branch,
        type: 'azure_devops',
        apiURL: `${api.origin}/fabrikam`,
        password,
      });
      const result = await runPlaybook({
        actions: [
          {
            name: 'azure',
            gitops: {
              repo: repo('bump-v5', 'az-token'),
              commit: { message: 'Bump to v5\n\nFrom a playbook.' },
              pr: { title: 'Bump web to v5', tags: ['automated'] },
              patches: [{ path: 'values.yaml', yq: '.tag = "v5"' }],
            },
          },
          {
            name: 'refused',
            if: 'always()',
            gitops: {
              repo: repo('bump-v6', 'expired'),
              commit: { message: 'Bump to v6' },
              pr: {},
              patches: [{ path: 'values.yaml', yq: '.tag = "v6"' }],
            },
          },
        ],
      });
      expect(result.actions.map((action) => action.status)).toEqual(['completed', 'failed']);
      expect(result.actions[0].result).toMatchObject({
        pushed: true,
        pullRequest: {
          created: true,
          number: 12,
          url: 'https://dev.azure.example/fabrikam/web/_git/deploy/pullrequest/12',
        },
      });
      expect(result.actions[1].error).toBe(
        'gitops: Azure DevOps answered 401: TF400813: The user is not authorized to access this resource.',
      );
      const [created] = api.requests;
      expect(created.method).toBe('POST');
      expect(created.headers['content-type']).toBe('application/json');
      expect(created.body).toEqual({
        sourceRefName: 'refs/heads/bump-v5',
        targetRefName: 'refs/heads/main',
        title: 'Bump web to v5',
        description: 'Bump to v5\n\nFrom a playbook.',
        labels: [{ name: 'automated' }],
      });
      expect(await git(bare, 'show', 'bump-v5:values.yaml')).toBe('tag: v5');
    } finally {
      await api.close();
    }
  });

  it("reads an Azure DevOps repository's organization, project and name from its URL forms", () => {
    const expected = { organization: 'fabrikam', project: 'Web App', repository: 'deploy' };
    expect(azureRepositoryOf('https://dev.azure.com/fabrikam/Web%20App/_git/deploy')).toEqual(expected);
    expect(azureRepositoryOf('https://fabrikam@dev.azure.com/fabrikam/Web%20App/_git/deploy')).toEqual(
      expected,
    );
    expect(azureRepositoryOf('git@ssh.dev.azure.com:v3/fabrikam/Web%20App/deploy')).toEqual(expected);
    expect(azureRepositoryOf('https://fabrikam.visualstudio.com/Web%20App/_git/deploy')).toMatchObject({
      project: 'Web App',
      repository: 'deploy',
    });
    expect(() => azureRepositoryOf('https://dev.azure.com/fabrikam')).toThrow(
      'gitops.repo.url: not an Azure DevOps repository URL ({organization}/{project}/_git/{repository}): https://dev.azure.com/fabrikam',
    );
  });

  it('refuses bad blocks with the field, and a patch jq cannot run with its message', async () => {
    await bareRepository('bad', { 'a.yaml': 'a: 1\n' });
    const url = path.join(dir, 'bad.git');
    const result = await runPlaybook({
      actions: [
        { name: 'no message', gitops: { repo: { url }, commit: {} } },
        { name: 'no repo', if: 'always()', gitops: { commit: { message: 'm' } } },
        {
          name: 'escape',
          if: 'always()',
          gitops: { repo: { url }, commit: { message: 'm' }, files: [{ path: '../../etc/x', content: 'x' }] },
        },
        {
          name: 'bad jq',
          if: 'always()',
          gitops: { repo: { url }, commit: { message: 'm' }, patches: [{ path: 'a.yaml', yq: '.a = (' }] },
        },
        {
          name: 'no file',
          if: 'always()',
          gitops: { repo: { url }, commit: { message: 'm' }, patches: [{ path: 'b.yaml', yq: '.a = 2' }] },
        },
      ],
    });
    expect(result.status).toBe('failed');
    const errors = result.actions.map((action) => action.error);
    expect(errors[0]).toBe('gitops.commit.message is required');
    expect(errors[1]).toBe('gitops.repo is required');
    expect(errors[2]).toBe('gitops.files[0].path must be a relative path inside the repository: ../../etc/x');
    expect(errors[3]).toMatch(/^gitops.patches\[0\]: jq: error/);
    expect(errors[4]).toBe('gitops.patches[0].path matches no file of the repository: b.yaml');
  });
});
