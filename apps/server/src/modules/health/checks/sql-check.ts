import { z } from 'zod';
import type { JsonValue } from '../../../expressions/index.js';
import { loadExpressions } from './expression-engine.js';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  connectionShape,
  integerField,
  resolveConnectionDetails,
  sanitizeUrl,
  textField,
} from './spec-fields.js';
import type { CheckContext, CheckResult } from './types.js';

/** The ecosystem's SQLCheck, shared by postgres and mysql. */
export const sqlSpecSchema = z.looseObject({
  ...baseSpecShape,
  ...connectionShape,
  query: textField.optional(),
  /** Minimum number of rows the query must return. */
  results: integerField.optional(),
  /** Seconds; the ecosystem's default is 60. */
  timeout: integerField.optional(),
});

export type SqlCheckSpec = z.infer<typeof sqlSpecSchema>;

const DEFAULT_QUERY = 'SELECT 1';
const DEFAULT_TIMEOUT_SECONDS = 60;
/** Rows beyond this are counted but not kept for expressions. */
const MAX_ROWS_KEPT = 1_000;

export interface SqlConnectionTarget {
  url: string;
  username: string;
  password: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** A driver runs one query and returns its rows as plain objects. */
export type SqlDriver = (target: SqlConnectionTarget, query: string) => Promise<Record<string, unknown>[]>;

export function sqlEndpoint(spec: SqlCheckSpec): string {
  const text = spec.url ?? spec.connection ?? spec.name;
  // libpq key=value strings and Go DSNs are no URLs: their passwords are masked here.
  if (/^\s*\w+\s*=/.test(text)) return text.replace(/(password\s*=\s*)('(?:\\.|[^'])*'|\S*)/gi, '$1***');
  if (/@(tcp|unix)\(/i.test(text)) return text.replace(/^((?:mysql:\/\/)?[^:@/]*):[^@]*@/i, '$1:***@');
  return sanitizeUrl(text);
}

/** Runs the spec's query through a driver and applies `results` and `markFailOnEmpty`. */
export async function runSqlCheck(
  spec: SqlCheckSpec,
  ctx: CheckContext,
  driver: SqlDriver,
  label: string,
): Promise<CheckResult> {
  const details = await resolveConnectionDetails(spec, ctx);
  if (details.url === '') return invalidResult(`no url or connection specified for the ${label} check`);
  const query = spec.query?.trim() ? spec.query : DEFAULT_QUERY;
  const timeoutMs = Math.min((spec.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1_000, ctx.timeoutMs);
  const started = performance.now();
  let rows: Record<string, unknown>[];
  try {
    rows = await driver(
      {
        url: details.url,
        username: details.username,
        password: details.password,
        timeoutMs,
        signal: ctx.signal,
      },
      query,
    );
  } catch (error) {
    const reason = ctx.signal.aborted ? `query timed out after ${timeoutMs}ms` : errorText(error);
    // Drivers sometimes echo the connection string; credentials never reach the message.
    const safeReason = details.password === '' ? reason : reason.replaceAll(details.password, '###');
    return failing(
      passing({ duration: elapsedSince(started), data: { results: { rows: [], count: 0 } } }),
      safeReason,
    );
  }
  const count = rows.length;
  const { toJsonValue } = await loadExpressions();
  const kept = rows.slice(0, MAX_ROWS_KEPT).map((row) => toJsonValue(row));
  const results: JsonValue = { rows: kept, count };
  const result = passing({
    duration: elapsedSince(started),
    data: { results },
    detail: results,
    empty: count === 0,
  });
  if (count === 0 && spec.markFailOnEmpty) return failing(result, 'Query returned empty result');
  if (spec.results !== undefined && count < spec.results) {
    return failing(result, `Query returned ${count} rows, expected ${spec.results}`);
  }
  return result;
}
