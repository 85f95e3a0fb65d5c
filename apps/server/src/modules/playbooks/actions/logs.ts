import {
  logsRequestSchema,
  type LogLine,
  type LogsRequest,
  type PlaybookLogsActionResult,
} from '@opsdeck/contracts';
import { HttpError } from '../../../platform/http/errors.js';
import { searchLogs } from '../../logs/index.js';
import { createConnectionResolver, createValueFromResolver } from '../../resources/index.js';
import { parseDurationMs } from '../durations.js';
import { ActionFailure, type PlaybookActionType } from './types.js';

/** The ecosystem's per-backend blocks; their request fields (query, limit, ...) are read here. */
const BACKEND_BLOCKS = ['loki', 'openSearch', 'cloudWatch'] as const;
/** Fields of those blocks that describe an inline backend rather than a request. */
const INLINE_BACKEND_FIELDS = ['baseURL', 'url', 'address', 'connection', 'username', 'password', 'index'];
const REQUEST_FIELDS = ['query', 'limit', 'since', 'start', 'end', 'direction'] as const;

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * A time as the ecosystem's logs actions take it: an ISO time, a Unix epoch (seconds,
 * milliseconds or nanoseconds, told apart by size) or date math from now (`now`, `now-1h`,
 * `now-2d+30m`, rounded down with `/m`, `/h` or `/d`).
 */
export function parseLogTime(value: string, now: Date): Date | undefined {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const number = Number(text);
    const ms =
      number >= 1e17 ? number / 1e6 : number >= 1e14 ? number / 1e3 : number >= 1e11 ? number : number * 1000;
    return new Date(Math.floor(ms));
  }
  const math = /^now((?:\s*[+-]\s*\d+\s*[smhdw])*)(?:\/([smhd]))?$/.exec(text);
  if (math) {
    let at = now.getTime();
    for (const step of math[1].matchAll(/([+-])\s*(\d+)\s*([smhdw])/g)) {
      at += (step[1] === '-' ? -1 : 1) * Number(step[2]) * UNIT_MS[step[3]];
    }
    if (math[2]) at -= at % UNIT_MS[math[2]];
    return new Date(at);
  }
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const out = String(value).trim();
  return out === '' ? undefined : out;
}

/** The request fields: the block's top level, overridden by the ecosystem's `loki`/`openSearch` block. */
function requestFields(spec: Record<string, unknown>): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  for (const key of REQUEST_FIELDS) fields[key] = text(spec[key]);
  for (const blockName of BACKEND_BLOCKS) {
    const block = spec[blockName];
    if (block === undefined || block === null) continue;
    if (blockName === 'cloudWatch')
      throw new ActionFailure('logs.cloudWatch: CloudWatch needs AWS and is not supported here');
    if (typeof block !== 'object' || Array.isArray(block))
      throw new ActionFailure(`logs.${blockName} must be a mapping`);
    const inline = INLINE_BACKEND_FIELDS.find((key) => (block as Record<string, unknown>)[key] !== undefined);
    if (inline)
      throw new ActionFailure(
        `logs.${blockName}.${inline}: inline backends are not supported here; create a LoggingBackend and name it in logs.name`,
      );
    for (const key of REQUEST_FIELDS) {
      const value = text((block as Record<string, unknown>)[key]);
      if (value !== undefined) fields[key] = value;
    }
  }
  return fields;
}

/** One line per log line for the `logs.txt` artifact. */
function asText(lines: LogLine[]): string {
  return lines
    .map((line) => `${line.timestamp} ${(line.level ?? '-').toUpperCase()} ${line.message}`)
    .join('\n');
}

/**
 * `logs`: reads logs through the logs module's search (the same backends and rules as
 * `POST /api/logs`): a logging backend by `name`, or the logs of a component or config item by
 * `id` (by default the run's component or config item), with `query`, `start`/`end` (ISO,
 * epoch or `now-1h`), `since` (a duration before `end`), `limit` and `direction`
 * (`backward`, newest first, by default; `forward`, oldest first).
 */
export const logsAction: PlaybookActionType = {
  type: 'logs',
  async run(spec, context) {
    const fields = requestFields(spec);
    const now = new Date();
    const time = (key: 'start' | 'end'): string | undefined => {
      const value = fields[key];
      if (value === undefined) return undefined;
      const parsed = parseLogTime(value, now);
      if (!parsed)
        throw new ActionFailure(
          `logs.${key} must be an ISO time, a Unix epoch or date math such as now-1h: ${value}`,
        );
      return parsed.toISOString();
    };
    const end = time('end');
    let start = time('start');
    if (start === undefined && fields.since !== undefined) {
      const sinceMs = parseDurationMs(
        fields.since.replace(/(\d+)w/g, (_all, weeks: string) => `${Number(weeks) * 7}d`),
      );
      if (sinceMs === undefined)
        throw new ActionFailure(`logs.since must be a duration such as 15m or 2h: ${fields.since}`);
      start = new Date((end ? Date.parse(end) : now.getTime()) - sinceMs).toISOString();
    }
    const direction = fields.direction ?? 'backward';
    if (direction !== 'backward' && direction !== 'forward')
      throw new ActionFailure('logs.direction must be backward or forward');
    const name = text(spec.name) ?? text(spec.backend);
    const id =
      text(spec.id) ?? (name ? undefined : (context.resource?.componentId ?? context.resource?.configId));
    const parsed = logsRequestSchema.safeParse({
      name,
      id,
      query: fields.query,
      start,
      end: end ?? (start ? now.toISOString() : undefined),
      limit: fields.limit,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length > 0 ? issue.path.join('.') : 'name';
      const message =
        field === 'name' && name === undefined && id === undefined
          ? 'name (a logging backend) or id (a component or config item) is required; the run has no component or config item'
          : issue.message;
      throw new ActionFailure(`logs.${field}: ${message}`);
    }
    const request: LogsRequest = parsed.data;
    const resolveConnection = createConnectionResolver(
      context.pool,
      context.secrets,
      createValueFromResolver(context.pool, context.secrets),
    );
    let answer;
    try {
      answer = await searchLogs(context.pool, request, {
        resolveConnection,
        signal: AbortSignal.any([context.signal, AbortSignal.timeout(context.timeoutMs)]),
      });
    } catch (error) {
      if (error instanceof HttpError)
        throw new ActionFailure(`logs: ${error.field ? `${error.field}: ` : ''}${error.message}`);
      throw new ActionFailure(`logs: ${error instanceof Error ? error.message : String(error)}`);
    }
    const lines = direction === 'forward' ? [...answer.results].reverse() : answer.results;
    return {
      result: {
        name: request.name ?? null,
        id: request.id ?? null,
        query: request.query ?? '',
        start: request.start ?? null,
        end: request.end ?? null,
        direction,
        total: answer.total,
        count: lines.length,
        logs: lines,
      } satisfies PlaybookLogsActionResult,
      artifacts: [{ filename: 'logs.txt', contentType: 'text/plain', content: Buffer.from(asText(lines)) }],
    };
  },
};
