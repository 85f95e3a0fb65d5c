import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL string helpers', () => {
  it('changes case, trims, quotes and repeats', () => {
    expect(evaluateCel("'hello world'.title()", {})).toBe('Hello World');
    expect(evaluateCel("'Hello big World'.camelCase()", {})).toBe('helloBigWorld');
    expect(evaluateCel("'HelloWorld'.kebabCase()", {})).toBe('hello-world');
    expect(evaluateCel("'Hello World'.snakeCase()", {})).toBe('hello_world');
    expect(evaluateCel("'v1.2'.trimPrefix('v')", {})).toBe('1.2');
    expect(evaluateCel("'file.log'.trimSuffix('.log')", {})).toBe('file');
    expect(evaluateCel("'ab'.repeat(3)", {})).toBe('ababab');
    expect(evaluateCel("'abcdefgh'.abbrev(6)", {})).toBe('abc...');
    expect(evaluateCel('"it\'s".shellQuote()', {})).toBe("'it'\\''s'");
    expect(evaluateCel("'a,b'.split(',').size()", {})).toBe(2);
    expect(evaluateCel("'  x '.trimSpace()", {})).toBe('x');
  });
});
