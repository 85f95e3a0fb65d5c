import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/platform/config.js';

const ENTRY = path.join(PROJECT_ROOT, 'apps/server/src/cli/entry.ts');

export interface OpsdeckProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process ended. */
  exited: Promise<number | string>;
  /** Resolves when the output matches, rejects on exit or after the timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/**
 * Runs the `opsdeck` command from source (through tsx), as a separate OS process. `nodeArgs` go
 * to Node before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not take).
 */
export function runOpsdeck(
  args: string[],
  env: Record<string, string | undefined>,
  options: { nodeArgs?: string[] } = {},
): OpsdeckProcess {
  const nodeArgs = [...(options.nodeArgs ?? []), '--conditions=source', '--import', 'tsx'];
  const child = spawn(process.execPath, [...nodeArgs, ENTRY, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve(code ?? signal ?? -1);
      for (const listener of listeners) listener();
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    output: () => output,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`Timed out waiting for ${pattern}. Output:\n${output}`));
        }, timeoutMs);
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve(match);
          } else if (ended) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(new Error(`The process exited before printing ${pattern}. Output:\n${output}`));
          }
        };
        listeners.add(check);
        check();
      }),
  };
}
