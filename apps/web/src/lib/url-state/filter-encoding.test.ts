import { describe, expect, it } from 'vitest';
import {
  decodeFilterStates,
  encodeFilterStates,
  escapeFilterValue,
  filterDisplayValue,
  filterParamName,
  nextTriState,
  toTriStateQuery,
  unescapeFilterValue,
} from './filter-encoding';

describe('tri-state cycle', () => {
  it('moves from neutral to include or exclude', () => {
    expect(nextTriState(0, 1)).toBe(1);
    expect(nextTriState(0, -1)).toBe(-1);
  });

  it('returns to neutral when the active state is clicked', () => {
    expect(nextTriState(1, 1)).toBe(0);
    expect(nextTriState(-1, -1)).toBe(0);
  });

  it('switches directly between include and exclude', () => {
    expect(nextTriState(1, -1)).toBe(-1);
    expect(nextTriState(-1, 1)).toBe(1);
  });
});

describe('filter value encoding', () => {
  it("encodes 'value:1' for include and 'value:-1' for exclude, comma-separated", () => {
    expect(encodeFilterStates({ api: 1, worker: -1 })).toBe('api:1,worker:-1');
    expect(encodeFilterStates({})).toBe('');
  });

  it('escapes commas and colons inside values', () => {
    expect(escapeFilterValue('a:b,c')).toBe('a____b||||c');
    expect(unescapeFilterValue('a____b||||c')).toBe('a:b,c');
    expect(encodeFilterStates({ 'Kubernetes::Pod': 1, 'x,y': -1 })).toBe('Kubernetes________Pod:1,x||||y:-1');
  });

  it('decodes what it encodes', () => {
    const states = { 'Kubernetes::Pod': 1, 'x,y': -1, plain: 1 } as const;
    expect(decodeFilterStates(encodeFilterStates(states))).toEqual(states);
  });

  it('reads a value without state as included and ignores broken entries', () => {
    expect(decodeFilterStates('a,b:-1,c:2,:1,,d:0')).toEqual({ a: 1, b: -1 });
    expect(decodeFilterStates(null)).toEqual({});
  });

  it("shows an exclude with a leading '!'", () => {
    expect(filterDisplayValue('worker', -1)).toBe('!worker');
    expect(filterDisplayValue('api', 1)).toBe('api');
  });

  it("builds the API's tri-state query 'a,!b'", () => {
    expect(toTriStateQuery({ api: 1, worker: -1 })).toBe('api,!worker');
    expect(toTriStateQuery({ 'a:b': 1 })).toBe('a____b');
    expect(toTriStateQuery({})).toBeUndefined();
  });

  it('names the URL parameter <filter>.filter', () => {
    expect(filterParamName('health')).toBe('health.filter');
  });
});
