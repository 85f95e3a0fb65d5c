/**
 * `elasticsearch` and `opensearch`: runs `query` (a search body, JSON) against `index` over the
 * HTTP search API and compares the hits with `results` (the expected count), as the ecosystem's
 * checks do. Credentials come from `username`/`password` or a connection.
 */
import { z } from 'zod';
import { loadExpressions } from './expression-engine.js';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  connectionShape,
  integerField,
  parseSpec,
  resolveConnectionDetails,
  sanitizeUrl,
  textField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const searchSpecSchema = z.looseObject({
  ...baseSpecShape,
  ...connectionShape,
  index: textField.pipe(z.string().min(1, 'an index is required')),
  query: textField.optional(),
  results: integerField.optional(),
});
export type SearchCheckSpec = z.infer<typeof searchSpecSchema>;

async function runSearchCheck(spec: SearchCheckSpec, ctx: CheckContext, label: string): Promise<CheckResult> {
  let details: Awaited<ReturnType<typeof resolveConnectionDetails>>;
  try {
    details = await resolveConnectionDetails(spec, ctx);
  } catch (error) {
    return invalidResult(errorText(error));
  }
  if (details.url === '') return invalidResult(`no url or connection specified for the ${label} check`);
  const base = details.url.replace(/\/+$/, '');
  const target = `${base}/${encodeURIComponent(spec.index)}/_search`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (details.username || details.password)
    headers.authorization = `Basic ${Buffer.from(`${details.username}:${details.password}`).toString('base64')}`;
  const started = performance.now();
  let status: number;
  let body: { hits?: { total?: number | { value?: number }; hits?: unknown[] }; error?: unknown };
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers,
      body: spec.query ?? '{"query":{"match_all":{}}}',
      signal: ctx.signal,
    });
    status = response.status;
    body = (await response.json()) as typeof body;
  } catch (error) {
    return failing(
      passing({ duration: elapsedSince(started) }),
      `${label} search at ${sanitizeUrl(target)} failed: ${errorText(error)}`,
    );
  }
  const duration = elapsedSince(started);
  if (status >= 400) {
    const reason = typeof body.error === 'object' ? JSON.stringify(body.error) : String(body.error ?? status);
    return failing(passing({ duration }), `${label} answered ${status}: ${reason.slice(0, 300)}`);
  }
  const total = body.hits?.total;
  const count = typeof total === 'number' ? total : (total?.value ?? body.hits?.hits?.length ?? 0);
  const { toJsonValue } = await loadExpressions();
  const results = { count, hits: toJsonValue(body.hits?.hits ?? []) };
  const result = passing({ duration, data: { results }, detail: { count }, empty: count === 0 });
  if (spec.results !== undefined && count !== spec.results)
    return failing(result, `Query return ${count} rows, expected ${spec.results}`);
  return result;
}

function searchCheck(type: 'elasticsearch' | 'opensearch'): CheckType<SearchCheckSpec> {
  return {
    type,
    specKey: type,
    schema: searchSpecSchema,
    parse: (raw) => {
      const spec = parseSpec(searchSpecSchema, raw, type);
      if (spec.query !== undefined) {
        try {
          JSON.parse(spec.query);
        } catch (error) {
          throw new CheckSpecError(`invalid ${type} check: query: not JSON: ${errorText(error)}`);
        }
      }
      return spec;
    },
    endpoint: (spec) => sanitizeUrl(`${spec.url ?? spec.connection ?? ''}/${spec.index}`),
    run: (spec, ctx) => runSearchCheck(spec, ctx, type),
  };
}

export const elasticsearchCheck = searchCheck('elasticsearch');
export const opensearchCheck = searchCheck('opensearch');
