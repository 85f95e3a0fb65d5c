import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(stderr.trim().split('\n')[0] || error.message));
        else resolve(stdout);
      },
    );
  });
}

/**
 * Lists the repository's refs with the `git` binary (`git ls-remote`) and checks that Ref
 * (default 'main') is a branch or tag of it. Basic authentication goes into an https URL; an
 * SSH key is written to a private temporary file for the run only.
 */
export const testGit: ConnectionTester = async (connection, timeoutMs) => {
  if (!connection.url) return unhealthy('the connection has no URL');
  const ref = connection.properties?.ref || 'main';
  const ssh = connection.properties?.authentication === 'SSH' && connection.certificate;
  let target = connection.url;
  if (!ssh && connection.username && /^https?:\/\//.test(target)) {
    const url = new URL(target);
    url.username = encodeURIComponent(connection.username);
    url.password = encodeURIComponent(connection.password ?? '');
    target = url.toString();
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
  };
  let keyDir: string | undefined;
  try {
    if (ssh) {
      keyDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-git-key-'));
      const keyFile = path.join(keyDir, 'key');
      await writeFile(keyFile, `${connection.certificate?.trim()}\n`, { mode: 0o600 });
      await chmod(keyFile, 0o600);
      env.GIT_SSH_COMMAND = `ssh -i ${keyFile} -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=${path.join(keyDir, 'known_hosts')}`;
    }
    const output = await run(['ls-remote', '--heads', '--tags', target], env, timeoutMs);
    const names = output
      .split('\n')
      .map((line) => line.split('\t')[1] ?? '')
      .filter((name) => name !== '');
    if (names.includes(`refs/heads/${ref}`) || names.includes(`refs/tags/${ref}`))
      return healthy(`connected: ref '${ref}' found`);
    return unhealthy(`connected, but ref '${ref}' is not a branch or tag of the repository`);
  } catch (error) {
    const text = failureText(error, connection).split(target).join(connection.url);
    return unhealthy(`could not read the repository: ${text}`);
  } finally {
    if (keyDir) await rm(keyDir, { recursive: true, force: true });
  }
};
