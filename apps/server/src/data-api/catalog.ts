/**
 * The live PostgreSQL catalog of one schema: relations, columns, keys, foreign keys (including
 * those PostgreSQL's view definitions carry through from base tables), functions and type names.
 *
 * Loaded lazily on first use and kept until `invalidate()` (called after migrations, and by the
 * executor when PostgreSQL reports an object the cache believed in is gone). A relation that
 * does not exist simply is not in the cache: it answers like an unknown table.
 */
import type pg from 'pg';

export type ColumnCategory =
  'string' | 'numeric' | 'datetime' | 'boolean' | 'json' | 'array' | 'tsvector' | 'other';

export interface CatalogColumn {
  readonly name: string;
  readonly num: number;
  /** `format_type()` text, e.g. `timestamp with time zone`, `text[]`. */
  readonly type: string;
  /** Name of the base type (domains resolved), e.g. `timestamptz`, `jsonb`, `_text`. */
  readonly baseType: string;
  readonly category: ColumnCategory;
  readonly notNull: boolean;
  readonly hasDefault: boolean;
  readonly generated: boolean;
  /** `pg_get_expr` of the default, used for `Prefer: missing=default`. */
  readonly defaultExpression: string | null;
}

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'composite_type';

export interface CatalogRelation {
  readonly oid: number;
  readonly name: string;
  readonly kind: RelationKind;
  readonly columns: readonly CatalogColumn[];
  readonly columnByName: ReadonlyMap<string, CatalogColumn>;
  readonly primaryKey: readonly string[];
  /** Primary key and unique constraints/indexes (plain columns only). */
  readonly uniqueKeys: ReadonlyArray<readonly string[]>;
}

export interface ForeignKey {
  readonly name: string;
  readonly from: CatalogRelation;
  readonly fromColumns: readonly string[];
  readonly to: CatalogRelation;
  readonly toColumns: readonly string[];
}

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

export interface Relationship {
  readonly cardinality: Cardinality;
  readonly source: CatalogRelation;
  readonly target: CatalogRelation;
  /** The foreign key: from the source (to-one), from the target (to-many), or source side of m2m. */
  readonly foreignKey: ForeignKey;
  /** Equal-length lists: source column i joins target column i (direct relationships). */
  readonly sourceColumns: readonly string[];
  readonly targetColumns: readonly string[];
  /** True when the foreign key lives on the source (many-to-one, or a one-to-one from the FK side). */
  readonly fkOnSource: boolean;
  readonly junction: null | {
    readonly relation: CatalogRelation;
    readonly sourceKey: ForeignKey;
    readonly targetKey: ForeignKey;
  };
}

export interface FunctionArgument {
  readonly name: string;
  readonly type: string;
  readonly hasDefault: boolean;
  readonly variadic: boolean;
}

export type FunctionReturn =
  | { readonly kind: 'void' }
  | { readonly kind: 'scalar'; readonly type: string }
  | { readonly kind: 'relation'; readonly relation: CatalogRelation }
  | { readonly kind: 'columns'; readonly columns: readonly CatalogColumn[] };

export interface CatalogFunction {
  readonly oid: number;
  readonly name: string;
  /** Input arguments, in declaration order. */
  readonly args: readonly FunctionArgument[];
  readonly returnsSet: boolean;
  readonly returns: FunctionReturn;
  readonly volatility: 'immutable' | 'stable' | 'volatile';
}

export interface Catalog {
  readonly schema: string;
  readonly version: number;
  readonly relations: ReadonlyMap<string, CatalogRelation>;
  readonly functions: ReadonlyMap<string, readonly CatalogFunction[]>;
  /** View column → base table column, resolved through views of views. */
  readonly viewColumnOrigins: ReadonlyMap<string, ReadonlyMap<string, { relation: string; column: string }>>;
  relationships(source: CatalogRelation): readonly Relationship[];
  /**
   * Whether a GIN index with a jsonb containment operator class (`jsonb_ops`, `jsonb_path_ops`)
   * covers the column: the relation's own index, or for a view the base column's.
   */
  hasContainmentIndex(relation: CatalogRelation, column: string): boolean;
  /** `text`, `int`, `timestamptz[]`… → a qualified type SQL name from pg_type, or null. */
  resolveType(name: string): string | null;
}

