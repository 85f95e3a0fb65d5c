/**
 * What the catalog's services answer a caller who got a request wrong, and the id check its
 * routes and the scraper editor share.
 */

/** A request the caller got wrong: answered with this status and `{error: message}`. */
export class CatalogRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
    /** The parameter at fault, answered as `field`. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CatalogRequestError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
