import { describe, expect, it } from 'vitest';
import { filterLines, levelsOf, logHistogram } from './histogram';

const line = (minute: number, level: string | null, message = 'm', labels: Record<string, string> = {}) => ({
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  level,
  message,
  labels,
});
const from = Date.UTC(2026, 0, 1, 0, 0);
const to = Date.UTC(2026, 0, 1, 1, 0);

describe('logHistogram', () => {
  it('counts lines and errors per bucket and ignores lines out of range', () => {
    const buckets = logHistogram(
      [line(1, 'info'), line(2, 'error'), line(59, 'fatal'), line(90, 'info')],
      from,
      to,
      6,
    );
    expect(buckets.map((bucket) => [bucket.count, bucket.errors])).toEqual([
      [2, 1],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
    expect(buckets[1].start).toBe(from + 10 * 60_000);
  });
});

describe('levelsOf and filterLines', () => {
  const lines = [
    line(1, 'info', 'GET /a'),
    line(2, 'error', 'boom', { route: '/cart' }),
    line(3, null, 'raw'),
  ];
  it('lists levels most severe first', () => {
    expect(levelsOf([...lines, line(4, 'debug'), line(5, 'warn')])).toEqual([
      'error',
      'warn',
      'info',
      'debug',
    ]);
  });
  it('filters by level and by text in the message or labels', () => {
    expect(filterLines(lines, 'error', '')).toEqual([lines[1]]);
    expect(filterLines(lines, '', 'route=/cart')).toEqual([lines[1]]);
    expect(filterLines(lines, '', 'get')).toEqual([lines[0]]);
    expect(filterLines(lines, '', '')).toEqual(lines);
  });
});
