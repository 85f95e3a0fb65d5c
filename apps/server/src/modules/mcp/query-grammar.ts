import { likeLiteral, ToolError } from './data-reader.js';
import type { Params } from './tools.js';

/**
 * The search query of the ecosystem's MCP tools (search_catalog, search_catalog_changes), so
 * prompts written for it work: space-separated `field<op>value` terms (`=`, `!=`, `<`, `>`,
 * `<=`, `>=`; values may be quoted), a bare word matching part of the name, `value*`/`*value`
 * wildcards, dates as `YYYY-MM-DD[THH:MM:SS]` or `now-24h` (s, m, h, d, w, mo, y), `agent=all`
 * (every agent; Opsdeck reads every agent's items anyway) and `limit=N`.
 */

export interface QueryTerm {
  field: string;
  operator: '=' | '!=' | '<' | '>' | '<=' | '>=';
  value: string;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Bare words (part of the name). */
  words: string[];
  limit?: number;
}

const TERM = /^([A-Za-z_][\w.-]*)(<=|>=|!=|=|:|<|>)(.*)$/;

function tokens(query: string): string[] {
  const out: string[] = [];
  const pattern = /(?:[^\s"]+|"[^"]*")+/g;
  for (const match of query.matchAll(pattern)) out.push(match[0]);
  return out;
}

export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], words: [] };
  for (const token of tokens(query)) {
    const match = TERM.exec(token);
    if (!match) {
      parsed.words.push(token.replace(/"/g, ''));
      continue;
    }
    const [, field, rawOperator, rawValue] = match;
    const value = rawValue.replace(/^"(.*)"$/, '$1');
    if (value === '') throw new ToolError(`query: ${field} needs a value`);
    const operator = (rawOperator === ':' ? '=' : rawOperator) as QueryTerm['operator'];
    if (field === 'limit') {
      const limit = Number(value);
      if (!Number.isInteger(limit) || limit < 1)
        throw new ToolError('query: limit must be a positive whole number');
      parsed.limit = limit;
      continue;
    }
    if (field === 'agent') continue;
    parsed.terms.push({ field, operator, value });
  }
  return parsed;
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  mo: 2_592_000_000,
  y: 31_536_000_000,
};

/** `now`, `now-24h`, `now+1d`, `2026-01-31`, `2026-01-31T10:00:00Z` as an ISO time. */
export function queryTime(field: string, value: string, now = Date.now()): string {
  const relative = /^now(?:([+-])(\d+)(mo|s|m|h|d|w|y))?$/.exec(value);
  if (relative) {
    const [, sign, amount, unit] = relative;
    const offset = sign ? Number(amount) * UNIT_MS[unit] * (sign === '-' ? -1 : 1) : 0;
    return new Date(now + offset).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return new Date(time).toISOString();
  }
  throw new ToolError(`${field} must be a date (2026-01-31), a date-time or now-<n><unit> (e.g. now-24h)`);
}

const OPERATORS = { '<': 'lt', '>': 'gt', '<=': 'lte', '>=': 'gte' } as const;

/** A text match: case-insensitive, `*` a wildcard; `!=` negates. */
export function textFilter(column: string, term: QueryTerm): [string, string] {
  if (term.operator !== '=' && term.operator !== '!=')
    throw new ToolError(`query: ${term.field} takes = or != (not ${term.operator})`);
  return [column, `${term.operator === '!=' ? 'not.' : ''}ilike.${likeLiteral(term.value)}`];
}

/** An exact match (ids): `=` or `!=`. */
export function exactFilter(column: string, term: QueryTerm): [string, string] {
  if (term.operator !== '=' && term.operator !== '!=')
    throw new ToolError(`query: ${term.field} takes = or != (not ${term.operator})`);
  return [column, `${term.operator === '!=' ? 'neq' : 'eq'}.${term.value}`];
}

/** A time comparison: `<`, `>`, `<=`, `>=` against a date or now-<n><unit>. */
export function timeFilter(column: string, term: QueryTerm, now?: number): [string, string] {
  if (term.operator === '=' || term.operator === '!=')
    throw new ToolError(`query: ${term.field} compares with <, >, <= or >= (e.g. ${term.field}>now-24h)`);
  return [column, `${OPERATORS[term.operator]}.${queryTime(term.field, term.value, now)}`];
}

/** A number comparison (`count>3`). */
export function numberFilter(column: string, term: QueryTerm): [string, string] {
  if (!/^-?\d+(\.\d+)?$/.test(term.value)) throw new ToolError(`query: ${term.field} must be a number`);
  const operator = term.operator === '=' ? 'eq' : term.operator === '!=' ? 'neq' : OPERATORS[term.operator];
  return [column, `${operator}.${term.value}`];
}

/** A `key=value` match inside a JSON column (labels, tags). */
export function jsonKeyFilter(column: string, key: string, term: QueryTerm): [string, string] {
  if (!/^[\w./-]+$/.test(key)) throw new ToolError(`query: ${term.field} has an invalid key`);
  return textFilter(`${column}->>${key}`, term);
}

/** Bare words: each a part of the name. */
export function wordFilters(column: string, words: string[]): Params {
  return words.map((word) => [column, `ilike.*${likeLiteral(word)}*`]);
}
