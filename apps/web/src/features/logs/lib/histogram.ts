import type { LogHistogramBucket, LogLine } from '@opsdeck/contracts';

/** One bar of the histogram as the chart draws it. */
export interface HistogramBucket {
  /** Start of the bucket, epoch milliseconds. */
  start: number;
  count: number;
  errors: number;
}

/**
 * The server's histogram (every line of the range that matches the query, not only the lines
 * returned) as the chart's bars.
 */
export function histogramBars(histogram: readonly LogHistogramBucket[]): HistogramBucket[] {
  return histogram.map((bucket) => ({
    start: Date.parse(bucket.start),
    count: bucket.count,
    errors: bucket.errors,
  }));
}

/** The levels present in the lines, most severe first, for the level filter. */
const LEVEL_ORDER = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
export function levelsOf(lines: readonly LogLine[]): string[] {
  const present = new Set(lines.map((line) => line.level).filter((level): level is string => level !== null));
  return [...present].sort((a, b) => {
    const rank = (level: string) =>
      LEVEL_ORDER.includes(level) ? LEVEL_ORDER.indexOf(level) : LEVEL_ORDER.length;
    return rank(a) - rank(b) || a.localeCompare(b);
  });
}

/** Lines kept by the page's filters: a level and text found in the message or a label. */
export function filterLines(lines: readonly LogLine[], level: string, text: string): LogLine[] {
  const needle = text.trim().toLowerCase();
  return lines.filter(
    (line) =>
      (level === '' || line.level === level) &&
      (needle === '' ||
        line.message.toLowerCase().includes(needle) ||
        Object.entries(line.labels).some(([key, value]) => `${key}=${value}`.toLowerCase().includes(needle))),
  );
}
