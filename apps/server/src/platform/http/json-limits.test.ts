import { describe, expect, it } from 'vitest';
import { loadPlatformConfig, ConfigError } from '../config.js';
import {
  inspectJsonValue,
  jsonTextDepthExceeds,
  MAX_JSON_DEPTH,
  nulInUrl,
  parseJsonWithinLimits,
} from './json-limits.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON body limits', () => {
  it('counts depth outside strings only, the outermost bracket being level 1', () => {
    expect(jsonTextDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonTextDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonTextDepthExceeds(JSON.stringify({ a: '[[[[[[', b: '\\"{{{{' }), 1)).toBe(false);
    expect(jsonTextDepthExceeds(JSON.stringify({ a: { b: 'x"[' } }), 1)).toBe(true);
  });

  it('refuses a 5,000-deep text before parsing it, naming the limit', () => {
    const result = parseJsonWithinLimits(`{"a":${nested(5000)}}`);
    expect(result).toEqual({
      ok: false,
      problem: expect.objectContaining({
        limit: 'depth',
        message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`),
      }),
    });
    expect(parseJsonWithinLimits(nested(MAX_JSON_DEPTH)).ok).toBe(true);
  });

  it('names the field of a NUL character in a value or a key', () => {
    expect(inspectJsonValue({ spec: { http: [{ name: 'ok' }, { name: 'a\u0000b' }] } })).toMatchObject({
      limit: 'nul',
      field: 'spec.http[1].name',
    });
    expect(inspectJsonValue({ labels: { 'a\u0000': 'x' } })).toMatchObject({
      limit: 'nul',
      field: 'labels["a\\u0000"]',
    });
    expect(inspectJsonValue(['x\u0000'])).toMatchObject({ field: '[0]' });
    expect(inspectJsonValue({ a: ['fine', 1, null, { b: true }] })).toBeUndefined();
  });

  it('counts keys and elements against the limit', () => {
    const limits = { maxDepth: 10, maxValues: 5 };
    expect(inspectJsonValue([1, 2, 3, 4, 5], limits)).toBeUndefined();
    expect(inspectJsonValue([1, 2, 3, [4, 5]], limits)).toMatchObject({ limit: 'values' });
    expect(parseJsonWithinLimits('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}', limits)).toMatchObject({
      ok: false,
      problem: { limit: 'values', message: expect.stringContaining('limit of 5 keys and elements') },
    });
  });

  it('tells text that is not JSON from JSON over a limit', () => {
    expect(parseJsonWithinLimits('{nope')).toEqual({ ok: false });
  });
});

describe('NUL characters in URLs', () => {
  it('names the query parameter or the path', () => {
    expect(nulInUrl('/api/db/incidents?select=*&title=eq.a%00b')).toMatchObject({ field: 'title' });
    expect(nulInUrl('/webhook/%00')).toMatchObject({ field: 'path' });
    expect(nulInUrl('/api/x?a%00b=1')).toMatchObject({ field: 'a\\u0000b' });
    // `%2500` is the text "%00", not a NUL character.
    expect(nulInUrl('/api/db/incidents?title=eq.%2500')).toBeUndefined();
    expect(nulInUrl('/api/db/incidents?title=eq.a')).toBeUndefined();
  });
});

describe('DATA_API_MAX_ROWS', () => {
  const base = { WEB_DIST_DIR: '/nonexistent' };
  it('defaults to 1000 and takes a whole number from 1 to 1,000,000', () => {
    expect(loadPlatformConfig(base).dataApiMaxRows).toBe(1000);
    expect(loadPlatformConfig({ ...base, DATA_API_MAX_ROWS: '25' }).dataApiMaxRows).toBe(25);
    for (const bad of ['0', '-5', '1.5', 'many', '1000001']) {
      expect(() => loadPlatformConfig({ ...base, DATA_API_MAX_ROWS: bad })).toThrow(ConfigError);
      expect(() => loadPlatformConfig({ ...base, DATA_API_MAX_ROWS: bad })).toThrow(/DATA_API_MAX_ROWS/);
    }
  });
});
