import type { LogHistogramBucket, LogLine } from '@opsdeck/contracts';

/**
 * The histogram of a search: `buckets` bars of equal whole-millisecond width from the range's
 * start (the last may reach a little past its end), counting every matching line of the range.
 * Each backend fills it where it can count: the text backends over every line they matched, Loki
 * with a `count_over_time` metric query, OpenSearch with a `date_histogram` aggregation.
 */
export interface HistogramFrame {
  /** Epoch milliseconds of the first bucket's start. */
  start: number;
  /** Width of one bucket in milliseconds (a whole number, at least 1). */
  width: number;
  buckets: number;
}

export function histogramFrame(start: Date, end: Date, buckets: number): HistogramFrame {
  const span = Math.max(0, end.getTime() - start.getTime());
  return { start: start.getTime(), width: Math.max(1, Math.ceil(span / buckets)), buckets };
}

/** The bucket a time falls in, or undefined outside the frame. */
export function bucketIndex(frame: HistogramFrame, time: number): number | undefined {
  if (Number.isNaN(time) || time < frame.start) return undefined;
  const index = Math.floor((time - frame.start) / frame.width);
  return index < frame.buckets ? index : undefined;
}

/** Levels the histogram counts as errors (stacked in red on the page). */
export function isErrorLevel(level: string | null | undefined): boolean {
  return level === 'error' || level === 'fatal';
}

/** Counts of one search, filled bucket by bucket, answered with ISO starts. */
export class HistogramCounter {
  private readonly counts: number[];
  private readonly errors: number[];

  constructor(readonly frame: HistogramFrame) {
    this.counts = new Array<number>(frame.buckets).fill(0);
    this.errors = new Array<number>(frame.buckets).fill(0);
  }

  /** Adds `count` lines (of which `errors` are errors) at a time; times outside the frame are dropped. */
  add(time: number, count = 1, errors = 0): void {
    const index = bucketIndex(this.frame, time);
    if (index === undefined) return;
    this.counts[index] += count;
    this.errors[index] += errors;
  }

  /** Adds counts to a bucket by its index. */
  addAt(index: number, count: number, errors = 0): void {
    if (index < 0 || index >= this.frame.buckets) return;
    this.counts[index] += count;
    this.errors[index] += errors;
  }

  addLine(line: LogLine): void {
    this.add(Date.parse(line.timestamp), 1, isErrorLevel(line.level) ? 1 : 0);
  }

  total(): number {
    return this.counts.reduce((sum, count) => sum + count, 0);
  }

  buckets(): LogHistogramBucket[] {
    return this.counts.map((count, index) => ({
      start: new Date(this.frame.start + index * this.frame.width).toISOString(),
      count,
      errors: this.errors[index],
    }));
  }
}
