import type { LogLine } from '@opsdeck/contracts';
import { HistogramCounter, histogramFrame, isErrorLevel } from '../histogram.js';
import { normaliseLevel } from '../line-filter.js';
import { remoteJson, remoteTarget } from './remote.js';
import { LogBackendError, type LogBackend } from './types.js';

interface LokiStream {
  stream?: Record<string, string>;
  values?: [string, string][];
}

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The LogQL of a search: a query that starts with `{` is LogQL already; otherwise the stream
 * selector comes from the labels and the query text becomes a line filter (`|= "text"`).
 */
export function lokiQuery(query: string, labels: Record<string, string>): string {
  const text = query.trim();
  if (text.startsWith('{')) return text;
  const entries = Object.entries(labels);
  if (entries.length === 0)
    throw new LogBackendError(
      'Loki needs a stream selector: write a LogQL query such as {app="web"}, or give the backend or the log selector labels',
      422,
    );
  const selector = `{${entries.map(([key, value]) => `${key}=${quote(value)}`).join(',')}}`;
  return text === '' ? selector : `${selector} |= ${quote(text)}`;
}

interface LokiSeries {
  metric?: Record<string, string>;
  values?: [number | string, string][];
}

/**
 * The metric query counting a log query's lines per bucket, by level (a stream label `level`, or
 * Loki's `detected_level`): `sum by (level, detected_level) (count_over_time(<query> [<width>ms]))`.
 */
export function lokiCountQuery(logQuery: string, widthMs: number): string {
  return `sum by (level, detected_level) (count_over_time(${logQuery} [${widthMs}ms]))`;
}

/** Loki's `GET /loki/api/v1/query_range`: the newest lines (streams), and their counts over the range (a matrix). */
export const lokiBackend: LogBackend = {
  type: 'loki',
  async search(spec, search, context) {
    const target = await remoteTarget(spec, 'loki', context);
    const labels = { ...((spec.labels as Record<string, string> | undefined) ?? {}), ...search.labels };
    const query = lokiQuery(search.query, labels);
    const frame = histogramFrame(search.start, search.end, search.buckets);
    // count_over_time at t counts (t - width, t]: evaluated at each bucket's end, from the first.
    const countParams = new URLSearchParams({
      query: lokiCountQuery(query, frame.width),
      start: `${BigInt(frame.start + frame.width) * 1_000_000n}`,
      end: `${BigInt(frame.start + frame.width * frame.buckets) * 1_000_000n}`,
      step: `${frame.width / 1000}`,
    });
    const counted = remoteJson(
      'Loki',
      `${target.url}/loki/api/v1/query_range?${countParams.toString()}`,
      { headers: { accept: 'application/json', ...target.headers } },
      context.signal,
    ) as Promise<{ status?: string; data?: { resultType?: string; result?: LokiSeries[] } }>;
    // Awaited below: a refusal of the log query is reported first.
    counted.catch(() => undefined);
    const params = new URLSearchParams({
      query,
      start: `${BigInt(search.start.getTime()) * 1_000_000n}`,
      end: `${BigInt(search.end.getTime()) * 1_000_000n}`,
      limit: String(search.limit),
      direction: 'backward',
    });
    const body = (await remoteJson(
      'Loki',
      `${target.url}/loki/api/v1/query_range?${params.toString()}`,
      { headers: { accept: 'application/json', ...target.headers } },
      context.signal,
    )) as { status?: string; data?: { resultType?: string; result?: LokiStream[] } };
    if (body.status !== 'success' || body.data?.resultType !== 'streams')
      throw new LogBackendError(
        'Loki answered without log streams (is the query a log query, not a metric query?)',
      );
    const lines: LogLine[] = [];
    for (const stream of body.data.result ?? []) {
      const streamLabels = stream.stream ?? {};
      for (const [nanos, message] of stream.values ?? []) {
        lines.push({
          timestamp: new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString(),
          message,
          level: normaliseLevel(streamLabels.level ?? streamLabels.detected_level),
          labels: streamLabels,
        });
      }
    }
    lines.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
    const counts = await counted;
    if (counts.status !== 'success' || counts.data?.resultType !== 'matrix')
      throw new LogBackendError('Loki answered the line count without a matrix');
    const histogram = new HistogramCounter(frame);
    for (const series of counts.data.result ?? []) {
      const level = normaliseLevel(series.metric?.level ?? series.metric?.detected_level);
      for (const [seconds, value] of series.values ?? []) {
        const count = Number(value);
        if (!Number.isFinite(count)) continue;
        // The point at a bucket's end counts that bucket.
        const index = Math.round((Number(seconds) * 1000 - frame.start) / frame.width) - 1;
        histogram.addAt(index, count, isErrorLevel(level) ? count : 0);
      }
    }
    // Every matching line is counted by the metric query; the log query returns at most `limit`.
    return {
      total: Math.max(histogram.total(), lines.length),
      results: lines.slice(0, search.limit),
      histogram: histogram.buckets(),
    };
  },
};
