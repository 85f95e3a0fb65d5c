import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedSearch } from './health-page';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useDebouncedSearch', () => {
  it('commits 400 ms after the last keystroke', () => {
    const commit = vi.fn();
    const { result } = renderHook(({ value }) => useDebouncedSearch(value, commit), {
      initialProps: { value: '' },
    });
    act(() => result.current[1]('a'));
    act(() => void vi.advanceTimersByTime(200));
    act(() => result.current[1]('ab'));
    act(() => void vi.advanceTimersByTime(399));
    expect(commit).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(commit).toHaveBeenCalledExactlyOnceWith('ab');
  });

  it('keeps what was typed after a commit while the URL catches up', () => {
    const commit = vi.fn();
    const { result, rerender } = renderHook(({ value }) => useDebouncedSearch(value, commit), {
      initialProps: { value: '' },
    });
    act(() => result.current[1]('abc'));
    act(() => void vi.advanceTimersByTime(400));
    expect(commit).toHaveBeenLastCalledWith('abc');
    // A slow machine: the user types on before the URL shows the commit.
    act(() => result.current[1]('abcd'));
    rerender({ value: 'abc' });
    expect(result.current[0]).toBe('abcd');
    act(() => void vi.advanceTimersByTime(400));
    expect(commit).toHaveBeenLastCalledWith('abcd');
  });

  it('takes a change of the URL from elsewhere', () => {
    const commit = vi.fn();
    const { result, rerender } = renderHook(({ value }) => useDebouncedSearch(value, commit), {
      initialProps: { value: 'old' },
    });
    act(() => result.current[1]('typed'));
    rerender({ value: 'from-back-button' });
    expect(result.current[0]).toBe('from-back-button');
  });
});
