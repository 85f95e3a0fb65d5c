import type { LogLine } from '@opsdeck/contracts';
import { labelsFrom, normaliseLevel, parseTextLine, parseTimestamp, selectLines } from '../line-filter.js';
import { LogBackendError, type LogBackend } from './types.js';

/** Most bytes read from the end of PostgreSQL's current log file. */
export const POSTGRES_TAIL_BYTES = 8 * 1024 * 1024;

export const POSTGRES_NO_LOG_FILE =
  'PostgreSQL is not writing a log file (logging_collector is off), so its log cannot be read here';
export const POSTGRES_NOT_PERMITTED =
  "The database role Opsdeck connects as may not read PostgreSQL's log: it needs superuser or pg_read_server_files and pg_monitor";

// The default log_line_prefix '%m [%p] ': "2026-01-01 10:00:00.123 UTC [42] LOG:  message".
const STDERR_LINE =
  /^(?<timestamp>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?(?: [A-Z]{2,5}|[+-]\d{2})?) \[(?<pid>\d+)\](?:\s\S+)*? (?<level>DEBUG\d?|LOG|INFO|NOTICE|WARNING|ERROR|FATAL|PANIC|STATEMENT|DETAIL|HINT|CONTEXT):\s+(?<message>.*)$/;

function stderrTime(text: string): Date | undefined {
  return parseTimestamp(
    text
      .replace(' ', 'T')
      .replace(/ UTC$/, 'Z')
      .replace(/ ([A-Z]{2,5})$/, ''),
  );
}

/** PostgreSQL's stderr or jsonlog lines → log lines; continuation lines join the previous one. */
export function parsePostgresLog(text: string, json: boolean, fallbackTime: Date): LogLine[] {
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    if (json) {
      try {
        const record = JSON.parse(raw) as Record<string, unknown>;
        lines.push({
          timestamp: (parseTimestamp(record.timestamp) ?? fallbackTime).toISOString(),
          level: normaliseLevel(record.error_severity),
          message: String(record.message ?? raw),
          labels: labelsFrom(record, new Set(['timestamp', 'error_severity', 'message'])),
        });
        continue;
      } catch {
        // not JSON: treated as text below
      }
    }
    const match = STDERR_LINE.exec(raw);
    if (match?.groups) {
      const { timestamp, pid, level, message } = match.groups;
      if (['STATEMENT', 'DETAIL', 'HINT', 'CONTEXT'].includes(level) && lines.length > 0) {
        lines[lines.length - 1].message += `\n${level}: ${message}`;
        continue;
      }
      lines.push({
        timestamp: (stderrTime(timestamp) ?? fallbackTime).toISOString(),
        level: normaliseLevel(level === 'LOG' ? 'info' : level.replace(/\d$/, '')),
        message,
        labels: { pid },
      });
    } else if (lines.length > 0) lines[lines.length - 1].message += `\n${raw.trim()}`;
    else lines.push(parseTextLine(raw, fallbackTime));
  }
  return lines;
}

interface PgError {
  code?: string;
  message?: string;
}

/** PostgreSQL's own log, read through the connection (pg_current_logfile, pg_read_file). */
export const postgresBackend: LogBackend = {
  type: 'postgres',
  async search(_spec, search, { pool }) {
    let file: { path: string | null; json: boolean };
    try {
      const { rows } = await pool.query<{ jsonlog: string | null; stderr: string | null }>(
        `SELECT pg_current_logfile('jsonlog') AS jsonlog, pg_current_logfile('stderr') AS stderr`,
      );
      file = { path: rows[0].jsonlog ?? rows[0].stderr, json: rows[0].jsonlog !== null };
    } catch (error) {
      if ((error as PgError).code === '42501') throw new LogBackendError(POSTGRES_NOT_PERMITTED, 422);
      throw error;
    }
    if (!file.path) throw new LogBackendError(POSTGRES_NO_LOG_FILE, 422);
    let text: string;
    try {
      const { rows } = await pool.query<{ text: string }>(
        `SELECT pg_read_file($1, greatest(0, (pg_stat_file($1)).size - $2), $2) AS text`,
        [file.path, POSTGRES_TAIL_BYTES],
      );
      text = rows[0].text;
    } catch (error) {
      if ((error as PgError).code === '42501') throw new LogBackendError(POSTGRES_NOT_PERMITTED, 422);
      throw new LogBackendError(
        `PostgreSQL's log ${file.path} cannot be read: ${(error as PgError).message}`,
        422,
      );
    }
    return selectLines(parsePostgresLog(text, file.json, new Date()), search);
  },
};
