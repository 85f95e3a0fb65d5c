import { describe, expect, it } from 'vitest';
import { filterLines, histogramBars, levelsOf } from './histogram';

const line = (minute: number, level: string | null, message = 'm', labels: Record<string, string> = {}) => ({
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  level,
  message,
  labels,
});
const from = Date.UTC(2026, 0, 1, 0, 0);

describe('histogramBars', () => {
  it("turns the server's buckets into bars at epoch milliseconds", () => {
    expect(
      histogramBars([
        { start: new Date(from).toISOString(), count: 1200, errors: 300 },
        { start: new Date(from + 600_000).toISOString(), count: 0, errors: 0 },
      ]),
    ).toEqual([
      { start: from, count: 1200, errors: 300 },
      { start: from + 600_000, count: 0, errors: 0 },
    ]);
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
