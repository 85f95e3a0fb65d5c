import { describe, expect, it } from 'vitest';
import { isFileOwned, resourceListSearch } from './resource-api';

const query = { columns: ['id', 'name', 'updated_at'], sortable: ['name'], defaultOrder: 'name.asc,id.asc' };

describe('resourceListSearch', () => {
  it('reads live rows of one page in the default order', () => {
    const search = resourceListSearch(query, { pageIndex: 2, pageSize: 50, sortOrder: 'asc' });
    expect(Object.fromEntries(search)).toEqual({
      select: 'id,name,updated_at',
      deleted_at: 'is.null',
      order: 'name.asc,id.asc',
      limit: '50',
      offset: '100',
    });
  });

  it('sorts by a known column with nulls last and id as tie-breaker, and ignores unknown ones', () => {
    expect(
      resourceListSearch(query, { pageIndex: 0, pageSize: 5, sortBy: 'name', sortOrder: 'desc' }).get(
        'order',
      ),
    ).toBe('name.desc.nullslast,id.asc');
    expect(
      resourceListSearch(query, { pageIndex: 0, pageSize: 5, sortBy: 'password', sortOrder: 'desc' }).get(
        'order',
      ),
    ).toBe('name.asc,id.asc');
  });

  it('caps the page size where the list says so', () => {
    const search = resourceListSearch(
      { ...query, maxPageSize: 100 },
      { pageIndex: 1, pageSize: 500, sortOrder: 'asc' },
    );
    expect(search.get('limit')).toBe('100');
    expect(search.get('offset')).toBe('500');
  });
});

describe('isFileOwned', () => {
  it('is true for rows from a file or apply, false for UI and demo rows', () => {
    expect(isFileOwned('file:/etc/opsdeck/canary.yaml')).toBe(true);
    expect(isFileOwned('UI')).toBe(false);
    expect(isFileOwned('demo/canaries')).toBe(false);
    expect(isFileOwned(null)).toBe(false);
  });
});
