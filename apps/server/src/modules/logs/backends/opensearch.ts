import type { LogLine } from '@opsdeck/contracts';
import { HistogramCounter, histogramFrame, type HistogramFrame } from '../histogram.js';
import { labelsFrom, normaliseLevel, parseTimestamp } from '../line-filter.js';
import { remoteJson, remoteTarget } from './remote.js';
import { LogBackendError, type LogBackend } from './types.js';

interface SearchHit {
  _id?: string;
  _source?: Record<string, unknown>;
}

/** Level values counted as errors, as a keyword field may hold them (a text field matches them all). */
const ERROR_LEVELS = ['error', 'ERROR', 'Error', 'err', 'ERR', 'fatal', 'FATAL', 'Fatal'];

/**
 * The histogram aggregation: a `date_histogram` of the bucket width, offset so its keys start at
 * the range's start, empty buckets kept, and the error lines of each bucket (a `filter` sub-aggregation).
 */
export function openSearchHistogramAggs(
  frame: HistogramFrame,
  timestampField: string,
  levelField: string,
): Record<string, unknown> {
  return {
    histogram: {
      date_histogram: {
        field: timestampField,
        fixed_interval: `${frame.width}ms`,
        offset: `${frame.start % frame.width}ms`,
        min_doc_count: 0,
        extended_bounds: { min: frame.start, max: frame.start + frame.width * frame.buckets - 1 },
      },
      aggs: { errors: { filter: { terms: { [levelField]: ERROR_LEVELS } } } },
    },
  };
}

/** The `_search` body: the range on the timestamp field, label terms, the query as query_string. */
export function openSearchBody(
  search: { query: string; start: Date; end: Date; limit: number },
  labels: Record<string, string>,
  timestampField: string,
  aggs?: Record<string, unknown>,
): Record<string, unknown> {
  const filter: unknown[] = [
    { range: { [timestampField]: { gte: search.start.toISOString(), lte: search.end.toISOString() } } },
    ...Object.entries(labels).map(([key, value]) => ({ term: { [key]: value } })),
  ];
  const must = search.query.trim() === '' ? [] : [{ query_string: { query: search.query.trim() } }];
  return {
    size: search.limit,
    track_total_hits: true,
    sort: [{ [timestampField]: { order: 'desc' } }],
    query: { bool: { filter, must } },
    ...(aggs ? { aggs } : {}),
  };
}

/** OpenSearch / Elasticsearch `POST /{index}/_search`. */
export const openSearchBackend: LogBackend = {
  type: 'opensearch',
  async search(spec, search, context) {
    const target = await remoteTarget(spec, 'opensearch', context);
    const index = typeof spec.index === 'string' ? spec.index : '';
    if (index === '') throw new LogBackendError('opensearch.index is required', 422);
    const timestampField = typeof spec.timestampField === 'string' ? spec.timestampField : '@timestamp';
    const messageField = typeof spec.messageField === 'string' ? spec.messageField : 'message';
    const levelField = typeof spec.levelField === 'string' ? spec.levelField : 'level';
    const labels = { ...((spec.labels as Record<string, string> | undefined) ?? {}), ...search.labels };
    const frame = histogramFrame(search.start, search.end, search.buckets);
    const body = (await remoteJson(
      'OpenSearch',
      `${target.url}/${encodeURIComponent(index)}/_search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...target.headers },
        body: JSON.stringify(
          openSearchBody(
            search,
            labels,
            timestampField,
            openSearchHistogramAggs(frame, timestampField, levelField),
          ),
        ),
      },
      context.signal,
    )) as {
      hits?: { total?: number | { value?: number }; hits?: SearchHit[] };
      aggregations?: {
        histogram?: { buckets?: { key?: number; doc_count?: number; errors?: { doc_count?: number } }[] };
      };
    };
    const histogram = new HistogramCounter(frame);
    for (const bucket of body.aggregations?.histogram?.buckets ?? [])
      if (typeof bucket.key === 'number')
        histogram.add(bucket.key, bucket.doc_count ?? 0, bucket.errors?.doc_count ?? 0);
    const hits = body.hits?.hits ?? [];
    const results: LogLine[] = hits.map((hit) => {
      const source = hit._source ?? {};
      return {
        timestamp: (parseTimestamp(source[timestampField]) ?? new Date(0)).toISOString(),
        message: typeof source[messageField] === 'string' ? source[messageField] : JSON.stringify(source),
        level: normaliseLevel(source[levelField]),
        labels: labelsFrom(source, new Set([timestampField, messageField, levelField])),
      };
    });
    const total = body.hits?.total;
    return {
      total: typeof total === 'number' ? total : (total?.value ?? results.length),
      results: results.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp)),
      histogram: histogram.buckets(),
    };
  },
};
