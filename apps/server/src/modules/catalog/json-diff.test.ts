import { describe, expect, it } from 'vitest';
import { applyPatch, jsonPatch, patchSummary, unifiedDiff } from './json-diff.js';

describe('jsonPatch', () => {
  it('emits RFC 6902 operations that rebuild the new document', () => {
    const before = { a: 1, b: { c: [1, 2, 3], 'x/y': 'old', gone: true }, list: ['a', 'b'] };
    const after = { a: 2, b: { c: [1, 5], 'x/y': 'new', added: { z: 1 } }, list: ['a', 'b', 'c'] };
    const patch = jsonPatch(before, after);
    expect(patch).toEqual([
      { op: 'replace', path: '/a', value: 2 },
      { op: 'replace', path: '/b/c/1', value: 5 },
      { op: 'remove', path: '/b/c/2' },
      { op: 'remove', path: '/b/gone' },
      { op: 'replace', path: '/b/x~1y', value: 'new' },
      { op: 'add', path: '/b/added', value: { z: 1 } },
      { op: 'add', path: '/list/2', value: 'c' },
    ]);
    expect(applyPatch(before, patch)).toEqual(after);
    expect(jsonPatch({ k: [1, { a: 1 }] }, { k: [1, { a: 1 }] })).toEqual([]);
    expect(patchSummary(patch)).toBe('a, b.c, b.gone, b.x/y, b.added and 1 more');
  });

  it('replaces the root when the kinds differ', () => {
    expect(jsonPatch([1], { a: 1 })).toEqual([{ op: 'replace', path: '', value: { a: 1 } }]);
    expect(applyPatch([1], jsonPatch([1], 'text'))).toBe('text');
  });
});

describe('unifiedDiff', () => {
  it('shows changed lines of the pretty JSON with context and hunk headers', () => {
    const diff = unifiedDiff({ name: 'a', replicas: 1, zone: 'x' }, { name: 'a', replicas: 3, zone: 'x' });
    expect(diff).toBe(
      [
        '--- before',
        '+++ after',
        '@@ -1,5 +1,5 @@',
        ' {',
        '   "name": "a",',
        '-  "replicas": 1,',
        '+  "replicas": 3,',
        '   "zone": "x"',
        ' }',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff({ a: 1 }, { a: 1 })).toBe('');
  });
});
