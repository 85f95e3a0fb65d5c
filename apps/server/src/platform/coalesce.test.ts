import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalesce.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createCoalescer', () => {
  it('gives calls that arrive during a run the next run, started after it ended', async () => {
    const coalesce = createCoalescer<number>();
    const runs: Array<ReturnType<typeof deferred<number>>> = [];
    const run = () => {
      const next = deferred<number>();
      runs.push(next);
      return next.promise;
    };
    const first = coalesce('k', run);
    const second = coalesce('k', run);
    const third = coalesce('k', run);
    expect(runs).toHaveLength(1);
    runs[0].resolve(1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(runs).toHaveLength(2);
    runs[1].resolve(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Idle again: a new call starts a run of its own.
    const fourth = coalesce('k', run);
    expect(runs).toHaveLength(3);
    runs[2].resolve(3);
    expect(await fourth).toBe(3);
  });

  it('keeps keys apart and lets a failed run fail only its own callers', async () => {
    const coalesce = createCoalescer<string>();
    const a = deferred<string>();
    const failing = coalesce('a', () => a.promise);
    const other = coalesce('b', async () => 'b');
    const queued = coalesce('a', async () => 'after');
    a.reject(new Error('boom'));
    await expect(failing).rejects.toThrow('boom');
    expect(await other).toBe('b');
    expect(await queued).toBe('after');
  });
});
