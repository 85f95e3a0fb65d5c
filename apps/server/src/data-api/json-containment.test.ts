import { describe, expect, it } from 'vitest';
import { containmentDocuments } from './json-containment.js';
import type { JsonStep } from './query-tree.js';

const key = (name: string): JsonStep => ({ arrow: '->', key: name, isIndex: false });
const text = (name: string): JsonStep => ({ arrow: '->>', key: name, isIndex: false });

describe('containmentDocuments', () => {
  it('a string value: the value as a JSON string under the path', () => {
    expect(containmentDocuments([text('env')], ['staging'])).toEqual(['{"env":"staging"}']);
    expect(containmentDocuments([key('a'), text('b')], ['x'])).toEqual(['{"a":{"b":"x"}}']);
    expect(containmentDocuments([text('we"ird')], ['a"b\\c'])).toEqual(['{"we\\"ird":"a\\"b\\\\c"}']);
  });

  it('texts a non-string JSON value prints as: that value too', () => {
    expect(containmentDocuments([text('n')], ['5'])).toEqual(['{"n":"5"}', '{"n":5}']);
    expect(containmentDocuments([text('n')], ['-0.50'])).toEqual(['{"n":"-0.50"}', '{"n":-0.50}']);
    expect(containmentDocuments([text('b')], ['true'])).toEqual(['{"b":"true"}', '{"b":true}']);
    expect(containmentDocuments([text('o')], ['{"a": 1}'])).toEqual(['{"o":"{\\"a\\": 1}"}', '{"o":{}}']);
    expect(containmentDocuments([text('l')], ['[1, 2]'])).toEqual(['{"l":"[1, 2]"}', '{"l":[]}']);
  });

  it('texts no jsonb number prints as stay strings only', () => {
    for (const value of ['1e2', '05', '+1', '1.', '.5', 'null', 'NaN', ' 1'])
      expect(containmentDocuments([text('n')], [value])).toEqual([`{"n":${JSON.stringify(value)}}`]);
  });

  it('values PostgreSQL would receive otherwise: as they arrive, never a document without the path', () => {
    // A lone surrogate reaches PostgreSQL as U+FFFD; a NUL fails the statement on its own parameter.
    expect(containmentDocuments([text('a')], ['x\ud800'])).toEqual(['{"a":"x\ufffd"}']);
    expect(containmentDocuments([key('a'), text('b')], ['x\u0000y'])).toEqual(['{"a":{"b":"xy"}}']);
    // Numbers longer than numeric holds cannot be a jsonb number's text.
    const long = '9'.repeat(131073);
    expect(containmentDocuments([text('n')], [long])).toEqual([`{"n":"${long}"}`]);
    expect(containmentDocuments([text('n')], [long.slice(1)])).toHaveLength(2);
    expect(containmentDocuments([text('n')], [`0.${long.slice(0, 16384)}`])).toHaveLength(1);
  });

  it('a list: every value, without duplicates', () => {
    expect(containmentDocuments([text('env')], ['a', '5', 'a'])).toEqual([
      '{"env":"a"}',
      '{"env":"5"}',
      '{"env":5}',
    ]);
    expect(containmentDocuments([text('env')], [])).toEqual([]);
  });
});
