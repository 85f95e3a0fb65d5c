import type { LogLine } from '@opsdeck/contracts';
import type { LogSearch, LogSearchResult } from './backends/types.js';
import { HistogramCounter, histogramFrame } from './histogram.js';

const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** A level as lines write it (`30`, `WARNING`, `Error`) in the words the page filters by. */
export function normaliseLevel(value: unknown): string | null {
  if (typeof value === 'number') return PINO_LEVELS[value] ?? String(value);
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim().toLowerCase();
  if (/^\d+$/.test(text)) return PINO_LEVELS[Number(text)] ?? text;
  if (text === 'warning') return 'warn';
  if (text === 'err') return 'error';
  return text;
}

/** A timestamp from a line: ISO text, epoch milliseconds (or seconds), or undefined. */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return new Date(value < 1e11 ? value * 1000 : value);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return parseTimestamp(Number(value));
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

/**
 * The query of the text backends (files, Opsdeck's, PostgreSQL's): words that must all appear
 * (case-insensitive) in the message or a label value; `key=value` must match a label (or the
 * level) exactly; a leading `-` excludes a word.
 */
export function lineMatcher(query: string): (line: LogLine) => boolean {
  const terms = query
    .trim()
    .split(/\s+/)
    .filter((term) => term !== '');
  if (terms.length === 0) return () => true;
  return (line) =>
    terms.every((term) => {
      const negated = term.startsWith('-') && term.length > 1;
      const body = negated ? term.slice(1) : term;
      const eq = /^([\w.-]+)=(.*)$/.exec(body);
      let hit: boolean;
      if (eq) {
        const [, key, value] = eq;
        hit = key === 'level' ? line.level === value.toLowerCase() : line.labels[key] === value;
      } else {
        const needle = body.toLowerCase();
        hit =
          line.message.toLowerCase().includes(needle) ||
          Object.values(line.labels).some((labelValue) => labelValue.toLowerCase().includes(needle));
      }
      return negated ? !hit : hit;
    });
}

/** Lines in range that match, newest first; all counted (in total and the histogram), `limit` returned. */
export function selectLines(lines: Iterable<LogLine>, search: LogSearch): LogSearchResult {
  const matches = lineMatcher(search.query);
  const from = search.start.getTime();
  const to = search.end.getTime();
  const kept: LogLine[] = [];
  const histogram = new HistogramCounter(histogramFrame(search.start, search.end, search.buckets));
  for (const line of lines) {
    const time = Date.parse(line.timestamp);
    if (time < from || time > to) continue;
    if (!Object.entries(search.labels).every(([key, value]) => line.labels[key] === value)) continue;
    if (matches(line)) {
      kept.push(line);
      histogram.addLine(line);
    }
  }
  kept.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
  return { total: kept.length, results: kept.slice(0, search.limit), histogram: histogram.buckets() };
}

/** Labels from a parsed record's other fields (strings, numbers and booleans only). */
export function labelsFrom(
  record: Record<string, unknown>,
  skip: ReadonlySet<string>,
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (skip.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      labels[key] = String(value);
  }
  return labels;
}

const TIME_KEYS = ['timestamp', '@timestamp', 'time', 'ts'];
const LEVEL_KEYS = ['level', 'severity', 'lvl'];
const MESSAGE_KEYS = ['message', 'msg', 'log'];

/** A JSON line (pino's own shape among others) → a log line, or undefined when it is not JSON. */
export function parseJsonLine(text: string, fallbackTime: Date): LogLine | undefined {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const fields = record as Record<string, unknown>;
  const timeKey = TIME_KEYS.find((key) => key in fields);
  const levelKey = LEVEL_KEYS.find((key) => key in fields);
  const messageKey = MESSAGE_KEYS.find((key) => typeof fields[key] === 'string');
  const timestamp = (timeKey ? parseTimestamp(fields[timeKey]) : undefined) ?? fallbackTime;
  return {
    timestamp: timestamp.toISOString(),
    level: levelKey ? normaliseLevel(fields[levelKey]) : null,
    message: messageKey ? String(fields[messageKey]) : text,
    labels: labelsFrom(fields, new Set([timeKey, levelKey, messageKey].filter((key) => key !== undefined))),
  };
}

/** A line parsed by a regex with named groups (timestamp, level, message; the rest are labels). */
export function parseRegexLine(text: string, pattern: RegExp, fallbackTime: Date): LogLine | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  const groups = match.groups ?? {};
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(groups))
    if (!['timestamp', 'level', 'message'].includes(key) && value !== undefined) labels[key] = value;
  return {
    timestamp: (parseTimestamp(groups.timestamp) ?? fallbackTime).toISOString(),
    level: normaliseLevel(groups.level),
    message: groups.message ?? text,
    labels,
  };
}

const LEADING_TIME =
  /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2}| ?[A-Z]{2,5})?)\s*/;
const LEVEL_WORD = /\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|PANIC|LOG)\b/;

/** A plain text line: a leading timestamp when there is one, a level word when there is one. */
export function parseTextLine(text: string, fallbackTime: Date): LogLine {
  const time = LEADING_TIME.exec(text);
  const level = LEVEL_WORD.exec(text);
  return {
    timestamp: (
      (time ? parseTimestamp(time[1].replace(' ', 'T').replace(/ ?UTC$/, 'Z')) : undefined) ?? fallbackTime
    ).toISOString(),
    level: level ? normaliseLevel(level[1]) : null,
    message: text,
    labels: {},
  };
}
