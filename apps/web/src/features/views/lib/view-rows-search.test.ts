import { describe, expect, it } from 'vitest';
import { viewRowsSearch } from './view-rows-search';

const page = {
  table: 'view_demo_estate',
  fingerprint: 'abc',
  columns: ['name', 'health', 'updated'],
  pageIndex: 2,
  pageSize: 50,
  sortOrder: 'asc' as const,
  filters: {},
};

describe('viewRowsSearch', () => {
  it('reads one fingerprint, 50 a page, descending with nulls last by default (core §7)', () => {
    const search = viewRowsSearch(page);
    expect(search.get('request_fingerprint')).toBe('eq.abc');
    expect(search.get('select')).toBe('name,health,updated');
    expect(search.get('limit')).toBe('50');
    expect(search.get('offset')).toBe('100');
    expect(search.get('order')).toBe('name.desc.nullslast');
  });

  it('sorts by a chosen column and ignores unknown ones', () => {
    expect(viewRowsSearch({ ...page, sortBy: 'updated' }).get('order')).toBe('updated.asc.nullslast');
    expect(viewRowsSearch({ ...page, sortBy: 'nope' }).get('order')).toBe('name.desc.nullslast');
  });

  it('filters columns with quoted in-lists', () => {
    const search = viewRowsSearch({ ...page, filters: { health: ['un"healthy', 'a,b'], nope: ['x'] } });
    expect(search.get('health')).toBe('in.("un\\"healthy","a,b")');
    expect(search.has('nope')).toBe(false);
  });
});