export interface SchemaCatalog {
  /** The current catalog, loading it on first use or after `invalidate()`. */
  get(): Promise<Catalog>;
  /** Drops the cached catalog (and with it every cached plan); the next request reloads it. */
  invalidate(): void;
  /** The version of the catalog last loaded (0 before the first load). */
  readonly version: number;
}

export function createSchemaCatalog(pool: pg.Pool, options: { schema?: string } = {}): SchemaCatalog {
  const schema = options.schema ?? 'public';
  let current: Catalog | null = null;
  let loading: Promise<Catalog> | null = null;
  let generation = 0;
  let version = 0;
  return {
    get version() {
      return version;
    },
    get(): Promise<Catalog> {
      if (current) return Promise.resolve(current);
      if (loading) return loading;
      const startedAt = generation;
      const attempt = loadCatalog(pool, schema, version + 1).then(
        (catalog) => {
          if (startedAt === generation) {
            current = catalog;
            version = catalog.version;
          }
          loading = null;
          return catalog;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      loading = attempt;
      return attempt;
    },
    invalidate(): void {
      generation++;
      current = null;
      loading = null;
      version++;
    },
  };
}

interface RelationRow {
  oid: string;
  name: string;
  kind: string;
}
interface ColumnRow {
  rel: string;
  num: number;
  name: string;
  type: string;
  base_type: string;
  category: string;
  not_null: boolean;
  has_default: boolean;
  generated: boolean;
  default_expr: string | null;
}
interface KeyRow {
  name: string;
  type: string;
  rel: string;
  frel: string | null;
  cols: number[];
  fcols: number[] | null;
}
interface ContainmentIndexRow {
  rel: string;
  num: number;
}
interface ViewOriginRow {
  view: string;
  resno: number;
  resname: string;
  origtbl: string;
  origcol: number;
}
interface FunctionRow {
  oid: string;
  name: string;
  arg_names: string[] | null;
  arg_modes: string[] | null;
  arg_types: string[];
  nargs: number;
  ndefaults: number;
  retset: boolean;
  ret_type: string;
  ret_typname: string;
  ret_relid: string;
  ret_typtype: string;
  volatility: string;
}
interface TypeRow {
  schema: string;
  name: string;
}

const KIND_BY_RELKIND: Record<string, RelationKind> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  c: 'composite_type',
};

async function loadCatalog(pool: pg.Pool, schema: string, version: number): Promise<Catalog> {
  const client = await pool.connect();
  let relations: RelationRow[];
  let columns: ColumnRow[];
  let keys: KeyRow[];
  let origins: ViewOriginRow[];
  let containment: ContainmentIndexRow[];
  let functions: FunctionRow[];
  let types: TypeRow[];
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    relations = (
      await client.query<RelationRow>(
        `SELECT c.oid::text AS oid, c.relname AS name, c.relkind::text AS kind
           FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r','p','v','m','f','c')`,
        [schema],
      )
    ).rows;
    columns = (
      await client.query<ColumnRow>(
        `SELECT a.attrelid::text AS rel, a.attnum::int AS num, a.attname AS name,
                pg_catalog.format_type(a.atttypid, a.atttypmod) AS type,
                coalesce(bt.typname, t.typname)::text AS base_type,
                coalesce(bt.typcategory, t.typcategory)::text AS category,
                a.attnotnull AS not_null,
                (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') AS has_default,
                (a.attgenerated <> '' OR a.attidentity = 'a') AS generated,
                pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS default_expr
           FROM pg_catalog.pg_attribute a
           JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
           LEFT JOIN pg_catalog.pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
           LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE n.nspname = $1 AND c.relkind IN ('r','p','v','m','f','c') AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY a.attrelid, a.attnum`,
        [schema],
      )
    ).rows;
    keys = (
      await client.query<KeyRow>(
        `SELECT con.conname AS name, con.contype::text AS type, con.conrelid::text AS rel,
                con.confrelid::text AS frel, con.conkey::int[] AS cols, con.confkey::int[] AS fcols
           FROM pg_catalog.pg_constraint con
           JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND con.contype IN ('p','u','f')
         UNION ALL
         SELECT ic.relname, 'i', i.indrelid::text, NULL, i.indkey::int[], NULL
           FROM pg_catalog.pg_index i
           JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
           JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
          ORDER BY 1`,
        [schema],
      )
    ).rows;
    // View columns keep the table and column they come from in the stored query tree
    // (TARGETENTRY :resorigtbl/:resorigcol); that is how foreign keys reach views.
    origins = (
      await client.query<ViewOriginRow>(
        `SELECT c.oid::text AS view, m[1]::int AS resno, m[2] AS resname, m[3] AS origtbl, m[4]::int AS origcol
           FROM pg_catalog.pg_class c
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_catalog.pg_rewrite r ON r.ev_class = c.oid,
           LATERAL regexp_matches(r.ev_action::text,
             ':resno (\\d+) :resname (\\S+) :ressortgroupref \\d+ :resorigtbl (\\d+) :resorigcol (\\d+)', 'g') AS m
          WHERE n.nspname = $1 AND c.relkind IN ('v','m')`,
        [schema],
      )
    ).rows;
    // Columns a jsonb containment (`@>`) can find through a GIN index (jsonb `->>` equality
    // filters add a containment condition on them: planner/select-tree.ts).
    containment = (
      await client.query<ContainmentIndexRow>(
        `SELECT DISTINCT i.indrelid::text AS rel, k.attnum::int AS num
           FROM pg_catalog.pg_index i
           JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
           JOIN pg_catalog.pg_am am ON am.oid = ic.relam
           JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          CROSS JOIN LATERAL unnest(i.indkey::int2[], i.indclass::oid[]) AS k(attnum, opclass)
           JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass
          WHERE n.nspname = $1 AND am.amname = 'gin' AND i.indisvalid AND k.attnum > 0
            AND oc.opcname IN ('jsonb_ops', 'jsonb_path_ops')
            AND oc.opcnamespace = 'pg_catalog'::regnamespace`,
        [schema],
      )
    ).rows;
    functions = (
      await client.query<FunctionRow>(
        `SELECT p.oid::text AS oid, p.proname AS name, p.proargnames AS arg_names,
                p.proargmodes::text[] AS arg_modes,
                ARRAY(SELECT pg_catalog.format_type(x.t, NULL)
                        FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS x(t, o)
                       ORDER BY x.o) AS arg_types,
                p.pronargs::int AS nargs, p.pronargdefaults::int AS ndefaults, p.proretset AS retset,
                pg_catalog.format_type(p.prorettype, NULL) AS ret_type, rt.typname::text AS ret_typname,
                rt.typrelid::text AS ret_relid, rt.typtype::text AS ret_typtype, p.provolatile::text AS volatility
           FROM pg_catalog.pg_proc p
           JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
           JOIN pg_catalog.pg_type rt ON rt.oid = p.prorettype
          WHERE n.nspname = $1 AND p.prokind = 'f'`,
        [schema],
      )
    ).rows;
    types = (
      await client.query<TypeRow>(
        `SELECT n.nspname AS schema, t.typname AS name
           FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
          WHERE n.nspname IN ('pg_catalog', $1) AND t.typisdefined AND t.typtype IN ('b','d','e','r','m','c')
            AND t.typname !~ '^pg_'`,
        [schema],
      )
    ).rows;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return buildCatalog(schema, version, { relations, columns, keys, origins, containment, functions, types });
}

const CATEGORY: Record<string, ColumnCategory> = {
  S: 'string',
  N: 'numeric',
  D: 'datetime',
  B: 'boolean',
  A: 'array',
};

function columnCategory(category: string, baseType: string): ColumnCategory {
  if (baseType === 'json' || baseType === 'jsonb') return 'json';
  if (baseType === 'tsvector') return 'tsvector';
  if (category === 'D' && !['date', 'timestamp', 'timestamptz'].includes(baseType)) return 'other';
  return CATEGORY[category] ?? 'other';
}

function buildCatalog(
  schema: string,
  version: number,
  rows: {
    relations: RelationRow[];
    columns: ColumnRow[];
    keys: KeyRow[];
    origins: ViewOriginRow[];
    containment: ContainmentIndexRow[];
    functions: FunctionRow[];
    types: TypeRow[];
  },
): Catalog {
  const columnsByRel = new Map<string, CatalogColumn[]>();
  for (const row of rows.columns) {
    let list = columnsByRel.get(row.rel);
    if (!list) columnsByRel.set(row.rel, (list = []));
    list.push({
      name: row.name,
      num: row.num,
      type: row.type,
      baseType: row.base_type,
      category: columnCategory(row.category, row.base_type),
      notNull: row.not_null,
      hasDefault: row.has_default,
      generated: row.generated,
      defaultExpression: row.default_expr,
    });
  }
  const primaryKeys = new Map<string, number[]>();
  const uniques = new Map<string, number[][]>();
  for (const key of rows.keys) {
    if (key.type === 'p') primaryKeys.set(key.rel, key.cols);
    if (key.type === 'p' || key.type === 'u' || key.type === 'i') {
      if (key.cols.some((c) => c <= 0)) continue;
      let list = uniques.get(key.rel);
      if (!list) uniques.set(key.rel, (list = []));
      list.push(key.cols);
    }
  }
  const byOid = new Map<string, CatalogRelation>();
  const relations = new Map<string, CatalogRelation>();
  for (const row of rows.relations) {
    const columns = columnsByRel.get(row.oid) ?? [];
    const byNum = new Map(columns.map((c) => [c.num, c.name]));
    const names = (nums: number[]): string[] =>
      nums.map((n) => byNum.get(n)).filter((n): n is string => n !== undefined);
    const relation: CatalogRelation = {
      oid: Number(row.oid),
      name: row.name,
      kind: KIND_BY_RELKIND[row.kind] ?? 'table',
      columns,
      columnByName: new Map(columns.map((c) => [c.name, c])),
      primaryKey: names(primaryKeys.get(row.oid) ?? []),
      uniqueKeys: (uniques.get(row.oid) ?? []).map(names),
    };
    byOid.set(row.oid, relation);
    relations.set(row.name, relation);
  }

  // View column origins: view oid → view column → (base relation oid, base column number).
  const rawOrigins = new Map<string, Map<string, { rel: string; col: number }>>();
  for (const row of rows.origins) {
    if (row.origtbl === '0' || row.origcol === 0) continue;
    const view = byOid.get(row.view);
    if (!view) continue;
    const column = view.columns.find((c) => c.num === row.resno);
    if (!column || column.name !== unescapeNodeName(row.resname)) continue;
    let map = rawOrigins.get(row.view);
    if (!map) rawOrigins.set(row.view, (map = new Map()));
    // The last match wins: nested queries (FROM subqueries, CTEs) print before the top level.
    map.set(column.name, { rel: row.origtbl, col: row.origcol });
  }
  const viewColumnOrigins = new Map<string, Map<string, { relation: string; column: string }>>();
  const resolveOrigin = (rel: string, col: number, depth: number): { rel: string; col: number } | null => {
    const relation = byOid.get(rel);
    if (!relation || depth > 16) return null;
    if (relation.kind === 'table' || relation.kind === 'foreign_table') return { rel, col };
    const columnName = relation.columns.find((c) => c.num === col)?.name;
    const next = columnName ? rawOrigins.get(rel)?.get(columnName) : undefined;
    return next ? resolveOrigin(next.rel, next.col, depth + 1) : null;
  };
  for (const [viewOid, map] of rawOrigins) {
    const view = byOid.get(viewOid);
    if (!view) continue;
    const resolved = new Map<string, { relation: string; column: string }>();
    for (const [columnName, origin] of map) {
      const base = resolveOrigin(origin.rel, origin.col, 0);
      if (!base) continue;
      const baseRelation = byOid.get(base.rel);
      const baseColumn = baseRelation?.columns.find((c) => c.num === base.col);
      if (baseRelation && baseColumn)
        resolved.set(columnName, { relation: baseRelation.name, column: baseColumn.name });
    }
    viewColumnOrigins.set(view.name, resolved);
  }

  // Foreign keys between tables, then the same keys seen through views on either side.
  const baseKeys: ForeignKey[] = [];
  for (const key of rows.keys) {
    if (key.type !== 'f' || !key.frel || !key.fcols) continue;
    const from = byOid.get(key.rel);
    const to = byOid.get(key.frel);
    if (!from || !to) continue;
    const fromColumns = key.cols.map((n) => from.columns.find((c) => c.num === n)?.name);
    const toColumns = key.fcols.map((n) => to.columns.find((c) => c.num === n)?.name);
    if (fromColumns.some((c) => !c) || toColumns.some((c) => !c)) continue;
    baseKeys.push({
      name: key.name,
      from,
      fromColumns: fromColumns as string[],
      to,
      toColumns: toColumns as string[],
    });
  }
  // base relation name → views exposing its columns: view → base column → view column
  const exposures = new Map<string, Array<{ view: CatalogRelation; columns: Map<string, string> }>>();
  for (const [viewName, origins] of viewColumnOrigins) {
    const view = relations.get(viewName);
    if (!view) continue;
    const perBase = new Map<string, Map<string, string>>();
    for (const [viewColumn, origin] of origins) {
      let m = perBase.get(origin.relation);
      if (!m) perBase.set(origin.relation, (m = new Map()));
      if (!m.has(origin.column)) m.set(origin.column, viewColumn);
    }
    for (const [base, columns] of perBase) {
      let list = exposures.get(base);
      if (!list) exposures.set(base, (list = []));
      list.push({ view, columns });
    }
  }
  const sides = (
    relation: CatalogRelation,
    columns: readonly string[],
  ): Array<{ relation: CatalogRelation; columns: string[] }> => {
    const out = [{ relation, columns: [...columns] }];
    for (const exposure of exposures.get(relation.name) ?? []) {
      const mapped = columns.map((c) => exposure.columns.get(c));
      if (mapped.every((c): c is string => c !== undefined))
        out.push({ relation: exposure.view, columns: mapped });
    }
    return out;
  };
  const foreignKeys: ForeignKey[] = [];
  for (const key of baseKeys) {
    for (const from of sides(key.from, key.fromColumns)) {
      for (const to of sides(key.to, key.toColumns)) {
        foreignKeys.push({
          name: key.name,
          from: from.relation,
          fromColumns: from.columns,
          to: to.relation,
          toColumns: to.columns,
        });
      }
    }
  }
  const keysFrom = new Map<string, ForeignKey[]>();
  const keysTo = new Map<string, ForeignKey[]>();
  for (const key of foreignKeys) {
    pushTo(keysFrom, key.from.name, key);
    pushTo(keysTo, key.to.name, key);
  }

  const isUnique = (relation: CatalogRelation, columns: readonly string[]): boolean => {
    const keysOf = uniqueKeysOf(relation, viewColumnOrigins, relations);
    return keysOf.some((key) => key.length > 0 && key.every((c) => columns.includes(c)));
  };

  const relationshipCache = new Map<string, Relationship[]>();
  const relationshipsOf = (source: CatalogRelation): Relationship[] => {
    const cached = relationshipCache.get(source.name);
    if (cached) return cached;
    const out: Relationship[] = [];
    for (const key of keysFrom.get(source.name) ?? []) {
      out.push({
        cardinality: isUnique(source, key.fromColumns) ? 'one-to-one' : 'many-to-one',
        source,
        target: key.to,
        foreignKey: key,
        sourceColumns: key.fromColumns,
        targetColumns: key.toColumns,
        fkOnSource: true,
        junction: null,
      });
    }
    for (const key of keysTo.get(source.name) ?? []) {
      out.push({
        cardinality: isUnique(key.from, key.fromColumns) ? 'one-to-one' : 'one-to-many',
        source,
        target: key.from,
        foreignKey: key,
        sourceColumns: key.toColumns,
        targetColumns: key.fromColumns,
        fkOnSource: false,
        junction: null,
      });
      // Many-to-many: the referencing relation is a junction when its keys to both sides are
      // covered by one of its primary/unique keys.
      const junction = key.from;
      for (const other of keysFrom.get(junction.name) ?? []) {
        if (
          other === key ||
          (other.name === key.name && other.to === key.to && sameColumns(other.fromColumns, key.fromColumns))
        )
          continue;
        if (sameColumns(other.fromColumns, key.fromColumns)) continue;
        const covered = [...key.fromColumns, ...other.fromColumns];
        const junctionKeys = uniqueKeysOf(junction, viewColumnOrigins, relations);
        if (!junctionKeys.some((uk) => uk.length > 0 && covered.every((c) => uk.includes(c)))) continue;
        out.push({
          cardinality: 'many-to-many',
          source,
          target: other.to,
          foreignKey: key,
          sourceColumns: key.toColumns,
          targetColumns: other.toColumns,
          fkOnSource: false,
          junction: { relation: junction, sourceKey: key, targetKey: other },
        });
      }
    }
    relationshipCache.set(source.name, out);
    return out;
  };

  const functionsByName = new Map<string, CatalogFunction[]>();
  for (const row of rows.functions) {
    const fn = buildFunction(row, byOid);
    if (!fn) continue;
    let list = functionsByName.get(fn.name);
    if (!list) functionsByName.set(fn.name, (list = []));
    list.push(fn);
  }

  const typeNames = new Map<string, string>();
  for (const row of rows.types) {
    const key = row.name.toLowerCase();
    // Types of our schema shadow pg_catalog's only when pg_catalog has none of that name.
    if (row.schema === 'pg_catalog' || !typeNames.has(key)) {
      typeNames.set(key, `${quoteIdent(row.schema)}.${quoteIdent(row.name)}`);
    }
  }
  const resolveType = (name: string): string | null => {
    let text = name.trim().toLowerCase().replace(/\s+/g, ' ');
    let array = false;
    if (text.endsWith('[]')) {
      array = true;
      text = text.slice(0, -2).trim();
    }
    const canonical = TYPE_ALIASES[text] ?? text;
    return typeNames.get(array ? `_${canonical}` : canonical) ?? null;
  };

  // "relation.column" of every column a containment index covers, views through their origins.
  const containmentIndexed = new Set<string>();
  for (const row of rows.containment) {
    const relation = byOid.get(row.rel);
    const column = relation?.columns.find((c) => c.num === row.num);
    if (relation && column) containmentIndexed.add(`${relation.name}.${column.name}`);
  }
  const hasContainmentIndex = (relation: CatalogRelation, column: string): boolean => {
    if (containmentIndexed.has(`${relation.name}.${column}`)) return true;
    const origin = viewColumnOrigins.get(relation.name)?.get(column);
    return origin !== undefined && containmentIndexed.has(`${origin.relation}.${origin.column}`);
  };

  return {
    schema,
    version,
    relations,
    functions: functionsByName,
    viewColumnOrigins,
    relationships: relationshipsOf,
    hasContainmentIndex,
    resolveType,
  };
}

const TYPE_ALIASES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  boolean: 'bool',
  real: 'float4',
  float: 'float8',
  'double precision': 'float8',
  decimal: 'numeric',
  'character varying': 'varchar',
  character: 'bpchar',
  char: 'bpchar',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
};

