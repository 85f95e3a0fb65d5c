import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, PatchError } from './json-patch.js';

describe('mergePatch (RFC 7386)', () => {
  it('merges objects, removes keys set to null and replaces lists and scalars', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] };
    expect(mergePatch(target, { a: 'z', c: { f: null }, list: [3] })).toEqual({
      a: 'z',
      c: { d: 'e' },
      list: [3],
    });
    expect(target).toEqual({ a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] });
  });

  it('follows the RFC examples', () => {
    expect(mergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
    expect(mergePatch({ a: 'foo' }, null)).toBeNull();
    expect(mergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(mergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
});

describe('jsonPatch (RFC 6902)', () => {
  const document = {
    spec: { schedule: '@every 5m', http: [{ name: 'a' }, { name: 'b' }] },
    metadata: { 'a/b': 1 },
  };

  it('adds, removes, replaces, moves, copies and tests', () => {
    const patched = jsonPatch(document, [
      { op: 'test', path: '/spec/schedule', value: '@every 5m' },
      { op: 'replace', path: '/spec/schedule', value: '@every 1m' },
      { op: 'add', path: '/spec/http/1', value: { name: 'inserted' } },
      { op: 'add', path: '/spec/http/-', value: { name: 'last' } },
      { op: 'remove', path: '/spec/http/0' },
      { op: 'copy', from: '/spec/schedule', path: '/spec/interval' },
      { op: 'move', from: '/metadata/a~1b', path: '/metadata/moved' },
    ]);
    expect(patched).toEqual({
      spec: {
        schedule: '@every 1m',
        interval: '@every 1m',
        http: [{ name: 'inserted' }, { name: 'b' }, { name: 'last' }],
      },
      metadata: { moved: 1 },
    });
    expect(document.spec.http).toHaveLength(2);
  });

  it('refuses what cannot apply, naming the path', () => {
    expect(() => jsonPatch(document, [{ op: 'remove', path: '/spec/missing' }])).toThrow(
      /"\/spec\/missing" does not exist/,
    );
    expect(() => jsonPatch(document, [{ op: 'replace', path: '/spec/http/9', value: 1 }])).toThrow(
      /out of range/,
    );
    expect(() => jsonPatch(document, [{ op: 'test', path: '/spec/schedule', value: 'x' }])).toThrow(
      PatchError,
    );
    expect(() => jsonPatch(document, [{ op: 'add', path: '/spec/x' }])).toThrow(/needs a "value"/);
    expect(() => jsonPatch(document, [{ op: 'frobnicate', path: '/spec' }])).toThrow(/unknown op/);
    expect(() => jsonPatch(document, { op: 'add' })).toThrow(/list of operations/);
  });
});
