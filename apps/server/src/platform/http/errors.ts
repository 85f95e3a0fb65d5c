import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { registerRequestValidation, requestValidationError } from './request-schemas.js';

/** Error raised by services for a request that is wrong: becomes a 4xx with `{error, field?}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    /** More of the answer's body (the list of every problem of a refused spec, as `issues`). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What `pg` reports for an error PostgreSQL raised (a DatabaseError). */
interface PgError {
  code: string;
  column?: string;
}

function isPgError(error: unknown): error is PgError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; severity?: unknown };
  return (
    typeof candidate.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(candidate.code) &&
    typeof candidate.severity === 'string'
  );
}

/**
 * What to tell a client whose value PostgreSQL refused (data exceptions, class 22, and a value
 * too large or too deeply nested to process, 54000 and 54001): the kind of problem and, when PostgreSQL names it, the
 * column. Never PostgreSQL's own text: its message and detail can quote stored rows.
 */
export function clientErrorForPgError(error: unknown): HttpError | undefined {
  if (!isPgError(error)) return undefined;
  const { code } = error;
  let problem: string | undefined;
  if (code === '22021' || code === '22P05') problem = 'a text value holds a NUL character or an invalid byte';
  else if (code === '22007' || code === '22008') problem = 'a date or time is not valid or out of range';
  else if (code === '22003') problem = 'a number is out of range';
  else if (code === '22001') problem = 'a value is too long';
  else if (code === '22P02') problem = 'a value is not in the format its field needs';
  else if (code === '22023' || code === '22004') problem = 'a value is not allowed';
  else if (code === '54001') problem = 'a value is nested too deeply to process';
  else if (code === '54000') problem = 'a value is too large to store';
  else if (code.startsWith('22')) problem = 'a value is not valid';
  if (!problem) return undefined;
  const field = error.column || undefined;
  return new HttpError(400, `The request was refused: ${field ? `${field}: ` : ''}${problem}`, field);
}

function bodyLimitOf(request: FastifyRequest): number | undefined {
  const limit = (request.routeOptions as { bodyLimit?: unknown }).bodyLimit;
  return typeof limit === 'number' ? limit : undefined;
}

/**
 * One error handler for the whole API: client errors say what is wrong (and which field),
 * server errors are logged with the request id and answered without internals (a 503 keeps its
 * status, and is logged too).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  // Route schemas are the contracts' zod schemas; what they refuse is answered below.
  registerRequestValidation(app);
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send({ error: error.message, ...(error.field ? { field: error.field } : {}), ...error.details });
    }
    const invalid = requestValidationError(error);
    if (invalid) {
      return reply
        .status(400)
        .send({ error: invalid.message, ...(invalid.field ? { field: invalid.field } : {}) });
    }
    const refused = clientErrorForPgError(error);
    if (refused) {
      request.log.info({ code: (error as FastifyError).code }, 'database refused a value of the request');
      return reply
        .status(refused.statusCode)
        .send({ error: refused.message, ...(refused.field ? { field: refused.field } : {}) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = bodyLimitOf(request);
      return reply.status(413).send({
        error: `The request body is larger than the limit${limit ? ` of ${limit.toLocaleString('en')} bytes` : ''}`,
        field: 'body',
      });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const field = error.validation?.[0]?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      return reply.status(status).send({ error: error.message, ...(field ? { field } : {}) });
    }
    request.log.error({ err: error }, 'request failed');
    if (status === 503)
      return reply.status(503).send({ error: 'Service unavailable', requestId: request.id });
    return reply.status(500).send({ error: 'Internal server error', requestId: request.id });
  });
  // Whoever answers 503 (a handler, readiness, the web app), the operator finds a line for it.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 503) {
      request.log.warn(
        { method: request.method, url: request.url.split('?')[0], statusCode: 503 },
        'answered 503 Service Unavailable',
      );
    }
  });
}