/** Unique keys of a relation; for a view, the base table's keys it exposes completely. */
function uniqueKeysOf(
  relation: CatalogRelation,
  origins: ReadonlyMap<string, ReadonlyMap<string, { relation: string; column: string }>>,
  relations: ReadonlyMap<string, CatalogRelation>,
): ReadonlyArray<readonly string[]> {
  if (relation.kind !== 'view' && relation.kind !== 'materialized_view') return relation.uniqueKeys;
  const map = origins.get(relation.name);
  if (!map) return [];
  const out: string[][] = [];
  const reverse = new Map<string, Map<string, string>>();
  for (const [viewColumn, origin] of map) {
    let m = reverse.get(origin.relation);
    if (!m) reverse.set(origin.relation, (m = new Map()));
    if (!m.has(origin.column)) m.set(origin.column, viewColumn);
  }
  for (const [baseName, columns] of reverse) {
    const base = relations.get(baseName);
    if (!base) continue;
    for (const key of base.uniqueKeys) {
      const mapped = key.map((c) => columns.get(c));
      if (mapped.every((c): c is string => c !== undefined)) out.push(mapped);
    }
  }
  return out;
}

function buildFunction(
  row: FunctionRow,
  byOid: ReadonlyMap<string, CatalogRelation>,
): CatalogFunction | null {
  const modes = row.arg_modes ?? row.arg_types.map(() => 'i');
  const names = row.arg_names ?? [];
  const args: FunctionArgument[] = [];
  const outColumns: CatalogColumn[] = [];
  let inputIndex = 0;
  const firstDefault = row.nargs - row.ndefaults;
  for (let i = 0; i < row.arg_types.length; i++) {
    const mode = modes[i] ?? 'i';
    const name = names[i] ?? '';
    if (mode === 'i' || mode === 'b' || mode === 'v') {
      args.push({
        name,
        type: row.arg_types[i],
        hasDefault: inputIndex >= firstDefault,
        variadic: mode === 'v',
      });
      inputIndex++;
    }
    if (mode === 'o' || mode === 'b' || mode === 't') {
      outColumns.push({
        name,
        num: outColumns.length + 1,
        type: row.arg_types[i],
        baseType: row.arg_types[i],
        category: categoryFromTypeText(row.arg_types[i]),
        notNull: false,
        hasDefault: false,
        generated: false,
        defaultExpression: null,
      });
    }
  }
  let returns: FunctionReturn;
  if (row.ret_typname === 'void') returns = { kind: 'void' };
  else if (row.ret_relid !== '0' && byOid.has(row.ret_relid))
    returns = { kind: 'relation', relation: byOid.get(row.ret_relid)! };
  else if (row.ret_typname === 'record' && outColumns.length > 0)
    returns = { kind: 'columns', columns: outColumns };
  else if (row.ret_typname === 'record')
    return null; // anonymous records cannot be described; not callable here
  else returns = { kind: 'scalar', type: row.ret_type };
  return {
    oid: Number(row.oid),
    name: row.name,
    args,
    returnsSet: row.retset,
    returns,
    volatility: row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile',
  };
}

function categoryFromTypeText(type: string): ColumnCategory {
  if (type.endsWith('[]')) return 'array';
  if (type === 'json' || type === 'jsonb') return 'json';
  if (type === 'text' || type.startsWith('character')) return 'string';
  if (type.startsWith('timestamp') || type === 'date') return 'datetime';
  if (
    ['integer', 'bigint', 'smallint', 'numeric', 'real', 'double precision'].includes(type) ||
    type.startsWith('numeric')
  )
    return 'numeric';
  if (type === 'boolean') return 'boolean';
  if (type === 'tsvector') return 'tsvector';
  return 'other';
}

/** Node-tree text escapes spaces and specials in names with backslashes. */
function unescapeNodeName(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
