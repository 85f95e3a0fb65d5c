/**
 * PostgREST's error body `{code, message, details, hint}` and its mapping of PostgreSQL
 * SQLSTATEs to HTTP statuses. Clients branch on `code`, so codes follow PostgREST exactly.
 */

export type ErrorDetails = string | null | ReadonlyArray<Record<string, string>>;

export interface ApiErrorBody {
  code: string;
  message: string;
  details: ErrorDetails;
  hint: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = null,
    readonly hint: string | null = null,
    /** Extra response headers (Content-Range on 416, for instance). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export function parseError(message: string, details: string | null, hint: string | null = null): ApiError {
  return new ApiError(400, 'PGRST100', message, details, hint);
}

export function invalidBody(message = 'Empty or invalid json', details: string | null = null): ApiError {
  return new ApiError(400, 'PGRST102', message, details);
}

export function unknownRelation(schema: string, name: string): ApiError {
  return new ApiError(404, '42P01', `relation "${schema}.${name}" does not exist`);
}

export function unknownColumn(relation: string, column: string, suggestion?: string): ApiError {
  return new ApiError(
    400,
    '42703',
    `column ${relation}.${column} does not exist`,
    null,
    suggestion ? `Perhaps you meant to reference the column "${relation}.${suggestion}".` : null,
  );
}

export function unknownWriteColumn(relation: string, column: string): ApiError {
  return new ApiError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${relation}' in the schema cache`,
  );
}

/** A statement or its parameters broke a PostgreSQL rule; `pg` reports these as DatabaseError. */
export interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isPgError(value: unknown): value is PgErrorLike {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { code?: unknown; message?: unknown; severity?: unknown };
  return (
    typeof candidate.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(candidate.code) &&
    typeof candidate.message === 'string' &&
    typeof candidate.severity === 'string'
  );
}

/** PostgREST's table of SQLSTATE → HTTP status ("Errors" in its reference). */
export function statusForSqlState(code: string, authenticated: boolean): number {
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '42883':
      return 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return authenticated ? 403 : 401;
    case 'P0001':
      return 400;
    case '53400':
      return 500;
    // A value too large or too deeply nested for PostgreSQL to process is the request's fault.
    case '54000':
    case '54001':
      return 400;
  }
  const klass = code.slice(0, 2);
  switch (klass) {
    case '08':
      return 503;
    case '09':
      return 500;
    case '0L':
    case '0P':
      return 403;
    case '25':
      return 500;
    case '28':
      return 403;
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
      return 500;
    case '53':
      return 503;
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
  }
  return 400;
}

/**
 * PostgreSQL's code and status. Its detail is passed on only from our own triggers (`P0001`,
 * `field: …`): others (`Failing row contains (…)`, `Key (…)=(…)`) quote stored rows, hidden
 * columns included; `details` then names the column when PostgreSQL does. A data exception's
 * message loses its quoted value (`invalid input syntax for type uuid: "…"` keeps the type).
 */
export function fromPgError(error: PgErrorLike & { column?: string }, authenticated = true): ApiError {
  const raised = error.code === 'P0001';
  const dataException = error.code.startsWith('22');
  return new ApiError(
    statusForSqlState(error.code, authenticated),
    error.code,
    dataException ? error.message.replace(/:\s*".*$/s, '') : error.message,
    raised ? (error.detail ?? null) : error.column ? `field: ${error.column}` : null,
    error.hint ?? null,
  );
}

/**
 * Errors that are neither ours nor PostgreSQL's: the database could not be reached (503
 * PGRST001), the pool had no free connection in time (504 PGRST003), or a bug (500 PGRSTX00).
 */
export function fromUnexpectedError(error: unknown): ApiError {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : '';
  if (/timeout exceeded when trying to connect/i.test(message)) {
    return new ApiError(504, 'PGRST003', 'Timed out acquiring connection from connection pool.');
  }
  if (
    (typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EPIPE|57P01|57P02|57P03)$/.test(code)) ||
    /Connection terminated|connection error|Client has encountered a connection error/i.test(message)
  ) {
    return new ApiError(503, 'PGRST001', 'Database client error. Retrying the connection.', null, null);
  }
  return new ApiError(500, 'PGRSTX00', 'Internal server error', null, null);
}

/** Levenshtein distance, for "Perhaps you meant" hints on small name lists. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const limit = Math.max(2, Math.floor(name.length / 3));
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate, limit + 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return previous[b.length];
}
