import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { JobsLogger } from '../support.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

/** A logger that keeps every line (as JSON text) so tests can search what was logged. */
export function recordingLogger(): JobsLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const method =
    (level: LogEntry['level']) =>
    (objectOrMessage: object | string, message?: string): void => {
      entries.push({ level, text: JSON.stringify([objectOrMessage, message ?? null]) });
    };
  return {
    entries,
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
}

/** Empties the tables of the jobs platform, so tests of one file can share a database. */
export async function resetJobTables(pool: pg.Pool): Promise<void> {
  await pool.query('TRUNCATE event_queue, job_history, job_schedules, job_workers');
}

/** Polls `probe` until it returns something other than undefined/false, or fails at the deadline. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 20, what = 'the condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  /** Resolves when the process printed `line` on a line of its own. */
  printed(line: string, timeoutMs?: number): Promise<void>;
}

const WORKER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-process.ts');

/** Starts test-fixtures/worker-process.ts in its own Node process (a separate replica). */
export function spawnWorkerProcess(mode: string, env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', WORKER_SCRIPT, mode], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    output: () => output,
    exited,
    printed: async (line, timeoutMs = 20_000) => {
      try {
        await waitFor(() => output.split('\n').includes(line), { timeoutMs });
      } catch {
        throw new Error(`Worker ${mode} did not print "${line}" within ${timeoutMs} ms. Output:\n${output}`);
      }
    },
  };
}
