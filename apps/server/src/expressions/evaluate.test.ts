import { describe, expect, it } from 'vitest';
import { goSprintf } from './go-format.js';
import {
  evaluate,
  ExpressionError,
  isEmptyExpression,
  parseTestOutcome,
  selectExpression,
  stringifyResult,
} from './index.js';

const variables = {
  code: 503,
  json: {
    services: [
      { name: 'db', up: true },
      { name: 'cache', up: false },
    ],
  },
  check: { name: 'status-page' },
};

describe('evaluate', () => {
  it('runs the same question in all four languages', async () => {
    await expect(
      evaluate({ expr: 'json.services.filter(s, !s.up).map(s, s.name)' }, variables),
    ).resolves.toEqual(['cache']);
    await expect(
      evaluate(
        { template: '{{ range .json.services }}{{ if not .up }}{{ .name }}{{ end }}{{ end }}' },
        variables,
      ),
    ).resolves.toBe('cache');
    await expect(
      evaluate(
        {
          javascript:
            'json.services.filter(function (s) { return !s.up; }).map(function (s) { return s.name; })',
        },
        variables,
      ),
    ).resolves.toEqual(['cache']);
    await expect(evaluate({ jsonPath: '$.json.services[?(@.up == false)].name' }, variables)).resolves.toBe(
      'cache',
    );
  });

  it('returns every match of a JSONPath that selects several, and null for none', async () => {
    await expect(evaluate({ jsonPath: '$.json.services[*].name' }, variables)).resolves.toEqual([
      'db',
      'cache',
    ]);
    await expect(evaluate({ jsonPath: '$.json.nothing' }, variables)).resolves.toBeNull();
  });

  it('applies the ecosystem precedence when several languages are given', () => {
    expect(selectExpression({ template: 't', expr: 'e' })).toEqual({ language: 'cel', source: 'e' });
    expect(selectExpression({ template: 't', expr: 'e', jsonPath: '$.a' })).toEqual({
      language: 'jsonPath',
      source: '$.a',
    });
    expect(selectExpression({ template: 't', javascript: 'j', jsonPath: '$.a' })).toEqual({
      language: 'javascript',
      source: 'j',
    });
    expect(selectExpression({ template: '  ', expr: '' })).toBeUndefined();
    expect(isEmptyExpression(undefined)).toBe(true);
    expect(isEmptyExpression({ template: '{{ .code }}' })).toBe(false);
  });

  it('fails with a message naming the language and the expression', async () => {
    await expect(evaluate({ expr: 'code >' }, variables)).rejects.toThrowError(
      /^CEL expression failed: .*\(expression: code >\)$/,
    );
    await expect(evaluate({ template: '{{ .code | nope }}' }, variables)).rejects.toThrowError(
      /^Go template expression failed: function "nope" not defined \(expression: \{\{ \.code \| nope \}\}\)$/,
    );
    await expect(evaluate({ javascript: 'code(' }, variables)).rejects.toThrowError(
      /^JavaScript expression failed: SyntaxError/,
    );
    await expect(evaluate({ jsonPath: '$.json[?(@.x ==' }, variables)).rejects.toThrowError(
      /^JSONPath expression failed: /,
    );
    await expect(evaluate({}, variables)).rejects.toThrowError(ExpressionError);
  });
});

describe('result helpers', () => {
  it('reads test outcomes the way Go parses booleans', () => {
    expect(parseTestOutcome(true)).toBe(true);
    expect(parseTestOutcome('true')).toBe(true);
    expect(parseTestOutcome(' false\n')).toBe(false);
    expect(parseTestOutcome('1')).toBe(true);
    expect(parseTestOutcome('yes')).toBeUndefined();
    expect(parseTestOutcome({ a: 1 })).toBeUndefined();
  });

  it('turns results into display text', () => {
    expect(stringifyResult('text')).toBe('text');
    expect(stringifyResult(42)).toBe('42');
    expect(stringifyResult(null)).toBe('');
    expect(stringifyResult({ a: [1] })).toBe('{"a":[1]}');
  });

  it('formats printf verbs like Go, including its error markers', () => {
    expect(goSprintf('%s=%v %d %05.1f %x %t %%', ['a', [1, 2], 7, 3.14159, 255, true])).toBe(
      'a=[1 2] 7 003.1 ff true %',
    );
    expect(goSprintf('%d %s', [1])).toBe('1 %!s(MISSING)');
    expect(goSprintf('%d', ['x'])).toBe('%!d(string=x)');
    expect(goSprintf('%s', ['a', 'b'])).toBe('a%!(EXTRA string=b)');
    expect(goSprintf('%e', [1500000])).toBe('1.500000e+06');
  });
});
