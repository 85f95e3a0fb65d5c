import { openConnection } from './connections.js';
import { ActionFailure, type PlaybookActionType } from './types.js';

interface PrometheusAnswer {
  status?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

/** One row per series: its labels and its value (a number), as the ecosystem's views read them. */
function rowsOf(data: PrometheusAnswer['data']): Record<string, unknown>[] {
  const result = data?.result;
  if (data?.resultType === 'scalar' || data?.resultType === 'string') {
    const pair = result as [number, string] | undefined;
    return pair ? [{ value: Number(pair[1]), timestamp: pair[0] }] : [];
  }
  if (!Array.isArray(result)) return [];
  return (
    result as { metric?: Record<string, string>; value?: [number, string]; values?: [number, string][] }[]
  ).map((series) => {
    const last = series.value ?? series.values?.[series.values.length - 1];
    return {
      ...(series.metric ?? {}),
      value: last ? Number(last[1]) : null,
      ...(series.values ? { values: series.values.map(([at, value]) => [at, Number(value)]) } : {}),
    };
  });
}

/**
 * `prometheus`: a PromQL `query` against a Prometheus `url` or `connection` (its URL and basic
 * credentials): an instant query, or a range query when `range` (`start`, `end`, `step`) is given.
 * The result keeps the answer's `resultType`, the raw `result` and `rows` (labels + value).
 * A Prometheus error (bad query, unreachable) fails the action with its message.
 */
export const prometheusAction: PlaybookActionType = {
  type: 'prometheus',
  async run(spec, context) {
    const connection = await openConnection(spec, context);
    const base = (typeof spec.url === 'string' && spec.url !== '' ? spec.url : connection?.url) ?? '';
    const query = typeof spec.query === 'string' ? spec.query.trim() : '';
    if (base === '') throw new ActionFailure('prometheus: url or connection is required');
    if (query === '') throw new ActionFailure('prometheus: query is required');
    let endpoint: URL;
    try {
      endpoint = new URL(base);
    } catch {
      throw new ActionFailure('prometheus: url is not a URL');
    }
    const range =
      spec.range && typeof spec.range === 'object' ? (spec.range as Record<string, unknown>) : undefined;
    endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/api/v1/${range ? 'query_range' : 'query'}`;
    const form = new URLSearchParams({ query });
    if (range) {
      for (const key of ['start', 'end', 'step'] as const) {
        if (range[key] === undefined || range[key] === '')
          throw new ActionFailure(`prometheus: range.${key} is required for a range query`);
        form.set(key, String(range[key]));
      }
    }
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const username = connection?.username ?? '';
    if (username !== '') {
      headers.authorization = `Basic ${Buffer.from(`${username}:${connection?.password ?? ''}`).toString('base64')}`;
    }
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(context.timeoutMs)]);
    let answer: PrometheusAnswer;
    let status: number;
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body: form.toString(), signal });
      status = response.status;
      answer = (await response.json().catch(() => ({}))) as PrometheusAnswer;
    } catch (error) {
      const reason = signal.aborted ? String(signal.reason ?? 'aborted') : (error as Error).message;
      throw new ActionFailure(`prometheus: ${endpoint.origin}: ${reason}`);
    }
    if (answer.status !== 'success') {
      throw new ActionFailure(`prometheus: ${answer.error ?? `answered ${status}`}`, {
        result: { status, error: answer.error ?? null },
      });
    }
    return {
      result: {
        query,
        resultType: answer.data?.resultType ?? null,
        result: answer.data?.result ?? null,
        rows: rowsOf(answer.data),
      },
    };
  },
};
