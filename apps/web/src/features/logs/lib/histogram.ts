import type { LogLine } from '@opsdeck/contracts';

/** Bars of the histogram over a range. */
export const HISTOGRAM_BUCKETS = 30;

export interface HistogramBucket {
  /** Start of the bucket, epoch milliseconds. */
  start: number;
  count: number;
  errors: number;
}

/** Counts of lines (and of error lines) in equal buckets from `from` to `to`. */
export function logHistogram(
  lines: readonly LogLine[],
  from: number,
  to: number,
  buckets = HISTOGRAM_BUCKETS,
): HistogramBucket[] {
  const width = Math.max(1, (to - from) / buckets);
  const result = Array.from({ length: buckets }, (_, index) => ({
    start: from + index * width,
    count: 0,
    errors: 0,
  }));
  for (const line of lines) {
    const time = Date.parse(line.timestamp);
    if (Number.isNaN(time) || time < from || time > to) continue;
    const bucket = result[Math.min(buckets - 1, Math.floor((time - from) / width))];
    bucket.count++;
    if (line.level === 'error' || line.level === 'fatal') bucket.errors++;
  }
  return result;
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
