import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';
import { ExpressionError } from './expression-error.js';

const variables = {
  code: 200,
  elapsed: 12.5,
  headers: { 'Content-Type': 'application/json' },
  json: {
    items: [
      { name: 'a', ok: true },
      { name: 'b', ok: false },
    ],
    count: 2,
    ratio: 0.5,
    tags: ['x', 'y'],
  },
  results: { rows: [{ id: 1 }, { id: 2 }], count: 2 },
  check: { name: 'api' },
};

describe('evaluateCel', () => {
  it('compares whole JSON numbers as ints, the way the ecosystem writes tests', () => {
    expect(evaluateCel('code == 200', variables)).toBe(true);
    expect(evaluateCel('code in [200, 201]', variables)).toBe(true);
    expect(evaluateCel('results.count + 1', variables)).toBe(3);
    expect(evaluateCel('json.items.map(i, i.name)', variables)).toEqual(['a', 'b']);
    expect(evaluateCel('json.ratio > 0.25 && elapsed < 100.0', variables)).toBe(true);
  });

  it('reads maps with index and has(), and lists with size() and macros', () => {
    expect(evaluateCel("headers['Content-Type'].startsWith('application/')", variables)).toBe(true);
    expect(evaluateCel('has(json.count) && !has(json.missing)', variables)).toBe(true);
    expect(evaluateCel('json.items.filter(i, i.ok).size()', variables)).toBe(1);
    expect(evaluateCel('results.rows.exists(r, r.id == 2)', variables)).toBe(true);
  });

  it('returns structures as plain JSON', () => {
    expect(
      evaluateCel("{'name': check.name, 'pass': code == 200, 'ids': results.rows.map(r, r.id)}", variables),
    ).toEqual({
      name: 'api',
      pass: true,
      ids: [1, 2],
    });
    expect(evaluateCel("timestamp('2024-01-02T03:04:05Z')", {})).toBe('2024-01-02T03:04:05.000Z');
    expect(evaluateCel("duration('90s')", {})).toBe('90s');
  });

  it('offers the string extension and the ecosystem helpers', () => {
    expect(evaluateCel("'Hello'.upperAscii() + '-' + 'a,b'.split(',').join('+')", {})).toBe('HELLO-a+b');
    expect(evaluateCel('json.tags.toJSON()', variables)).toBe('["x","y"]');
    expect(evaluateCel('toJSON(results.count)', variables)).toBe('2');
    expect(evaluateCel('\'{"a": 5}\'.JSON().a', {})).toBe(5);
    expect(evaluateCel("'[1,2]'.JSONArray().size()", {})).toBe(2);
    expect(evaluateCel("base64.encode('hi') + ':' + base64.decode('aGk=')", {})).toBe('aGk=:hi');
    expect(evaluateCel("{'b': 1, 'a': 2}.keys().sort()", {})).toEqual(['a', 'b']);
    expect(evaluateCel("{'a': 1}.merge({'b': 2})", {})).toEqual({ a: 1, b: 2 });
    expect(evaluateCel('[3, 1, 3, 2].distinct().sort()', {})).toEqual([1, 2, 3]);
    expect(evaluateCel('[[1, 2], [3, [4]]].flatten()', {})).toEqual([1, 2, 3, 4]);
    expect(evaluateCel('range(3)', {})).toEqual([0, 1, 2]);
    expect(evaluateCel('sets.contains([1, 2, 3], [2, 3])', {})).toBe(true);
    expect(evaluateCel("jsonpath('$.items[?(@.ok)].name', json)", variables)).toBe('a');
    expect(evaluateCel("crypto.SHA256('hello')", {})).toBe(
      '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    );
    expect(evaluateCel("filepath.Base('/var/log/app.log')", {})).toBe('app.log');
  });

  it('names the language, the reason and the expression when it fails', () => {
    expect(() => evaluateCel('code ==', variables)).toThrowError(ExpressionError);
    expect(() => evaluateCel('code ==', variables)).toThrowError(
      /^CEL expression failed: syntax error: .*\(expression: code ==\)$/,
    );
    expect(() => evaluateCel('nothing.here', variables)).toThrowError(
      /unresolved attribute \(variables available: check, code/,
    );
    expect(() => evaluateCel('json.missing', variables)).toThrowError(/no such key|not found/);
    expect(() => evaluateCel('1 / 0', {})).toThrowError(/divide by zero/);
    expect(() => evaluateCel('   ', {})).toThrowError(/the expression is empty/);
    expect(() => evaluateCel('range(5000)', {})).toThrowError(/range is limited to 1000 items/);
  });
});
