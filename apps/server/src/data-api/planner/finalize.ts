/** Row restrictions compiled into a template at the markers the planner left. */
import { quoteIdent, type Catalog, type CatalogRelation } from '../catalog.js';
import type { RowFilter } from '../row-filters.js';
import {
  type FinalStatement,
  MARK,
  type ParamSource,
  type RowFilterConvert,
  type StatementTemplate,
  relationSql,
} from './common.js';
import { OPERATOR_SQL } from './select-tree.js';

// ---------------------------------------------------------------------------------------------
// row filters → SQL at the markers

/** Replaces the markers of a template with the compiled restrictions (parameters appended). */
export function finalizeTemplate(
  catalog: Catalog,
  template: StatementTemplate,
  rowFilters: ReadonlyMap<string, readonly RowFilter[]>,
): FinalStatement {
  if (template.slots.length === 0) return { text: template.text, params: template.params };
  const params = [...template.params];
  const compiled = new Map<number, string>();
  const pieces = template.text.split(MARK);
  const present = new Set<number>();
  for (let i = 1; i < pieces.length; i += 2) present.add(Number(pieces[i]));
  for (const slot of template.slots) {
    // A slot whose marker is not in this statement must not bind parameters.
    if (!present.has(slot.id)) continue;
    const filters = rowFilters.get(slot.relation.name) ?? [];
    if (filters.length === 0) {
      compiled.set(slot.id, slot.mode === 'and' ? '' : 'FALSE');
      continue;
    }
    // Each slot binds its own copy of the relation's values, from index 0.
    const compiler = new RowFilterCompiler(catalog, slot.relation, slot.alias, params);
    const sql = filters.map((f) => compiler.compile(f)).join(' AND ');
    compiled.set(slot.id, slot.mode === 'and' ? ` AND (${sql})` : `NOT coalesce((${sql}), FALSE)`);
  }
  // Markers are NUL-delimited ids (NUL cannot occur in identifiers or in our SQL): odd pieces are ids.
  const text = pieces.map((piece, i) => (i % 2 === 1 ? (compiled.get(Number(piece)) ?? '') : piece)).join('');
  return { text, params };
}

class RowFilterCompiler {
  private index = 0;
  private aliasCounter = 0;
  constructor(
    private readonly catalog: Catalog,
    private readonly relation: CatalogRelation,
    private readonly alias: string,
    private readonly params: ParamSource[],
  ) {}

  private bind(convert: RowFilterConvert): string {
    this.params.push({ kind: 'rowFilter', relation: this.relation.name, index: this.index++, convert });
    return `$${this.params.length}`;
  }

  compile(filter: RowFilter, relation: CatalogRelation = this.relation, alias: string = this.alias): string {
    const column = (name: string): string => {
      if (!relation.columnByName.has(name)) {
        throw new Error(`row filter names column "${name}" that ${relation.name} does not have`);
      }
      return `${quoteIdent(alias)}.${quoteIdent(name)}`;
    };
    switch (filter.kind) {
      case 'compare':
        return `${column(filter.column)} ${OPERATOR_SQL[filter.op]} ${this.bind('text')}`;
      case 'in':
        return `${column(filter.column)} = ANY(${this.bind('array')})`;
      case 'is': {
        const test = filter.value === null ? 'NULL' : filter.value ? 'TRUE' : 'FALSE';
        return `${column(filter.column)} IS ${filter.negate ? 'NOT ' : ''}${test}`;
      }
      case 'contains': {
        const col = relation.columnByName.get(filter.column);
        if (col?.category === 'json') return `${column(filter.column)}::jsonb @> ${this.bind('json')}::jsonb`;
        return `${column(filter.column)} @> ${this.bind('array')}`;
      }
      case 'like':
        return `${column(filter.column)}::text LIKE ${this.bind('text')}::text`;
      case 'hasKey':
        return `${column(filter.column)}::jsonb ? ${this.bind('text')}::text`;
      case 'and':
      case 'or':
        if (filter.filters.length === 0) return filter.kind === 'and' ? 'TRUE' : 'FALSE';
        return `(${filter.filters.map((f) => this.compile(f, relation, alias)).join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        // A row the inner filter cannot decide (NULL) is not excluded by it.
        return `NOT coalesce((${this.compile(filter.filter, relation, alias)}), FALSE)`;
      case 'constant':
        return filter.value ? 'TRUE' : 'FALSE';
      case 'exists': {
        const other = this.catalog.relations.get(filter.relation);
        if (!other) throw new Error(`row filter names relation "${filter.relation}" that does not exist`);
        const otherAlias = `rf${++this.aliasCounter}`;
        const on = filter.on.map(([otherColumn, ownColumn]) => {
          if (!other.columnByName.has(otherColumn))
            throw new Error(`row filter names column "${otherColumn}" that ${other.name} does not have`);
          return `${quoteIdent(otherAlias)}.${quoteIdent(otherColumn)} = ${column(ownColumn)}`;
        });
        const where = (filter.where ?? []).map((f) => this.compile(f, other, otherAlias));
        return `EXISTS (SELECT 1 FROM ${relationSql(this.catalog, other)} AS ${quoteIdent(otherAlias)} WHERE ${[...on, ...where].join(' AND ') || 'TRUE'})`;
      }
    }
  }
}
