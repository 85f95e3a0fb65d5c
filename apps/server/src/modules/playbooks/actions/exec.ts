import { spawn } from 'node:child_process';
import type { PlaybookExecCheckoutResult } from '@opsdeck/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cloneInto, displayUrl, gitRemoteOf, insideRoot, textOf } from './git.js';
import { ActionFailure, type ActionArtifact, type ActionContext, type PlaybookActionType } from './types.js';

/** Output kept per stream in the result; the whole stream is kept as an artifact. */
const RESULT_OUTPUT_LIMIT = 64 * 1024;
/** A stream longer than this is cut (the artifact says so). */
const STREAM_LIMIT = 8 * 1024 * 1024;

function envOf(spec: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {};
  const list = spec.env;
  if (Array.isArray(list)) {
    for (const entry of list) {
      if (entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string') {
        const { name, value } = entry as { name: string; value?: unknown };
        env[name] = value === undefined || value === null ? '' : String(value);
      }
    }
  }
  return env;
}

interface Checkout {
  dir: string;
  result: PlaybookExecCheckoutResult;
}

/**
 * `checkout` (the ecosystem's git connection: `url` or `connection`, `username`, `password`,
 * `branch`, `destination`): cloned into the working directory (or `destination` below it)
 * before the script runs there.
 */
async function checkoutOf(
  spec: Record<string, unknown>,
  workDir: string,
  context: ActionContext,
): Promise<Checkout | undefined> {
  const block = spec.checkout;
  if (block === undefined || block === null) return undefined;
  if (typeof block !== 'object' || Array.isArray(block))
    throw new ActionFailure('exec.checkout must be a mapping with url or connection');
  const checkout = block as Record<string, unknown>;
  const remote = await gitRemoteOf(checkout, context, 'exec.checkout');
  const destination = textOf(checkout.destination) ?? '';
  const dir = insideRoot(workDir, destination, 'exec.checkout.destination');
  const branch = textOf(checkout.branch);
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(context.timeoutMs)]);
  const commit = await cloneInto(remote, dir, branch, { cwd: workDir, signal, what: 'exec: checkout' });
  return {
    dir,
    result: { url: displayUrl(remote.url), branch: branch ?? null, commit, destination: destination || '.' },
  };
}

/**
 * `exec`: a bash script in its own temporary working directory (the `checkout` when given), with the playbook's and the
 * action's env, killed (its whole process group) on timeout or cancel. stdout and stderr are
 * kept as artifacts; a non-zero exit fails the action.
 */
export const execAction: PlaybookActionType = {
  type: 'exec',
  async run(spec, context) {
    const script = spec.script;
    if (typeof script !== 'string' || script.trim() === '')
      throw new ActionFailure('exec: script is required');
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-exec-'));
    try {
      const checkout = await checkoutOf(spec, workDir, context);
      const child = spawn('bash', ['-c', script], {
        cwd: checkout?.dir ?? workDir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, ...context.env, ...envOf(spec) },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let stdoutSize = 0;
      let stderrSize = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        if (stdoutSize < STREAM_LIMIT) stdout.push(chunk);
        stdoutSize += chunk.length;
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderrSize < STREAM_LIMIT) stderr.push(chunk);
        stderrSize += chunk.length;
      });
      let stopReason: string | undefined;
      const kill = (reason: string) => {
        stopReason ??= reason;
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => kill(`timed out after ${context.timeoutMs} ms`), context.timeoutMs);
      const onAbort = () => kill(String(context.signal.reason ?? 'cancelled'));
      if (context.signal.aborted) onAbort();
      context.signal.addEventListener('abort', onAbort);
      const exitCode = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => resolve(code));
      }).finally(() => {
        clearTimeout(timer);
        context.signal.removeEventListener('abort', onAbort);
      });
      const out = Buffer.concat(stdout);
      const err = Buffer.concat(stderr);
      const artifacts: ActionArtifact[] = [
        { filename: 'stdout', contentType: 'text/plain', content: out },
        { filename: 'stderr', contentType: 'text/plain', content: err },
      ];
      const result = {
        stdout: out.subarray(0, RESULT_OUTPUT_LIMIT).toString('utf8'),
        stderr: err.subarray(0, RESULT_OUTPUT_LIMIT).toString('utf8'),
        exitCode,
        ...(checkout ? { checkout: checkout.result } : {}),
      };
      if (stopReason) throw new ActionFailure(`exec: ${stopReason}`, { result, artifacts });
      if (exitCode !== 0)
        throw new ActionFailure(`exec: exited with code ${exitCode}`, { result, artifacts });
      return { result, artifacts };
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  },
};
