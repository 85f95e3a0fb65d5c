import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useFilterParam } from './filter-params';
import { useSearchParam, yesNoParam, enumParam } from './search-param';
import { usePaginationParams, useSortParams } from './table-params';
import { readTimeRange, useTimeRangeParams, writeTimeRange } from './time-range-params';

function wrapperAt(url: string) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  };
}

function withLocation<T>(hook: () => T) {
  return () => ({ value: hook(), search: new URLSearchParams(useLocation().search) });
}

describe('usePaginationParams', () => {
  it('defaults to pageIndex 0 and pageSize 50', () => {
    const { result } = renderHook(
      withLocation(() => usePaginationParams()),
      { wrapper: wrapperAt('/') },
    );
    expect(result.current.value.pageIndex).toBe(0);
    expect(result.current.value.pageSize).toBe(50);
  });

  it('reads the URL and ignores invalid numbers', () => {
    const { result } = renderHook(
      withLocation(() => usePaginationParams()),
      {
        wrapper: wrapperAt('/?pageIndex=3&pageSize=100'),
      },
    );
    expect(result.current.value).toMatchObject({ pageIndex: 3, pageSize: 100 });
    const invalid = renderHook(() => usePaginationParams(), {
      wrapper: wrapperAt('/?pageIndex=-2&pageSize=abc'),
    });
    expect(invalid.result.current).toMatchObject({ pageIndex: 0, pageSize: 50 });
  });

  it('writes the page and resets it when the page size changes', () => {
    const { result } = renderHook(
      withLocation(() => usePaginationParams()),
      { wrapper: wrapperAt('/?q=x') },
    );
    act(() => result.current.value.setPageIndex(4));
    expect(result.current.search.get('pageIndex')).toBe('4');
    act(() => result.current.value.setPageSize(200));
    expect(result.current.search.get('pageSize')).toBe('200');
    expect(result.current.search.has('pageIndex')).toBe(false);
    expect(result.current.search.get('q')).toBe('x');
  });
});

describe('useSortParams', () => {
  it('reads sortBy and sortOrder asc|desc, with defaults', () => {
    const { result } = renderHook(() => useSortParams({ sortBy: 'name' }), {
      wrapper: wrapperAt('/?sortOrder=sideways'),
    });
    expect(result.current).toMatchObject({ sortBy: 'name', sortOrder: 'asc' });
  });

  it('writes and clears sorting, returning to the first page', () => {
    const { result } = renderHook(
      withLocation(() => useSortParams()),
      { wrapper: wrapperAt('/?pageIndex=2') },
    );
    act(() => result.current.value.setSort('created_at', 'desc'));
    expect(result.current.value).toMatchObject({ sortBy: 'created_at', sortOrder: 'desc' });
    expect(result.current.search.has('pageIndex')).toBe(false);
    act(() => result.current.value.setSort(undefined));
    expect(result.current.search.has('sortBy')).toBe(false);
    expect(result.current.search.has('sortOrder')).toBe(false);
  });
});

describe('time range params', () => {
  it('reads each range type', () => {
    expect(readTimeRange(new URLSearchParams('rangeType=relative&range=1h&display=Last+1+hour'))).toEqual({
      type: 'relative',
      range: '1h',
      display: 'Last 1 hour',
    });
    expect(
      readTimeRange(new URLSearchParams('rangeType=mapped&from=now-1d/d&to=now-1d/d&display=Yesterday')),
    ).toEqual({
      type: 'mapped',
      from: 'now-1d/d',
      to: 'now-1d/d',
      display: 'Yesterday',
    });
    expect(
      readTimeRange(new URLSearchParams('rangeType=absolute&from=2026-01-01T00:00:00Z')),
    ).toBeUndefined();
    expect(readTimeRange(new URLSearchParams('rangeType=weird&range=1h'))).toBeUndefined();
  });

  it('writes only the fields of the type', () => {
    const params = new URLSearchParams('from=old&timeRange=1h&keep=1');
    writeTimeRange(params, { type: 'relative', range: '15m', display: 'Last 15 minutes' });
    expect(params.toString()).toBe('keep=1&rangeType=relative&display=Last+15+minutes&range=15m');
  });

  it('sets and clears the range in the URL', () => {
    const { result } = renderHook(
      withLocation(() => useTimeRangeParams()),
      {
        wrapper: wrapperAt('/?timeRange=1h&pageIndex=3&other=1'),
      },
    );
    act(() =>
      result.current.value.setTimeRange({
        type: 'absolute',
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-01-02T00:00:00.000Z',
      }),
    );
    expect(result.current.value.timeRange).toEqual({
      type: 'absolute',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
      display: undefined,
    });
    expect(result.current.search.has('pageIndex')).toBe(false);
    act(() => result.current.value.clearTimeRange());
    expect(result.current.value.timeRange).toBeUndefined();
    expect([...result.current.search.keys()]).toEqual(['other']);
  });
});

describe('useFilterParam', () => {
  it('keeps one <filter>.filter parameter per filter', () => {
    const { result } = renderHook(
      withLocation(() => ({ type: useFilterParam('type'), health: useFilterParam('health') })),
      {
        wrapper: wrapperAt('/?health.filter=unhealthy:1'),
      },
    );
    expect(result.current.value.health.stateOf('unhealthy')).toBe(1);
    act(() => result.current.value.type.setState('Kubernetes::Pod', 1));
    act(() => result.current.value.type.setState('AWS::EC2', -1));
    expect(result.current.search.get('type.filter')).toBe('Kubernetes________Pod:1,AWS________EC2:-1');
    expect(result.current.value.type.states).toEqual({ 'Kubernetes::Pod': 1, 'AWS::EC2': -1 });
    act(() => result.current.value.type.setState('Kubernetes::Pod', 0));
    expect(result.current.search.get('type.filter')).toBe('AWS________EC2:-1');
    act(() => result.current.value.type.clear());
    expect(result.current.search.has('type.filter')).toBe(false);
    expect(result.current.search.get('health.filter')).toBe('unhealthy:1');
  });
});

describe('useSearchParam', () => {
  it('parses typed values with a default and removes the default from the URL', () => {
    const { result } = renderHook(
      withLocation(() => ({
        flag: useSearchParam('showHiddenComponents', yesNoParam, true),
        layout: useSearchParam('layout', enumParam(['table', 'card'] as const), 'table'),
      })),
      { wrapper: wrapperAt('/?layout=grid') },
    );
    expect(result.current.value.flag[0]).toBe(true);
    expect(result.current.value.layout[0]).toBe('table');
    act(() => result.current.value.flag[1](false));
    expect(result.current.search.get('showHiddenComponents')).toBe('no');
    expect(result.current.value.flag[0]).toBe(false);
    act(() => result.current.value.flag[1](true));
    expect(result.current.search.has('showHiddenComponents')).toBe(false);
  });
});
