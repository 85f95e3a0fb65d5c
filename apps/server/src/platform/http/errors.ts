import type { FastifyError, FastifyInstance } from 'fastify';

/** Error raised by services for a request that is wrong: becomes a 4xx with `{error, field?}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * One error handler for the whole API: client errors say what is wrong (and which field),
 * server errors are logged with the request id and answered without internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send({ error: error.message, ...(error.field ? { field: error.field } : {}) });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const field = error.validation?.[0]?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      return reply.status(status).send({ error: error.message, ...(field ? { field } : {}) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error', requestId: request.id });
  });
}
