import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { waitFor } from './targets.js';

/** A port that was free a moment ago (bound, noted, released). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Fails (never skips) when a Debian binary a test needs is missing; `.ci/run` installs them.
 */
export async function requireBinary(binary: string, debianPackage: string): Promise<void> {
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new Error(`${binary} is missing: install it with apt-get install -y ${debianPackage}`);
  }
}

export interface Daemon {
  process: ChildProcess;
  /** What the daemon wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a server binary as the test's own child process and waits until `ready` answers true.
 * A daemon that exits early fails the start with its output.
 */
export async function startDaemon(
  binary: string,
  args: string[],
  ready: () => Promise<boolean>,
  { timeoutMs = 20_000, what = binary } = {},
): Promise<Daemon> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  child.once('error', (error) => {
    output += `\n${error.message}`;
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(killer);
    }
  };
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`${what} exited before it was ready:\n${output}`);
        try {
          return await ready();
        } catch {
          return false;
        }
      },
      { timeoutMs, intervalMs: 100, what: `${what} to be ready` },
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { process: child, output: () => output, stop };
}

/** True when GET url answers 200. */
export async function answers200(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return response.status === 200;
}
