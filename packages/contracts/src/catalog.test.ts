import { describe, expect, it } from 'vitest';
import { catalogSummaryRequestSchema, changeSearchRequestSchema } from './catalog.js';
import { timeParameterSchema } from './time.js';

const messages = (result: { error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

describe('catalog request schemas', () => {
  it('read times in the one time grammar, naming the field', () => {
    const from = timeParameterSchema('from');
    for (const value of [
      'now-1h',
      '24h',
      '1mo',
      '2026-01-02T15:04:05Z',
      1_700_000_000_000,
      '',
      null,
      undefined,
    ])
      expect(from.safeParse(value).success, String(value)).toBe(true);
    expect(messages(from.safeParse('1month'))).toEqual([
      ['', 'from: "1month" is not a time: unknown unit "month" (use ns, us, ms, s, m, h, d, w, y, mo)'],
    ]);
    expect(messages(from.safeParse(1e20))?.[0]?.[1]).toMatch(/^from: 100000000000000000000 is out of range/);
  });

  it('take page, page_size and depth as JSON numbers or query text, within their bounds', () => {
    expect(changeSearchRequestSchema.safeParse({ page: '2', page_size: 50, depth: '' }).success).toBe(true);
    expect(messages(changeSearchRequestSchema.safeParse({ page: '1e40' }))).toEqual([
      ['page', 'page must be a whole number from 1 to 1,000,000'],
    ]);
    expect(messages(changeSearchRequestSchema.safeParse({ sort_by: '-nope' }))).toEqual([
      ['sort_by', 'sort_by: "-nope" is not a change column'],
    ]);
    expect(changeSearchRequestSchema.safeParse({ sort_by: '-created_at' }).success).toBe(true);
  });

  it('refuse a groupBy that is not a column, tag or label key', () => {
    expect(
      catalogSummaryRequestSchema.safeParse({ groupBy: ['type', 'tag:env', 'label:app', 'cluster'] }).success,
    ).toBe(true);
    expect(messages(catalogSummaryRequestSchema.safeParse({ groupBy: ["label:a'b"] }))?.[0]?.[0]).toBe(
      'groupBy.0',
    );
  });
});
