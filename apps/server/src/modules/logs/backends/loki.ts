import type { LogLine } from '@opsdeck/contracts';
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

/** Loki's `GET /loki/api/v1/query_range` (streams, newest first). */
export const lokiBackend: LogBackend = {
  type: 'loki',
  async search(spec, search, context) {
    const target = await remoteTarget(spec, 'loki', context);
    const labels = { ...((spec.labels as Record<string, string> | undefined) ?? {}), ...search.labels };
    const params = new URLSearchParams({
      query: lokiQuery(search.query, labels),
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
    return { total: lines.length, results: lines.slice(0, search.limit) };
  },
};
