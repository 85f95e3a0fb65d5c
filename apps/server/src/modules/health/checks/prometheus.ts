import { z } from 'zod';
import type { JsonValue } from '../../../expressions/index.js';
import { loadExpressions } from './expression-engine.js';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { apiUrl, ApiCallError, callJsonApi } from './http-api.js';
import {
  baseSpecShape,
  connectionShape,
  parseSpec,
  resolveConnectionDetails,
  sanitizeUrl,
  textField,
} from './spec-fields.js';
import type { CheckContext, CheckResult, CheckType } from './types.js';

const prometheusSpecSchema = z
  .looseObject({
    ...baseSpecShape,
    ...connectionShape,
    /** Deprecated in the ecosystem in favour of `url`; still accepted. */
    host: textField.optional(),
    query: textField.pipe(z.string().refine((text) => text.trim() !== '', 'a query is required')),
  })
  .superRefine((spec, ctx) => {
    if (spec.url === undefined && spec.host === undefined && spec.connection === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'a url, host or connection is required' });
    }
  });

export type PrometheusCheckSpec = z.infer<typeof prometheusSpecSchema>;

type PrometheusSample = [number, string];

interface PrometheusSeries {
  metric?: Record<string, string>;
  value?: PrometheusSample;
  values?: PrometheusSample[];
}

interface PrometheusAnswer {
  status?: string;
  errorType?: string;
  error?: string;
  warnings?: string[];
  data?: { resultType?: string; result?: unknown };
}

function sampleValue(sample: PrometheusSample | undefined): number | string | null {
  if (!Array.isArray(sample) || sample.length < 2) return null;
  const number = Number(sample[1]);
  return Number.isNaN(number) && sample[1] !== 'NaN' ? String(sample[1]) : number;
}

/**
 * One row per series, as the ecosystem exposes them: the series' labels plus `value` (a matrix
 * gives its latest sample); a scalar or string answer is one row with only `value`.
 */
function rowsOf(resultType: string, result: unknown): Array<Record<string, JsonValue>> {
  if (resultType === 'scalar' || resultType === 'string') {
    return [{ value: sampleValue(result as PrometheusSample) }];
  }
  if (!Array.isArray(result)) return [];
  return (result as PrometheusSeries[]).map((series) => {
    const latest =
      resultType === 'matrix' ? series.values?.[series.values.length - 1] : (series.value ?? undefined);
    // Labels first, then value, so a label called "value" cannot hide the sample.
    return { ...(series.metric ?? {}), value: sampleValue(latest) };
  });
}

async function runPrometheusCheck(spec: PrometheusCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const details = await resolveConnectionDetails({ ...spec, url: spec.url ?? spec.host }, ctx);
  if (details.url === '') return invalidResult('no url, host or connection specified');
  let base: URL;
  try {
    base = new URL(details.url);
  } catch {
    return invalidResult(`invalid url '${sanitizeUrl(details.url)}'`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    return invalidResult(`invalid url, the scheme must be http or https '${sanitizeUrl(details.url)}'`);
  }
  let query = spec.query;
  if (query.includes('{{')) {
    try {
      const { renderTemplate } = await loadExpressions();
      query = renderTemplate(query, {
        canary: ctx.canary,
        check: { name: spec.name, description: spec.description ?? '', labels: spec.labels ?? {} },
      });
    } catch (error) {
      return invalidResult(`failed to template the query: ${errorText(error)}`);
    }
  }
  const url = apiUrl(base.toString(), '/api/v1/query');
  url.searchParams.set('query', query);
  const credentials = {
    username: details.username || decodeURIComponent(base.username),
    password: details.password || decodeURIComponent(base.password),
  };
  const started = performance.now();
  let answer: PrometheusAnswer;
  let status: number;
  try {
    const call = await callJsonApi(url, ctx, credentials);
    status = call.status;
    answer = (call.body ?? {}) as PrometheusAnswer;
    if (call.body === undefined) {
      return failing(
        passing({ duration: elapsedSince(started) }),
        `prometheus answered ${status} without JSON: ${call.text.slice(0, 200)}`,
      );
    }
  } catch (error) {
    if (error instanceof ApiCallError)
      return failing(passing({ duration: elapsedSince(started) }), error.message);
    throw error;
  }
  const duration = elapsedSince(started);
  if (answer.status !== 'success') {
    const reason = answer.error
      ? `${answer.errorType ?? 'error'}: ${answer.error}`
      : `prometheus answered ${status}`;
    return failing(passing({ duration, detail: { query, status } }), reason);
  }
  const resultType = answer.data?.resultType ?? 'vector';
  const results = rowsOf(resultType, answer.data?.result);
  const firstResult = results[0] ?? {};
  const value = results.length > 0 ? (firstResult.value ?? 0) : 0;
  return passing({
    duration,
    data: { results, value, firstResult, resultType },
    detail: { query, resultType, results, warnings: answer.warnings ?? [] },
    empty: results.length === 0,
  });
}

export const prometheusCheck: CheckType<PrometheusCheckSpec> = {
  type: 'prometheus',
  specKey: 'prometheus',
  schema: prometheusSpecSchema,
  parse: (raw) => parseSpec(prometheusSpecSchema, raw, 'prometheus'),
  endpoint: (spec) => sanitizeUrl(spec.url ?? spec.host ?? spec.connection ?? ''),
  run: runPrometheusCheck,
};
