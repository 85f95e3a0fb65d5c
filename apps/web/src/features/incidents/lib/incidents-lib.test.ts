import { describe, expect, it } from 'vitest';
import { buildHypothesisTree, childTypeOf, type HypothesisLike } from './hypothesis-tree';
import { EMPTY_INCIDENT_FORM, requiredText, validateIncidentForm } from './incident-form';
import { incidentListSearch } from './incident-list-query';
import { formatSeconds } from './format-seconds';

const row = (
  id: string,
  parent_id: string | null,
  type: HypothesisLike['type'],
  at: string,
): HypothesisLike => ({
  id,
  parent_id,
  type,
  created_at: `2026-01-01T00:00:${at}Z`,
});

describe('buildHypothesisTree', () => {
  it('nests root, factor and solution by parent, oldest first', () => {
    const tree = buildHypothesisTree([
      row('s1', 'f1', 'solution', '05'),
      row('r2', null, 'root', '02'),
      row('f1', 'r1', 'factor', '03'),
      row('r1', null, 'root', '01'),
      row('f2', 'r1', 'factor', '04'),
    ]);
    expect(tree.map((node) => node.id)).toEqual(['r1', 'r2']);
    expect(tree[0]!.children.map((node) => node.id)).toEqual(['f1', 'f2']);
    expect(tree[0]!.children[0]!.children.map((node) => node.id)).toEqual(['s1']);
    expect(tree[1]!.children).toEqual([]);
  });

  it('keeps an orphan whose parent is gone at the top', () => {
    const tree = buildHypothesisTree([row('f9', 'missing', 'factor', '01')]);
    expect(tree.map((node) => node.id)).toEqual(['f9']);
  });

  it('gives the child type of each level and none under a solution', () => {
    expect(childTypeOf('root')).toBe('factor');
    expect(childTypeOf('factor')).toBe('solution');
    expect(childTypeOf('solution')).toBeUndefined();
  });
});

describe('validateIncidentForm', () => {
  it('accepts a trimmed title with the default severity and type', () => {
    expect(
      validateIncidentForm({ ...EMPTY_INCIDENT_FORM, title: '  Disk full ', description: ' x ' }),
    ).toEqual({
      ok: true,
      value: { title: 'Disk full', severity: 'low', type: 'availability', description: 'x' },
    });
  });

  it('reports the spec messages for a missing severity and type and a blank title', () => {
    expect(validateIncidentForm({ title: ' ', severity: '', type: 'weather', description: '' })).toEqual({
      ok: false,
      errors: {
        title: 'Title is required',
        severity: 'Please select incident severity',
        type: 'Please select an incident type',
      },
    });
  });

  it('treats blank text as missing', () => {
    expect(requiredText('   ')).toBeUndefined();
    expect(requiredText(' why ')).toBe('why');
  });
});

describe('incidentListSearch', () => {
  it('filters, searches, sorts and pages incident_summary', () => {
    const search = incidentListSearch(
      { search: 'db, "x"', severity: 'high', status: 'open', type: 'cost' },
      { pageIndex: 2, pageSize: 25, sortBy: 'title', sortOrder: 'asc' },
    );
    expect(search.get('severity')).toBe('eq.high');
    expect(search.get('status')).toBe('eq.open');
    expect(search.get('type')).toBe('eq.cost');
    expect(search.get('or')).toBe(
      '(incident_id.ilike."*db, \\"x\\"*",title.ilike."*db, \\"x\\"*",description.ilike."*db, \\"x\\"*")',
    );
    expect(search.get('select')?.split(',')).toContain('incident_id');
    expect(search.get('order')).toBe('title.asc');
    expect(search.get('limit')).toBe('25');
    expect(search.get('offset')).toBe('50');
  });

  it('ignores unknown filter values and sort columns', () => {
    const search = incidentListSearch(
      { severity: 'huge', status: '', type: 'x' },
      { pageIndex: 0, pageSize: 50, sortBy: 'password' },
    );
    expect(search.has('severity')).toBe(false);
    expect(search.has('status')).toBe(false);
    expect(search.has('type')).toBe(false);
    expect(search.has('or')).toBe(false);
    expect(search.get('order')).toBe('created_at.desc');
  });
});

describe('formatSeconds', () => {
  it('formats durations and marks stages not reached', () => {
    expect(formatSeconds(45)).toBe('45s');
    expect(formatSeconds(200)).toBe('3m 20s');
    expect(formatSeconds(3900)).toBe('1h 5m');
    expect(formatSeconds(90_000)).toBe('1d 1h');
    expect(formatSeconds(null)).toBe('-');
  });
});
