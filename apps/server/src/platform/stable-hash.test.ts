import { describe, expect, it } from 'vitest';
import { stableHash, stableStringify } from './stable-hash.js';

describe('stableStringify', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });

  it('gives equal hashes for equal values written in another order, different ones otherwise', () => {
    expect(stableHash({ x: 1, y: { a: 'b', c: 'd' } })).toBe(stableHash({ y: { c: 'd', a: 'b' }, x: 1 }));
    expect(stableHash({ x: 1 })).not.toBe(stableHash({ x: 2 }));
    expect(stableHash([1, 2])).not.toBe(stableHash([2, 1]));
  });

  it('drops undefined members and writes dates as ISO text', () => {
    expect(stableStringify({ a: undefined, b: new Date('2025-01-01T00:00:00Z') })).toBe(
      '{"b":"2025-01-01T00:00:00.000Z"}',
    );
  });
});
