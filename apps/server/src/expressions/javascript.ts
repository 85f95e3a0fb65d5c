import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ExpressionError } from './expression-error.js';
import { JAVASCRIPT_WORKER_SOURCE } from './javascript-worker-source.js';
import { toJsonValue, type JsonValue } from './values.js';

/** Limits for one JavaScript evaluation. */
export interface JavascriptLimits {
  /** Wall-clock budget for the script, in milliseconds. Default 2000. */
  timeoutMs?: number;
  /** Heap the script may allocate inside the sandbox, in bytes. Default 32 MiB. */
  memoryLimitBytes?: number;
}

export const DEFAULT_JAVASCRIPT_TIMEOUT_MS = 2_000;
export const DEFAULT_JAVASCRIPT_MEMORY_BYTES = 32 * 1024 * 1024;
// Deep recursion must hit QuickJS's own limit before it exhausts the thread's native stack, which
// the WebAssembly frames share; 256 KiB leaves room for ordinary recursive helpers.
const MAX_STACK_BYTES = 256 * 1024;
// The engine checks its deadline between instructions; a single long native step (a garbage
// collection near the memory limit) can overrun it, so the thread itself is stopped after this.
const HARD_STOP_GRACE_MS = 1_000;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; reason: string };

interface PendingRequest {
  id: number;
  message: Record<string, unknown>;
  timeoutMs: number;
  resolve: (reply: WorkerReply) => void;
}

/**
 * QuickJS runs in a worker thread, so a script never blocks the server's event loop, and a
 * script that outlives its deadline is stopped by terminating the thread. Requests run one at a
 * time; a script's deadline starts when it is handed to the thread.
 */
class JavascriptSandbox {
  private worker: Worker | undefined;
  private readonly queue: PendingRequest[] = [];
  private current: { request: PendingRequest; timer: NodeJS.Timeout; worker: Worker } | undefined;
  private nextId = 1;

  run(message: Record<string, unknown>, timeoutMs: number): Promise<WorkerReply> {
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, message, timeoutMs, resolve });
      this.pump();
    });
  }

  close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const request of this.queue.splice(0))
      request.resolve({ id: request.id, ok: false, reason: 'the JavaScript sandbox was shut down' });
    if (this.current) this.fail('the JavaScript sandbox was shut down');
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private start(): Worker {
    const modulePath = createRequire(import.meta.url).resolve('quickjs-emscripten');
    const worker = new Worker(JAVASCRIPT_WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      stdout: false,
      stderr: false,
    });
    // The sandbox must never keep the server alive on its own.
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (this.current?.worker !== worker || this.current.request.id !== reply.id) return;
      this.finish(reply);
    });
    // Only the request that was running on this thread fails with it; a thread stopped on
    // purpose may report its exit after the next request has gone to a new thread.
    worker.on('error', (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      if (this.current?.worker === worker) this.fail(`sandbox failure: ${error.message}`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      if (this.current?.worker === worker) this.fail('sandbox failure: the sandbox thread stopped');
    });
    return worker;
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    const request = this.queue.shift() as PendingRequest;
    this.worker ??= this.start();
    const worker = this.worker;
    const timer = setTimeout(() => {
      // The deadline inside the engine was not honoured: stop the thread outright.
      if (this.worker === worker) this.worker = undefined;
      this.finish({ id: request.id, ok: false, reason: 'interrupted' });
      void worker.terminate();
    }, request.timeoutMs + HARD_STOP_GRACE_MS);
    timer.unref();
    this.current = { request, timer, worker };
    worker.postMessage({ ...request.message, id: request.id, timeoutMs: request.timeoutMs });
  }

  private finish(reply: WorkerReply): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    current.request.resolve(reply);
    this.pump();
  }

  private fail(reason: string): void {
    if (this.current) this.finish({ id: this.current.request.id, ok: false, reason });
  }
}

const sandbox = new JavascriptSandbox();

/** Stops the sandbox thread (graceful shutdown); the next evaluation starts a new one. */
export function closeJavascriptSandbox(): Promise<void> {
  return sandbox.close();
}

function explain(reason: string, timeoutMs: number, memoryLimit: number): string {
  if (reason === 'interrupted') return `the script ran longer than ${timeoutMs} ms and was stopped`;
  if (reason.includes('out of memory'))
    return `the script exceeded its ${Math.round(memoryLimit / (1024 * 1024))} MiB memory limit`;
  return reason;
}

/**
 * Runs a script in a QuickJS WebAssembly sandbox: no host objects, no I/O, no timers; the
 * variables are copied in as JSON globals and the value of the last statement is copied out.
 */
export async function evaluateJavascript(
  script: string,
  variables: Record<string, unknown>,
  limits: JavascriptLimits = {},
): Promise<JsonValue> {
  if (script.trim() === '') throw new ExpressionError('javascript', script, 'the script is empty');
  const timeoutMs = Math.max(1, limits.timeoutMs ?? DEFAULT_JAVASCRIPT_TIMEOUT_MS);
  const memoryLimitBytes = limits.memoryLimitBytes ?? DEFAULT_JAVASCRIPT_MEMORY_BYTES;
  const json = JSON.stringify(toJsonValue(variables));
  const names = Object.keys(variables).filter(
    (name) => IDENTIFIER.test(name) && variables[name] !== undefined,
  );
  const reply = await sandbox.run(
    { script, json, names, memoryLimitBytes, stackBytes: MAX_STACK_BYTES },
    timeoutMs,
  );
  if (!reply.ok)
    throw new ExpressionError('javascript', script, explain(reply.reason, timeoutMs, memoryLimitBytes));
  return toJsonValue(reply.value);
}
