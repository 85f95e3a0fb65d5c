import { describe, expect, it } from 'vitest';
import {
  catalogSummaryBody,
  parseGroupKey,
  changeFeedBody,
  insightListSearch,
  configListSearch,
  keyValueFilterParams,
  keyValueOptions,
  relatedConfigsSearch,
  searchClause,
  ilikeMatches,
  typeLabel,
  type ConfigListFilters,
} from './catalog-query';
import { totalFromContentRange } from '../../../lib/data-api';

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

  it('selects the cost columns and sorts by them with items without a cost last', () => {
    const search = configListSearch(none, { ...firstPage, sortBy: 'cost_total_30d', sortOrder: 'desc' });
    expect(search.get('select')).toContain('cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d');
    expect(search.get('order')).toBe('cost_total_30d.desc.nullslast,id.asc');
    expect(
      configListSearch(none, { ...firstPage, sortBy: 'cost_per_minute', sortOrder: 'asc' }).get('order'),
    ).toBe('cost_per_minute.asc.nullslast,id.asc');
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

  it('decides the type arm of the search itself when the list is of one type', () => {
    const ofType = (search: string) =>
      configListSearch({ ...none, type: 'Npm::Package', search }, firstPage).get('or');
    // No row of the type can match on type: the other columns must.
    expect(ofType('left-pad')).toBe(
      '(name.ilike."*left-pad*",description.ilike."*left-pad*",namespace.ilike."*left-pad*")',
    );
    // Every row of the type matches on type: the search holds for all of them.
    expect(ofType('npm::')).toBeNull();
    expect(ofType('PACK')).toBeNull();
    expect(ofType('m::p_c')).toBeNull();
    expect(ofType('m::p\\_c')).toBe(
      '(name.ilike."*m::p\\\\_c*",description.ilike."*m::p\\\\_c*",namespace.ilike."*m::p\\\\_c*")',
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

  it('matches ILIKE patterns as the server does', () => {
    expect(ilikeMatches('Kubernetes::Pod', '%pod%')).toBe(true);
    expect(ilikeMatches('Kubernetes::Pod', '%p_d')).toBe(true);
    expect(ilikeMatches('Kubernetes::Pod', '%p_d_')).toBe(false);
    expect(ilikeMatches('a_b', 'a\\_b')).toBe(true);
    expect(ilikeMatches('axb', 'a\\_b')).toBe(false);
    expect(ilikeMatches('100%', '%0\\%')).toBe(true);
    expect(ilikeMatches('(a+b)[c]/d', '%(A+B)[C]/%')).toBe(true);
    expect(ilikeMatches('Ärger', 'är%')).toBe(true);
  });

  it('builds the summary body and relationship queries with a bounded depth', () => {
    expect(catalogSummaryBody(false)).toEqual({ groupBy: ['config_class', 'type'], deleted: false });
    expect(catalogSummaryBody(true, 'label:app')).toEqual({ groupBy: ['label:app'], deleted: true });
    expect(parseGroupKey('tag:env')).toEqual({ kind: 'tag', key: 'env' });
    expect(parseGroupKey('label:app.kubernetes.io/name')).toEqual({
      kind: 'label',
      key: 'app.kubernetes.io/name',
    });
    expect(parseGroupKey('env')).toBeUndefined();
    expect(parseGroupKey('tag:')).toBeUndefined();
    const related = relatedConfigsSearch('c1', 'incoming', 3, false);
    expect(related.get('type_filter')).toBe('incoming');
    expect(related.get('max_depth')).toBe('3');
    expect(related.get('include_deleted_configs')).toBe('false');
    expect(related.get('select')).toContain('related_ids');
    expect(relatedConfigsSearch('c1', 'all', 50, true).get('max_depth')).toBe('10');
    expect(relatedConfigsSearch('c1', 'all', 0, true).get('max_depth')).toBe('10');
  });

  it('builds the change feed body: paging from 1, sort, lists, tags and recursion depth 5', () => {
    const body = changeFeedBody(
      {
        configId: 'c1',
        changeType: { diff: 1, CREATE: -1 },
        severity: {},
        configType: { 'Npm::Package': 1 },
        tags: { 'env=prod': 1, 'team=a': -1 },
        createdBy: {},
        from: new Date('2026-01-01T00:00:00Z'),
        to: null,
        showDeleted: false,
      },
      { pageIndex: 2, pageSize: 25, sortBy: undefined, sortOrder: 'desc' },
    );
    expect(body).toEqual({
      page: 3,
      page_size: 25,
      sort_by: '-created_at',
      include_deleted_configs: false,
      id: 'c1',
      recursive: 'all',
      depth: 5,
      type: ['diff', '!CREATE'],
      config_type: ['Npm::Package'],
      tags: ['env=prod', 'team!=a'],
      from: '2026-01-01T00:00:00.000Z',
    });
    const none = changeFeedBody(
      {
        configId: 'c1',
        recursive: 'none',
        changeType: {},
        severity: {},
        configType: {},
        tags: {},
        createdBy: {},
        showDeleted: true,
      },
      { pageIndex: 0, pageSize: 50, sortBy: 'severity', sortOrder: 'asc' },
    );
    expect(none).toMatchObject({ recursive: 'none', sort_by: 'severity', page: 1 });
    expect(none).not.toHaveProperty('depth');
  });

  it('builds the insights query with tri-state filters, search and a default order', () => {
    const search = insightListSearch(
      {
        analyzer: {},
        analysisType: { security: 1 },
        severity: { low: -1 },
        status: {},
        configType: {},
        search: 'disk, full',
      },
      { pageIndex: 1, pageSize: 10, sortBy: undefined, sortOrder: 'asc' },
    );
    expect(search.get('analysis_type.filter')).toBe('security');
    expect(search.get('severity.filter')).toBe('!low');
    expect(search.get('or')).toBe(
      '(summary.ilike."*disk, full*",message.ilike."*disk, full*",analyzer.ilike."*disk, full*")',
    );
    expect(search.get('order')).toBe('last_observed.desc.nullslast,id.asc');
    expect(search.get('offset')).toBe('10');
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
