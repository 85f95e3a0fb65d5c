import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type RunCheckOptions } from './run-check.js';

const options: RunCheckOptions = {
  canary: { name: 'local', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  resolveValueFrom: async (reference) =>
    reference.secretKeyRef?.key === 'token' ? 'from-secret' : undefined,
  timeoutMs: 5_000,
};

/** Command lines of running processes that contain the text (Linux /proc). */
async function processesWith(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ').trim();
      if (commandLine.includes(text)) found.push(commandLine);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describe('exec check', () => {
  it('passes on exit code 0 and exposes stdout, stderr and exitCode to expressions', async () => {
    const run = await runCheck(
      'exec',
      {
        name: 'script',
        script: 'echo "hello $GREETING"; echo "warning" >&2; exit 0',
        env: [{ name: 'GREETING', value: 'world' }],
        test: {
          expr: "stdout == 'hello world' && stderr == 'warning' && exitCode == 0 && results.exitCode == 0",
        },
        display: { template: '{{ .stdout }} ({{ .results.exitCode }})' },
      },
      options,
    );
    expect(run.result).toMatchObject({ pass: true, message: 'hello world (0)', error: '' });
    expect(run.result.detail).toMatchObject({ stdout: 'hello world', stderr: 'warning', exitCode: 0 });
  });

  it('fails on a non-zero exit with stderr, or the exit code when stderr is empty', async () => {
    const withStderr = await runCheck(
      'exec',
      { name: 'fail', script: 'echo "disk full" >&2; exit 3' },
      options,
    );
    expect(withStderr.result).toMatchObject({ pass: false, error: 'disk full' });
    expect(withStderr.result.data).toMatchObject({ exitCode: 3 });
    const silent = await runCheck('exec', { name: 'fail', script: 'exit 7' }, options);
    expect(silent.result).toMatchObject({ pass: false, error: 'exit code 7' });
  });

  it('runs in a directory of its own with only the environment it was given', async () => {
    process.env.OPSDECK_SECRET_FOR_TEST = 'must-not-leak';
    try {
      const run = await runCheck(
        'exec',
        {
          name: 'env',
          script:
            'pwd; echo "secret=[$OPSDECK_SECRET_FOR_TEST] token=[$TOKEN]"; env | cut -d= -f1 | sort | tr "\\n" " "',
          env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } }],
        },
        options,
      );
      expect(run.result.pass).toBe(true);
      const [cwd, secrets, names] = String(run.result.data.stdout).split('\n');
      expect(cwd).toMatch(new RegExp(`^${tmpdir().replace(/[/\\^$.*+?()[\]{}|]/g, '\\$&')}/opsdeck-exec-`));
      expect(secrets).toBe('secret=[] token=[from-secret]');
      expect(
        names
          .trim()
          .split(' ')
          .filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name)),
      ).toEqual(['HOME', 'PATH', 'TMPDIR', 'TOKEN']);
    } finally {
      delete process.env.OPSDECK_SECRET_FOR_TEST;
    }
  });

  it('kills a script that outlives its budget, children included', async () => {
    // A unique sleep length marks this test's processes in /proc.
    const token = `31.${process.pid}${Date.now() % 1000}`;
    const started = Date.now();
    const run = await runCheck(
      'exec',
      { name: 'slow', script: `sleep ${token} & sleep ${token}; echo done` },
      { ...options, timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/timed out after 300ms|stopped after 300ms/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await processesWith(`sleep ${token}`)).toEqual([]);
  });

  it('fails a script whose test rejects its output', async () => {
    const run = await runCheck(
      'exec',
      { name: 'count', script: 'echo 3', test: { javascript: 'Number(stdout) > 5' } },
      options,
    );
    expect(run.result).toMatchObject({ pass: false, error: 'test expression returned false' });
  });
});

