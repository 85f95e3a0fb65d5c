import { onlineManager } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';
import { OFFLINE_MESSAGE } from './request-errors';

afterEach(() => {
  onlineManager.setOnline(true);
  vi.restoreAllMocks();
});

/** Rejects when the promise has not settled in time: a paused request never settles. */
function within<T>(promise: Promise<T>, milliseconds = 1000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('still pending (paused)')), milliseconds),
    ),
  ]);
}

describe('createQueryClient offline', () => {
  it("fails a mutation made offline at once with 'No internet connection. Please try again.'", async () => {
    onlineManager.setOnline(false);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient(vi.fn());
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(within(mutation.execute(undefined))).rejects.toThrow('Failed to fetch');
    expect(error).toHaveBeenCalledWith(OFFLINE_MESSAGE, expect.objectContaining({ id: OFFLINE_MESSAGE }));
  });

  it('fails a query made offline instead of pausing it', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient(vi.fn());
    await expect(
      within(
        client.fetchQuery({
          queryKey: ['offline'],
          queryFn: () => Promise.reject(new TypeError('Failed to fetch')),
          retry: false,
        }),
      ),
    ).rejects.toThrow('Failed to fetch');
  });
});
