import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openConnection } from './connections.js';
import { ActionFailure, type ActionContext } from './types.js';

/** A repository to clone: its URL and the credentials that reach it (never in argv or errors). */
export interface GitRemote {
  url: string;
  username?: string;
  password?: string;
  /** An SSH private key (the ecosystem's `certificate`) for ssh:// and scp-style URLs. */
  sshKey?: string;
}

/** ssh://… or scp-style user@host:path. */
function isSshUrl(url: string): boolean {
  return /^ssh:\/\//i.test(url) || /^[^/:@\s]+@[^/:\s]+:/.test(url);
}

/** A value given as text or as an env-var object (`{value: ...}`), as the ecosystem writes them. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') {
    const text = (value as { value: string }).value;
    return text === '' ? undefined : text;
  }
  return undefined;
}

/**
 * The remote of a `checkout` or a gitops `repo` block: `url` with `username`/`password`, or a
 * `connection` (its url and credentials; explicit fields win). `field` names the block in errors.
 */
export async function gitRemoteOf(
  block: Record<string, unknown>,
  context: ActionContext,
  field: string,
): Promise<GitRemote> {
  const connection = await openConnection(block, context);
  const url = textOf(block.url) ?? connection?.url;
  if (!url) throw new ActionFailure(`${field}.url or ${field}.connection is required`);
  // A connection's certificate is its SSH key when its URL is an SSH one.
  const sshKey = textOf(block.certificate) ?? (isSshUrl(url) ? connection?.certificate : undefined);
  if (sshKey !== undefined && !isSshUrl(url))
    throw new ActionFailure(
      `${field}.certificate is an SSH key: it needs an ssh:// or user@host:path URL, not ${displayUrl(url)}`,
    );
  return {
    url,
    username: textOf(block.username) ?? connection?.username,
    password: textOf(block.password) ?? textOf(block.accessToken) ?? connection?.password,
    ...(sshKey !== undefined ? { sshKey } : {}),
  };
}

/** The URL without its user info (what results and errors may show). */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}

/** Authentication as git config in the environment, so neither argv nor .git/config holds it. */
function authEnv(remote: GitRemote): Record<string, string> {
  let { username, password } = remote;
  try {
    const parsed = new URL(remote.url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      username ??= parsed.username ? decodeURIComponent(parsed.username) : undefined;
      password ??= parsed.password ? decodeURIComponent(parsed.password) : undefined;
    }
  } catch {
    // A path or scp-style address: no user info to read.
  }
  if (!username && !password) return {};
  const basic = Buffer.from(`${username ?? 'git'}:${password ?? ''}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/** Removes secrets (and user info of URLs) from git's output before it becomes an error. */
function redact(text: string, remote?: GitRemote): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
  for (const secret of [
    remote?.password,
    remote?.username && remote.password ? remote.username : undefined,
  ]) {
    if (secret && secret.length >= 3) out = out.split(secret).join('***');
  }
  return out.trim();
}

export interface GitRunOptions {
  cwd: string;
  signal: AbortSignal;
  remote?: GitRemote;
  /** Error prefix: the action type (`gitops`, `exec`). */
  what: string;
}

/**
 * Runs `git args...` with no prompt and no user or system config; fails with git's own message.
 * A remote with an SSH key reaches its host with that key only (a file of its own, mode 0600,
 * removed afterwards), no agent, no prompt; the host key is not checked (no known_hosts is kept).
 */
export async function runGit(args: string[], options: GitRunOptions): Promise<string> {
  const key = options.remote?.sshKey;
  if (key === undefined) return runGitWith(args, options, {});
  const keyDir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-ssh-'));
  try {
    const keyFile = path.join(keyDir, 'id');
    await writeFile(keyFile, key.endsWith('\n') ? key : `${key}\n`, { mode: 0o600 });
    const quoted = keyFile.replace(/'/g, `'\\''`);
    return await runGitWith(args, options, {
      GIT_SSH_COMMAND: `ssh -F /dev/null -i '${quoted}' -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR`,
    });
  } finally {
    await rm(keyDir, { recursive: true, force: true });
  }
}

function runGitWith(
  args: string[],
  options: GitRunOptions,
  extraEnv: Record<string, string>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new ActionFailure(`${options.what}: ${String(options.signal.reason ?? 'cancelled')}`));
      return;
    }
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: options.cwd,
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_ASKPASS: 'true',
        LANG: 'C',
        ...(options.remote ? authEnv(options.remote) : {}),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const onAbort = () => child.kill('SIGKILL');
    options.signal.addEventListener('abort', onAbort);
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new ActionFailure(`${options.what}: git: ${error.message}`));
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) {
        reject(new ActionFailure(`${options.what}: ${String(options.signal.reason ?? 'cancelled')}`));
      } else if (code !== 0) {
        const message = redact(
          Buffer.concat(err).toString('utf8') || Buffer.concat(out).toString('utf8'),
          options.remote,
        );
        reject(new ActionFailure(`${options.what}: git ${args[0]} failed: ${message || `exit ${code}`}`));
      } else resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}

/** Clones `remote` (a branch of it, when given) into `dir`; answers the checked-out commit. */
export async function cloneInto(
  remote: GitRemote,
  dir: string,
  branch: string | undefined,
  options: Omit<GitRunOptions, 'cwd' | 'remote'> & { cwd: string },
): Promise<string> {
  await runGit(['clone', '--quiet', ...(branch ? ['--branch', branch] : []), '--', remote.url, dir], {
    ...options,
    remote,
  });
  return (await runGit(['rev-parse', 'HEAD'], { ...options, cwd: dir })).trim();
}

/** A relative path inside `root` (no absolute paths, no `..` out of it), or an error naming `field`. */
export function insideRoot(root: string, relative: string, field: string): string {
  const resolved = path.resolve(root, relative);
  if (path.isAbsolute(relative) || (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)))
    throw new ActionFailure(`${field} must be a relative path inside the repository: ${relative}`);
  return resolved;
}
