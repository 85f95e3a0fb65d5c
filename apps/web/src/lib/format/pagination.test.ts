import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, pageCount, SIMPLE_PAGE_SIZE_OPTIONS } from './pagination';

describe('pageCount', () => {
  it('is ceil(total / pageSize)', () => {
    expect(pageCount(100, 50)).toBe(2);
    expect(pageCount(101, 50)).toBe(3);
    expect(pageCount(1, 50)).toBe(1);
  });

  it('is 1 when there are no rows', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(undefined, 50)).toBe(1);
    expect(pageCount(null, 10)).toBe(1);
  });
});

describe('page sizes', () => {
  it('offers the table and simple-table page sizes with default 50', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000]);
    expect(SIMPLE_PAGE_SIZE_OPTIONS).toEqual([50, 100, 200]);
    expect(DEFAULT_PAGE_SIZE).toBe(50);
  });
});
