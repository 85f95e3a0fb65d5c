import { describe, expect, it } from 'vitest';
import { parseCsvRows } from './engine.js';
import { ApiError } from './errors.js';

describe('CSV request bodies', () => {
  it('reads a header line and rows: quotes, doubled quotes, CRLF, NULL and empty fields', () => {
    expect(parseCsvRows('name,note,n\r\n"a, b","say ""hi""",1\r\nc,,NULL\n"NULL",x,2')).toEqual([
      { name: 'a, b', note: 'say "hi"', n: '1' },
      { name: 'c', note: '', n: null },
      { name: 'NULL', note: 'x', n: '2' },
    ]);
  });

  it('keeps line breaks inside quoted fields and ignores a trailing newline', () => {
    expect(parseCsvRows('a,b\n"line 1\nline 2",z\n')).toEqual([{ a: 'line 1\nline 2', b: 'z' }]);
  });

  it('rejects unclosed quotes, rows of the wrong width and nameless columns (PGRST102)', () => {
    for (const bad of ['a,b\n"x,y', 'a,b\n1,2,3', 'a,,b\n1,2,3', '']) {
      let error: unknown;
      try {
        parseCsvRows(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error, bad).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('PGRST102');
    }
  });
});
