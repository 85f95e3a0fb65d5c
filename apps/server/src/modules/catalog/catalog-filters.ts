import { readTimeParameter } from '../../platform/time/index.js';
import { HttpError } from '../../platform/http/errors.js';

/**
 * The filters the catalog summary and the change search share, read from their request values
 * (the routes' contract schemas have checked the shapes) into SQL conditions.
 */

export interface Tristate {
  include: string[];
  exclude: string[];
}

/**
 * The tri-state filter value: `a,!b` or the UI's `a:1,b:-1`; included values are OR-ed,
 * excluded ones AND-ed as NOT. Arrays of such values are accepted too.
 */
export function parseTristate(value: unknown, field: string): Tristate | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parts = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(',')
      : undefined;
  if (!parts) throw new HttpError(400, `${field} must be a string`);
  const result: Tristate = { include: [], exclude: [] };
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    const scored = /^(.*):(-1|1)$/.exec(part);
    if (scored) (scored[2] === '-1' ? result.exclude : result.include).push(scored[1]);
    else if (part.startsWith('!')) result.exclude.push(part.slice(1));
    else result.include.push(part);
  }
  return result.include.length + result.exclude.length > 0 ? result : undefined;
}

export class CatalogSql {
  readonly values: unknown[] = [];
  readonly where: string[] = [];
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  tristate(column: string, filter: Tristate | undefined): void {
    if (!filter) return;
    // One value as an equality: an index on (column, …, created_at) then also gives the order
    // (`= ANY` of a one-element array does not).
    if (filter.include.length === 1) this.where.push(`${column} = ${this.param(filter.include[0])}::text`);
    else if (filter.include.length > 1)
      this.where.push(`${column} = ANY(${this.param(filter.include)}::text[])`);
    if (filter.exclude.length > 0) {
      this.where.push(`(${column} IS NULL OR NOT (${column} = ANY(${this.param(filter.exclude)}::text[])))`);
    }
  }
  clause(): string {
    return this.where.length > 0 ? `WHERE ${this.where.join(' AND ')}` : '';
  }
}

export function stringMap(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, `${field} must be an object`);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

/** `key=value,key2!=value2` (or a list of such, or a map) → equality and inequality matches. */
export function tagSelector(
  value: unknown,
): { equal: Record<string, string>; notEqual: Array<[string, string]> } | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const equal: Record<string, string> = {};
  const notEqual: Array<[string, string]> = [];
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) equal[key] = String(item);
    return { equal, notEqual };
  }
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(',');
  for (const part of parts) {
    const match = /^\s*([^=!]+?)\s*(!=|==|=)\s*(.*?)\s*$/.exec(part);
    if (!match) {
      if (part.trim() === '') continue;
      throw new HttpError(400, `tags: "${part}" is not key=value`);
    }
    if (match[2] === '!=') notEqual.push([match[1], match[3]]);
    else equal[match[1]] = match[3];
  }
  return { equal, notEqual };
}

export function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * A time parameter in the one time grammar (`platform/time`): an absolute time, `now`, `now-1h`,
 * `now-1mo`, or a duration meaning that long ago (`2d`, `1mo`). A bad value is a 400 naming `field`.
 */
export function parseTime(value: unknown, field: string, now = new Date()): Date | undefined {
  return readTimeParameter(value, field, (message) => new HttpError(400, message, field), now);
}
