import { describe, expect, it } from 'vitest';
import { EVERY_ROW_LIMIT, fetchEveryRow, totalFromContentRange } from './data-api';

describe('totalFromContentRange', () => {
  it('reads the total of a Content-Range header', () => {
    expect(totalFromContentRange('0-49/1234')).toBe(1234);
    expect(totalFromContentRange('*/0')).toBe(0);
  });

  it('has no total without a header or with an unknown one', () => {
    expect(totalFromContentRange(null)).toBeUndefined();
    expect(totalFromContentRange('0-1/*')).toBeUndefined();
  });
});

describe('fetchEveryRow', () => {
  /** A data API that holds `total` rows and answers at most `cap` per request, as the server does. */
  function serve(total: number, cap: number, withRange = true) {
    const urls: string[] = [];
    const rows = Array.from({ length: total }, (_, i) => ({ id: i }));
    const fetcher = async (input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      const offset = Number(new URL(url, 'http://x').searchParams.get('offset') ?? 0);
      const page = rows.slice(offset, offset + cap);
      const headers = new Headers({ 'content-type': 'application/json' });
      if (withRange)
        headers.set(
          'content-range',
          page.length === 0 ? `*/${total}` : `${offset}-${offset + page.length - 1}/${total}`,
        );
      return new Response(JSON.stringify(page), { status: 200, headers });
    };
    return { urls, fetcher };
  }

  it('reads page after page until the counted total, one request when the list fits', async () => {
    const original = globalThis.fetch;
    try {
      const capped = serve(7, 3);
      globalThis.fetch = capped.fetcher as typeof fetch;
      const rows = await fetchEveryRow<{ id: number }>(
        '/api/db/people?order=name.asc,id.asc',
        new AbortController().signal,
      );
      expect(rows.map((row) => row.id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(capped.urls).toEqual([
        '/api/db/people?order=name.asc,id.asc',
        '/api/db/people?order=name.asc,id.asc&offset=3',
        '/api/db/people?order=name.asc,id.asc&offset=6',
      ]);
      const small = serve(2, 3);
      globalThis.fetch = small.fetcher as typeof fetch;
      expect(await fetchEveryRow('/api/db/teams', new AbortController().signal)).toHaveLength(2);
      expect(small.urls).toEqual(['/api/db/teams']);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('says so rather than showing a shortened list past its limit', async () => {
    const original = globalThis.fetch;
    try {
      globalThis.fetch = serve(EVERY_ROW_LIMIT + 5, 5000).fetcher as typeof fetch;
      await expect(fetchEveryRow('/api/db/people', new AbortController().signal)).rejects.toThrow(
        /more than the 20000 shown here/,
      );
    } finally {
      globalThis.fetch = original;
    }
  });
});
