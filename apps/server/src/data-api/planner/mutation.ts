/** What inserts, upserts, updates and deletes share: writable columns, the representation they return, root scopes. */
import type { RelationPolicy } from '../allowlist.js';
import { quoteIdent, type CatalogColumn, type CatalogRelation } from '../catalog.js';
import { ApiError, unknownWriteColumn } from '../errors.js';
import type { QueryScope } from '../query-tree.js';
import type { Builder, PlanRequest } from './common.js';
import { bodyExpression, rootLevel } from './select.js';
import { type LevelResult, checkScopesConsumed, levelSelect } from './select-tree.js';

export function writableColumns(
  b: Builder,
  relation: CatalogRelation,
  policy: RelationPolicy,
  columns: readonly string[],
): CatalogColumn[] {
  const hidden = b.hidden(relation);
  return columns.map((name) => {
    const column = relation.columnByName.get(name);
    if (!column || hidden.has(name)) throw unknownWriteColumn(relation.name, name);
    if (policy.writableColumns && !policy.writableColumns.has(name)) {
      throw new ApiError(
        403,
        '42501',
        `permission denied to write column "${name}" of "${relation.name}"`,
        null,
        `Writable columns of '${relation.name}': ${[...policy.writableColumns].join(', ') || '(none)'}`,
      );
    }
    return column;
  });
}

/** The mutated rows (`pgrst_mut`) as the root of the response: representation, counts, checks. */
export function mutationResult(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  mutationCte: string,
  checkViolations: boolean,
): { text: string; level: LevelResult | null } {
  const hidden = b.hidden(relation);
  const wantsBody = request.prefs.return === 'representation';
  const violations = checkViolations
    ? `(SELECT count(*) FROM "pgrst_mut" AS "pgrst_chk" WHERE ${b.rowFilter(relation, 'pgrst_chk', 'violation')})`
    : '0::int8';
  const pk = relation.primaryKey.filter((c) => !hidden.has(c));
  const location =
    request.prefs.return === 'headers-only' && pk.length > 0
      ? `(SELECT json_build_array(${pk.map((c) => `"pgrst_loc".${quoteIdent(c)}`).join(', ')})::text FROM "pgrst_mut" AS "pgrst_loc" LIMIT 1)`
      : 'NULL::text';
  if (!wantsBody) {
    checkScopesConsumedForWrite(b);
    return {
      text: `${mutationCte} SELECT count(*) AS "total", count(*) AS "page", NULL::text AS "body", ${violations} AS "violations", ${location} AS "location" FROM "pgrst_mut"`,
      level: null,
    };
  }
  const level = rootLevel(b, relation, '"pgrst_mut"', 't0', hidden, '');
  checkScopesConsumed(b);
  const inner = levelSelect(level, null, null, null);
  return {
    text: `${mutationCte} SELECT count(*) AS "total", count(*) AS "page", ${bodyExpression(b, level, 'pgrst_row', request.media)} AS "body", ${violations} AS "violations", ${location} AS "location" FROM (${inner}) AS "pgrst_row"`,
    level,
  };
}

/** Without a representation only the root scope is used; filters on embeds would be ignored silently. */
export function checkScopesConsumedForWrite(b: Builder): void {
  b.consumedScopes.add('');
  checkScopesConsumed(b);
}

export function withoutRootConditions(
  scopes: ReadonlyMap<string, QueryScope>,
): ReadonlyMap<string, QueryScope> {
  const out = new Map(scopes);
  out.set('', { conditions: [], order: null, limit: null, offset: null });
  return out;
}
