import { describe, expect, it } from 'vitest';
import { ExpressionError } from './expression-error.js';
import { closeJavascriptSandbox, evaluateJavascript } from './javascript.js';

describe('evaluateJavascript', () => {
  it('sees the variables as globals and returns the last value as JSON', async () => {
    const variables = { code: 200, json: { items: [1, 2, 3] }, stdout: 'ok\n' };
    await expect(evaluateJavascript('code === 200 && json.items.length === 3', variables)).resolves.toBe(
      true,
    );
    await expect(
      evaluateJavascript('var total = 0; json.items.forEach(function (n) { total += n; }); total', variables),
    ).resolves.toBe(6);
    await expect(
      evaluateJavascript('({ message: stdout.trim().toUpperCase(), list: [1, "a", null] })', variables),
    ).resolves.toEqual({
      message: 'OK',
      list: [1, 'a', null],
    });
    await expect(evaluateJavascript('undefined', variables)).resolves.toBeNull();
  });

  it('exposes nothing of the host: no require, process, fetch or timers', async () => {
    await expect(
      evaluateJavascript(
        '[typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.Buffer].join(",")',
        {},
      ),
    ).resolves.toBe('undefined,undefined,undefined,undefined,undefined');
  });

  it('keeps one evaluation from seeing another', async () => {
    await evaluateJavascript('globalThis.leak = 42; 1', {});
    await expect(evaluateJavascript('typeof leak', {})).resolves.toBe('undefined');
  });

  it('stops an infinite loop at its deadline', async () => {
    const started = Date.now();
    const run = evaluateJavascript('while (true) {}', {}, { timeoutMs: 200 });
    await expect(run).rejects.toThrowError(ExpressionError);
    await expect(evaluateJavascript('for (;;) {}', {}, { timeoutMs: 200 })).rejects.toThrowError(
      /^JavaScript expression failed: the script ran longer than 200 ms and was stopped \(expression: for \(;;\) \{\}\)$/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops a memory bomb at its memory limit', async () => {
    await expect(
      evaluateJavascript(
        'var all = []; while (true) { all.push({ index: all.length, text: "item-" + all.length }); }',
        {},
        {
          timeoutMs: 10_000,
          memoryLimitBytes: 8 * 1024 * 1024,
        },
      ),
    ).rejects.toThrowError(/exceeded its 8 MiB memory limit/);
    await expect(
      evaluateJavascript('var s = "x"; while (true) { s = s + s; }', {}, { timeoutMs: 10_000 }),
    ).rejects.toThrowError(/JavaScript expression failed: .*(memory|string too long)/);
  });

  it('survives runaway recursion and keeps working afterwards', async () => {
    await expect(evaluateJavascript('function f() { return f(); } f()', {})).rejects.toThrowError(
      /stack overflow/,
    );
    await expect(
      evaluateJavascript('function f(n) { return n > 0 ? f(n - 1) + 1 : 0; } f(200)', {}),
    ).resolves.toBe(200);
  });

  it('reports thrown errors and syntax errors with the language and the script', async () => {
    await expect(evaluateJavascript('throw new Error("boom")', {})).rejects.toThrowError(
      /^JavaScript expression failed: Error: boom \(expression: throw new Error\("boom"\)\)$/,
    );
    await expect(evaluateJavascript('this is not javascript', {})).rejects.toThrowError(
      /JavaScript expression failed: SyntaxError/,
    );
    await expect(evaluateJavascript('missingVariable + 1', {})).rejects.toThrowError(/ReferenceError/);
  });

  it('runs off the event loop: the server keeps serving while a script spins', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    try {
      await expect(evaluateJavascript('while (true) {}', {}, { timeoutMs: 400 })).rejects.toThrowError(
        /ran longer than 400 ms/,
      );
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('stops the sandbox thread when one long native step overruns the deadline, then starts a fresh one', async () => {
    // JSON.stringify of a huge array is a single engine step in which the deadline is not
    // checked; the thread is stopped from outside once the grace period has passed.
    const started = Date.now();
    await expect(
      evaluateJavascript(
        'JSON.stringify(new Array(1e7).fill({ a: [1, 2, 3] })).length',
        {},
        {
          timeoutMs: 200,
          memoryLimitBytes: 768 * 1024 * 1024,
        },
      ),
    ).rejects.toThrowError(/the script ran longer than 200 ms and was stopped/);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    expect(elapsed).toBeLessThan(3_000);
    await expect(evaluateJavascript('40 + 2', {})).resolves.toBe(42);
  });

  it('queues concurrent evaluations and keeps their answers apart', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => evaluateJavascript('n * 10', { n })));
    expect(answers).toEqual([10, 20, 30, 40, 50]);
  });

  it('can be shut down and used again', async () => {
    await closeJavascriptSandbox();
    await expect(evaluateJavascript('"again"', {})).resolves.toBe('again');
  });
});
