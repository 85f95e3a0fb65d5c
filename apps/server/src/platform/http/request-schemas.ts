import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Request validation from the contracts: a route declares `schema: { body, querystring, params }`
 * with zod schemas from `@opsdeck/contracts` (through `app.withTypeProvider<ZodTypeProvider>()`,
 * which also types `request.body`), and a request that does not match is answered here, by the
 * one error handler, as a 400 `{error, field}` naming the first field that is wrong.
 *
 * A schema's own message ("Email is required") is kept; zod's default ones are prefixed with
 * the field's path ("scope.0: Invalid option: expected one of ..."), so every message names the
 * field even where the client shows only the text.
 */
const english = z.locales.en().localeError;

let messagesInstalled = false;
/** Makes zod's default messages start with the path of the field (once per process). */
export function installFieldNamingMessages(): void {
  if (messagesInstalled) return;
  messagesInstalled = true;
  z.config({
    customError: (issue) => {
      const base = english(issue);
      const text = typeof base === 'string' ? base : base?.message;
      if (!text) return undefined;
      return issue.path?.length ? `${issue.path.map(String).join('.')}: ${text}` : text;
    },
  });
}

export function registerRequestValidation(app: FastifyInstance): void {
  installFieldNamingMessages();
  app.setValidatorCompiler(validatorCompiler);
}

/**
 * The 400 for a request a route's zod schema refused, or undefined for any other error. The field
 * is the dotted path inside the part that was wrong (body, querystring, params, headers).
 */
export function requestValidationError(error: unknown): { message: string; field?: string } | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const [first] = error.validation;
  if (!first) return { message: 'The request is not valid' };
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
  const part = (error as { validationContext?: string }).validationContext;
  const message = first.message || 'is not valid';
  const named = field ?? (part && part !== 'body' ? part : undefined);
  return {
    message: field || !part || part === 'body' ? message : `${part}: ${message}`,
    ...(named ? { field: named } : {}),
  };
}
