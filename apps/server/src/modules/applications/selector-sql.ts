import type { ApplicationSelector } from '@opsdeck/contracts';

/** Bound parameters of one query, numbered as they are added. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function textMatch(column: string, value: string, params: Params): string {
  if (value.includes('*')) {
    const like = value.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%');
    return `${column} ILIKE ${params.add(like)}`;
  }
  return `${column} = ${params.add(value)}`;
}

/**
 * `k=v`, `k==v`, `k!=v`, `k` (present) and `!k` (absent), comma-separated, all of which must hold,
 * over a jsonb column of string values.
 */
export function labelSelectorSql(expression: string, column: string, params: Params): string[] {
  const clauses: string[] = [];
  for (const raw of expression.split(',')) {
    const term = raw.trim();
    if (term === '') continue;
    const notEqual = /^([^!=]+)!=(.*)$/.exec(term);
    const equal = /^([^!=]+)==?(.*)$/.exec(term);
    if (notEqual)
      clauses.push(
        `${column}->>${params.add(notEqual[1].trim())} IS DISTINCT FROM ${params.add(notEqual[2].trim())}`,
      );
    else if (equal)
      clauses.push(`${column}->>${params.add(equal[1].trim())} = ${params.add(equal[2].trim())}`);
    else if (term.startsWith('!')) clauses.push(`NOT (${column} ? ${params.add(term.slice(1).trim())})`);
    else clauses.push(`${column} ? ${params.add(term)}`);
  }
  return clauses;
}

/**
 * One selector as a SQL condition over a relation with id, name, namespace, type and labels
 * (and tags when `tagsColumn` is given). A selector that names nothing matches nothing: an empty
 * selector never pulls the whole catalog into an application.
 */
export function selectorSql(
  selector: ApplicationSelector,
  params: Params,
  alias: string,
  options: { tagsColumn?: string } = {},
): string {
  const clauses: string[] = [];
  if (selector.id) clauses.push(`${alias}.id::text = ${params.add(selector.id)}`);
  if (selector.name) clauses.push(textMatch(`${alias}.name`, selector.name, params));
  if (selector.namespace) clauses.push(textMatch(`${alias}.namespace`, selector.namespace, params));
  const types = [...(selector.types ?? []), ...(selector.type ? [selector.type] : [])];
  if (types.length > 0) clauses.push(`${alias}.type = ANY(${params.add(types)}::text[])`);
  if (selector.labelSelector)
    clauses.push(...labelSelectorSql(selector.labelSelector, `${alias}.labels`, params));
  if (selector.tagSelector && options.tagsColumn)
    clauses.push(...labelSelectorSql(selector.tagSelector, `${alias}.${options.tagsColumn}`, params));
  return clauses.length === 0 ? 'false' : `(${clauses.join(' AND ')})`;
}
