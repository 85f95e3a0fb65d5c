import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL regexp functions', () => {
  it('matches, finds, replaces and splits with the pattern first', () => {
    expect(evaluateCel("regexp.Match('^v\\\\d+', 'v12')", {})).toBe(true);
    expect(evaluateCel("regexp.Find('\\\\d+', 'abc 123 def 45')", {})).toBe('123');
    expect(evaluateCel("regexp.FindAll('\\\\d+', 'abc 123 def 45')", {})).toEqual(['123', '45']);
    expect(evaluateCel("regexp.FindAll('\\\\d', 1, '1 2 3')", {})).toEqual(['1']);
    expect(evaluateCel("regexp.Replace('(?P<word>\\\\w+)@', '${word} at ', 'me@')", {})).toBe('me at ');
    expect(evaluateCel("regexp.ReplaceLiteral('a+', '$1', 'caaat')", {})).toBe('c$1t');
    expect(evaluateCel("regexp.Split(',', -1, 'a,b,c')", {})).toEqual(['a', 'b', 'c']);
    expect(evaluateCel("regexp.Split(',', 2, 'a,b,c')", {})).toEqual(['a', 'b,c']);
    expect(evaluateCel("regexp.QuoteMeta('1.5+x')", {})).toBe('1\\.5\\+x');
    expect(evaluateCel("'(?i)ABC'.size() > 0 && regexp.Match('(?i)abc', 'xABCx')", {})).toBe(true);
  });
});
