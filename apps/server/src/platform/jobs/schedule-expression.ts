import { CronExpressionParser } from 'cron-parser';
import { parseDuration } from '../time/index.js';

/**
 * A parsed schedule: standard cron (5 fields, or 6 with seconds first), `@every <duration>` with
 * a duration in the one duration grammar (`platform/time`: `30s`, `1m`, `1h30m`, `1d`), or a preset (`@hourly`, `@daily`, `@weekly`,
 * `@monthly`, `@yearly`). Cron expressions may start with `CRON_TZ=<zone>`; otherwise they are
 * evaluated in the given time zone (UTC by default).
 */
export interface ScheduleExpression {
  readonly source: string;
  /**
   * The first run strictly after `now`. Ticks missed while no process was running collapse
   * into the one that is due. `key` (the schedule's name) spreads `@every` schedules over their
   * interval so that many schedules with one interval do not all fire at the same instant.
   */
  nextAfter(now: Date, key: string): Date;
}

export class InvalidScheduleError extends Error {
  constructor(
    readonly schedule: string,
    reason: string,
  ) {
    super(`Invalid schedule "${schedule}": ${reason}`);
    this.name = 'InvalidScheduleError';
  }
}

/** Shortest `@every` interval: ticks are claimed through the database, not a local timer. */
export const MIN_EVERY_INTERVAL_MS = 1000;

const PRESETS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export function parseSchedule(source: string, options: { timezone?: string } = {}): ScheduleExpression {
  const text = source.trim().replace(/\s+/g, ' ');
  if (text === '') {
    throw new InvalidScheduleError(source, 'the schedule is empty');
  }
  if (text.startsWith('@every ')) {
    return everySchedule(source, text.slice('@every '.length));
  }
  let timezone = options.timezone ?? 'UTC';
  let expression = text;
  const zone = /^(?:CRON_)?TZ=(\S+) (.*)$/.exec(text);
  if (zone) {
    timezone = zone[1];
    expression = zone[2];
  }
  if (expression.startsWith('@')) {
    const preset = PRESETS[expression];
    if (!preset) {
      throw new InvalidScheduleError(
        source,
        `unknown preset; use @every <duration>, ${Object.keys(PRESETS).join(', ')}`,
      );
    }
    expression = preset;
  }
  return cronSchedule(source, expression, timezone);
}

function everySchedule(source: string, durationText: string): ScheduleExpression {
  let intervalMs: number;
  try {
    intervalMs = Math.round(parseDuration(durationText));
  } catch (error) {
    throw new InvalidScheduleError(source, (error as Error).message);
  }
  if (intervalMs < MIN_EVERY_INTERVAL_MS) {
    throw new InvalidScheduleError(source, `the interval must be at least ${MIN_EVERY_INTERVAL_MS / 1000}s`);
  }
  return {
    source,
    nextAfter(now, key) {
      const phase = stableHash(key) % intervalMs;
      const elapsed = now.getTime() - phase;
      return new Date(phase + (Math.floor(elapsed / intervalMs) + 1) * intervalMs);
    },
  };
}

function cronSchedule(source: string, expression: string, timezone: string): ScheduleExpression {
  const fields = expression.split(' ').length;
  if (fields !== 5 && fields !== 6) {
    throw new InvalidScheduleError(
      source,
      `a cron expression has 5 fields (minute hour day month weekday) or 6 (seconds first), not ${fields}`,
    );
  }
  const parse = (currentDate: Date) =>
    CronExpressionParser.parse(expression, { currentDate, tz: timezone, strict: false });
  try {
    parse(new Date()).next();
  } catch (error) {
    throw new InvalidScheduleError(source, (error as Error).message);
  }
  return {
    source,
    nextAfter: (now) => parse(now).next().toDate(),
  };
}

/** FNV-1a: a stable, well-spread 32-bit hash (the same phase in every process). */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
