import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { DEFAULT_JSON_LIMITS, nulInUrl, parseJsonWithinLimits } from './json-limits.js';

/**
 * What every route gets before its handler: URLs whose path or query holds a NUL character are
 * refused (400 naming the parameter), and JSON bodies are parsed within the depth, value-count and
 * NUL limits of `json-limits.ts` (400 naming the limit and the field). The size limit is Fastify's
 * `bodyLimit` (413). Plugins that parse their own bodies (the data API) apply the same limits.
 */
export function registerInputLimits(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const nul = nulInUrl(request.raw.url ?? '');
    if (nul) throw new HttpError(400, nul.message, nul.field);
  });
  // Clients send `Content-Type: application/json` on every call, bodiless POSTs included
  // (API.md): an empty body is no body, not a 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    const parsed = parseJsonWithinLimits(text, DEFAULT_JSON_LIMITS);
    if (parsed.ok) return done(null, parsed.value);
    const problem = parsed.problem;
    if (!problem) return done(new HttpError(400, 'The request body is not valid JSON', 'body'), undefined);
    done(new HttpError(400, problem.message, problem.field || 'body'), undefined);
  });
}