describe('folder check', () => {
  let root = '';
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'opsdeck-folder-'));
    const files: Array<[string, string, number]> = [
      ['backup-1.tar', 'x'.repeat(2048), 30],
      ['backup-2.tar', 'x'.repeat(4096), 2],
      ['notes.txt', 'hello', 1],
    ];
    for (const [name, content, age] of files) {
      await writeFile(path.join(root, name), content);
      await utimes(path.join(root, name), hoursAgo(age), hoursAgo(age));
    }
    await mkdir(path.join(root, 'nested'));
    await writeFile(path.join(root, 'nested', 'backup-3.tar'), 'x'.repeat(100));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('counts files and exposes them to expressions', async () => {
    const run = await runCheck(
      'folder',
      {
        name: 'all',
        path: root,
        minCount: 3,
        maxCount: 3,
        test: { expr: "results.files.exists(f, f.name == 'notes.txt')" },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true });
    expect(run.result.data.results).toMatchObject({
      count: 3,
      newest: { name: 'notes.txt' },
      oldest: { name: 'backup-1.tar' },
    });
    const recursive = await runCheck(
      'folder',
      { name: 'deep', path: root, recursive: true, minCount: 4 },
      options,
    );
    expect(recursive.result.pass).toBe(true);
  });

  it('fails on too few or too many files', async () => {
    const few = await runCheck('folder', { name: 'few', path: root, minCount: 5 }, options);
    expect(few.result).toMatchObject({ pass: false, error: 'too few files 3 < 5' });
    const many = await runCheck('folder', { name: 'many', path: root, maxCount: 1 }, options);
    expect(many.result).toMatchObject({ pass: false, error: 'too many files 3 > 1' });
  });

  it('applies the filter by regex, age and size', async () => {
    const backups = await runCheck(
      'folder',
      { name: 'backups', path: root, filter: { regex: '^backup-.*\\.tar$' }, minCount: 2, maxCount: 2 },
      options,
    );
    expect(backups.result.pass).toBe(true);
    const recent = await runCheck(
      'folder',
      { name: 'recent', path: root, filter: { regex: '\\.tar$', maxAge: '12h' }, maxCount: 1 },
      options,
    );
    expect(recent.result.pass).toBe(true);
    const large = await runCheck(
      'folder',
      { name: 'large', path: root, filter: { minSize: '3KB' }, minCount: 1, maxCount: 1 },
      options,
    );
    expect(large.result.pass).toBe(true);
  });

  it('checks the age of the newest and oldest files', async () => {
    const fresh = await runCheck(
      'folder',
      { name: 'fresh', path: root, filter: { regex: '\\.tar$' }, maxAge: '1d' },
      options,
    );
    expect(fresh.result.pass).toBe(false);
    expect(fresh.result.error).toBe('backup-1.tar is too old: 1d6h > 1d');
    const settled = await runCheck('folder', { name: 'settled', path: root, minAge: '2h' }, options);
    expect(settled.result.pass).toBe(false);
    expect(settled.result.error).toMatch(/^notes\.txt is too new: /);
    const ok = await runCheck('folder', { name: 'ok', path: root, maxAge: '2d', minAge: '30m' }, options);
    expect(ok.result.pass).toBe(true);
  });

  it('checks file sizes and free space', async () => {
    const small = await runCheck('folder', { name: 'small', path: root, minSize: '1KB' }, options);
    expect(small.result).toMatchObject({ pass: false, error: 'notes.txt is too small: 5B < 1KB' });
    const big = await runCheck('folder', { name: 'big', path: root, maxSize: '3KB' }, options);
    expect(big.result).toMatchObject({ pass: false, error: 'backup-2.tar is too large: 4.0KiB > 3KB' });
    const space = await runCheck(
      'folder',
      { name: 'space', path: root, availableSize: '1KB', totalSize: '1MB' },
      options,
    );
    expect(space.result.pass).toBe(true);
    const impossible = await runCheck(
      'folder',
      { name: 'space', path: root, availableSize: '1000PB' },
      options,
    );
    expect(impossible.result.pass).toBe(false);
    expect(impossible.result.error).toMatch(/^available size too small: /);
  });

  it('treats a missing folder as empty, honouring markFailOnEmpty and minCount', async () => {
    const missing = path.join(root, 'does-not-exist');
    expect((await runCheck('folder', { name: 'm', path: missing }, options)).result.pass).toBe(true);
    const marked = await runCheck('folder', { name: 'm', path: missing, markFailOnEmpty: true }, options);
    expect(marked.result).toMatchObject({ pass: false, error: 'check returned an empty result' });
    const counted = await runCheck('folder', { name: 'm', path: missing, minCount: 1 }, options);
    expect(counted.result).toMatchObject({ pass: false, error: 'too few files 0 < 1' });
  });

  it('reports remote paths and bad filters as invalid specs', async () => {
    const s3 = await runCheck('folder', { name: 's3', path: 's3://bucket/backups' }, options);
    expect(s3.result).toMatchObject({
      invalid: true,
      error: 'folder checks on s3:// paths are not supported yet',
    });
    // A remote connection means the path is on that remote: never scan the local folder instead.
    const smb = await runCheck(
      'folder',
      { name: 'smb', path: root, smbConnection: { server: '127.0.0.1', username: 'backup' } },
      options,
    );
    expect(smb.result).toMatchObject({
      invalid: true,
      error: 'folder checks over SMB are not supported yet',
    });
    const regex = await runCheck('folder', { name: 'bad', path: root, filter: { regex: '(' } }, options);
    expect(regex.result.invalid).toBe(true);
    expect(regex.result.error).toMatch(/invalid filter regex/);
  });
});
