import { describe, expect, it } from 'vitest';
import {
  catalogSummaryBody,
  configChangesSearch,
  configListSearch,
  keyValueFilterParams,
  keyValueOptions,
  relatedConfigsSearch,
  searchClause,
  totalFromContentRange,
  typeLabel,
  type ConfigListFilters,
} from './catalog-query';

const none: ConfigListFilters = { health: {}, status: {}, tags: {}, labels: {}, showDeleted: false };
const firstPage = { pageIndex: 0, pageSize: 50, sortOrder: 'asc' as const };

describe('configListSearch', () => {
  it('hides deleted items and orders by type then name by default', () => {
    const search = configListSearch(none, firstPage);
    expect(search.get('deleted_at')).toBe('is.null');
    expect(search.get('order')).toBe('type.asc,name.asc,id.asc');
    expect(search.get('limit')).toBe('50');
    expect(search.get('offset')).toBe('0');
    expect(search.get('type')).toBeNull();
  });

  it('shows deleted items when the preference asks for them', () => {
    expect(configListSearch({ ...none, showDeleted: true }, firstPage).has('deleted_at')).toBe(false);
  });

  it('filters by type, health and status with include and exclude', () => {
    const search = configListSearch(
      { ...none, type: 'Npm::Package', health: { healthy: 1, unknown: -1 }, status: { Ready: 1 } },
      { pageIndex: 2, pageSize: 25, sortBy: 'name', sortOrder: 'desc' },
    );
    expect(search.get('type')).toBe('eq.Npm::Package');
    expect(search.get('health.filter')).toBe('healthy,!unknown');
    expect(search.get('status.filter')).toBe('Ready');
    expect(search.get('order')).toBe('name.desc,id.asc');
    expect(search.get('offset')).toBe('50');
  });

  it('ignores a sort column the server does not offer', () => {
    expect(configListSearch(none, { ...firstPage, sortBy: 'config' }).get('order')).toBe(
      'type.asc,name.asc,id.asc',
    );
  });

  it('turns tag and label entries into one JSON-path filter per key', () => {
    const search = configListSearch(
      {
        ...none,
        tags: { 'env=prod': 1, 'env=dev': 1, 'team=a:b': -1 },
        labels: { 'app.kubernetes.io/name=x': 1 },
      },
      firstPage,
    );
    expect(search.get('tags->>env.filter')).toBe('prod,dev');
    expect(search.get('tags->>team.filter')).toBe('!a____b');
    expect(search.get('labels->>"app.kubernetes.io/name".filter')).toBe('x');
  });

  it('searches name, type, description and namespace', () => {
    expect(configListSearch({ ...none, search: ' left-pad ' }, firstPage).get('or')).toBe(
      '(name.ilike."*left-pad*",type.ilike."*left-pad*",description.ilike."*left-pad*",namespace.ilike."*left-pad*")',
    );
  });
});

describe('helpers', () => {
  it('skips entries without a key', () => {
    expect(keyValueFilterParams('tags', { novalue: 1, '=x': 1 })).toEqual([]);
  });

  it('quotes search text with reserved characters and drops wildcards', () => {
    expect(searchClause('a,b(*)')).toBe(
      '(name.ilike."*a,b()*",type.ilike."*a,b()*",description.ilike."*a,b()*",namespace.ilike."*a,b()*")',
    );
    expect(searchClause('   ')).toBeUndefined();
  });

  it('builds the summary body and change, relationship queries', () => {
    expect(catalogSummaryBody(false)).toEqual({ groupBy: ['config_class', 'type'], deleted: false });
    const changes = configChangesSearch('c1');
    expect(changes.get('config_id')).toBe('eq.c1');
    expect(changes.get('select')).toContain('diff');
    expect(changes.get('order')).toBe('created_at.desc,id.asc');
    const related = relatedConfigsSearch('c1', 'incoming', false);
    expect(related.get('type_filter')).toBe('incoming');
    expect(related.get('max_depth')).toBe('10');
    expect(related.get('id')).toBe('neq.c1');
  });

  it('reads totals, type labels and key=value options', () => {
    expect(totalFromContentRange('0-49/1234')).toBe(1234);
    expect(totalFromContentRange('*/0')).toBe(0);
    expect(totalFromContentRange(null)).toBeUndefined();
    expect(typeLabel('Npm::Package')).toBe('Npm Package');
    expect(typeLabel(null)).toBe('Unknown');
    expect(keyValueOptions([{ b: '1', a: '2' }, null, { a: '2' }])).toEqual(['a=2', 'b=1']);
  });
});
