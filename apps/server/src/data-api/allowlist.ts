/**
 * Which relations and functions the data API exposes, and per relation which actions exist and
 * which columns are hidden (never selectable, filterable or returned) or writable.
 *
 * Anything not listed answers like a relation that does not exist (42P01 / PGRST202).
 */

export type RelationAction = 'read' | 'insert' | 'update' | 'delete';
export type DataApiAction = RelationAction | 'execute';

export interface RelationPolicyInput {
  /** Defaults: tables read/insert/update/delete, views read. */
  readonly actions?: readonly RelationAction[];
  readonly hiddenColumns?: readonly string[];
  /** Columns a write may set; default every column that is not hidden. */
  readonly writableColumns?: readonly string[];
  /** PATCH/DELETE without any filter; default false. */
  readonly allowFilterlessWrite?: boolean;
  /** See `ReadSource`. */
  readonly readSource?: ReadSource;
}

/**
 * A read-only view whose rows aggregate another relation's rows (a canary's count of checks)
 * would leak rows a caller may not see: the view cannot know the caller's row restrictions.
 * Such a relation may give its rows as SQL that the planner reads instead of the view (same
 * columns, in the view's order), with the aggregated relation's restriction compiled in:
 * `restrict(relation, alias)` authorizes `relation` for read and returns the marker where its
 * row restrictions are AND-ed (empty when there are none); `relation(name)` is the qualified
 * name of a relation. The view stays in the database for the catalog (columns, types, keys).
 */
export type ReadSource = (sql: {
  relation(name: string): string;
  /** `optional`: a caller who may not read `relation` at all sees none of its rows (counts 0) instead of a 403. */
  restrict(relation: string, alias: string, options?: { optional?: boolean }): string;
}) => string;

export interface FunctionPolicyInput {
  /** Hidden columns of the rows the function returns (added to those of its return relation). */
  readonly hiddenColumns?: readonly string[];
}

export interface DataApiAllowlistInput {
  readonly tables?: Readonly<Record<string, RelationPolicyInput>>;
  readonly views?: Readonly<Record<string, RelationPolicyInput>>;
  readonly functions?: Readonly<Record<string, FunctionPolicyInput>> | readonly string[];
  /** Relations matched by name prefix, e.g. `view_` for the per-view tables. */
  readonly prefixes?: Readonly<Record<string, RelationPolicyInput & { readonly kind?: 'table' | 'view' }>>;
  /** Column names hidden on every relation (hashes and secrets). */
  readonly hiddenEverywhere?: readonly string[];
}

export interface RelationPolicy {
  readonly name: string;
  readonly declaredKind: 'table' | 'view';
  readonly actions: ReadonlySet<RelationAction>;
  readonly hiddenColumns: ReadonlySet<string>;
  /** null: every visible column. */
  readonly writableColumns: ReadonlySet<string> | null;
  readonly allowFilterlessWrite: boolean;
  readonly readSource: ReadSource | null;
}

export interface FunctionPolicy {
  readonly name: string;
  readonly hiddenColumns: ReadonlySet<string>;
}

export interface DataApiAllowlist {
  relation(name: string): RelationPolicy | null;
  function(name: string): FunctionPolicy | null;
  /** Hidden everywhere (used for relations reached only through a view or a function). */
  readonly hiddenEverywhere: ReadonlySet<string>;
}

const ALL_ACTIONS: readonly RelationAction[] = ['read', 'insert', 'update', 'delete'];

export function createDataApiAllowlist(input: DataApiAllowlistInput): DataApiAllowlist {
  const hiddenEverywhere = new Set(input.hiddenEverywhere ?? []);
  const build = (name: string, kind: 'table' | 'view', policy: RelationPolicyInput): RelationPolicy => ({
    name,
    declaredKind: kind,
    actions: new Set(policy.actions ?? (kind === 'table' ? ALL_ACTIONS : ['read'])),
    hiddenColumns: new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]),
    writableColumns: policy.writableColumns ? new Set(policy.writableColumns) : null,
    allowFilterlessWrite: policy.allowFilterlessWrite ?? false,
    readSource: kind === 'view' ? (policy.readSource ?? null) : null,
  });
  const relations = new Map<string, RelationPolicy>();
  for (const [name, policy] of Object.entries(input.tables ?? {}))
    relations.set(name, build(name, 'table', policy));
  for (const [name, policy] of Object.entries(input.views ?? {}))
    relations.set(name, build(name, 'view', policy));
  const prefixes = Object.entries(input.prefixes ?? {}).map(([prefix, policy]) => ({
    prefix,
    kind: policy.kind ?? 'table',
    policy,
  }));
  const prefixCache = new Map<string, RelationPolicy | null>();
  const functions = new Map<string, FunctionPolicy>();
  const fnInput = input.functions ?? {};
  const fnEntries: Array<[string, FunctionPolicyInput]> = Array.isArray(fnInput)
    ? (fnInput as readonly string[]).map((name) => [name, {}])
    : Object.entries(fnInput as Record<string, FunctionPolicyInput>);
  for (const [name, policy] of fnEntries) {
    functions.set(name, {
      name,
      hiddenColumns: new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]),
    });
  }
  return {
    hiddenEverywhere,
    relation(name: string): RelationPolicy | null {
      const direct = relations.get(name);
      if (direct) return direct;
      if (prefixes.length === 0) return null;
      if (prefixCache.has(name)) return prefixCache.get(name) ?? null;
      const match = prefixes.find((p) => name.startsWith(p.prefix) && name.length > p.prefix.length);
      const policy = match ? build(name, match.kind, match.policy) : null;
      if (prefixCache.size < 10_000) prefixCache.set(name, policy);
      return policy;
    },
    function(name: string): FunctionPolicy | null {
      return functions.get(name) ?? null;
    },
  };
}

/**
 * Column names hidden on every relation whichever module owns it: hashes and secrets are never
 * selectable, filterable or returned.
 */
export const HIDDEN_EVERYWHERE: readonly string[] = [
  'password_hash',
  'hashed_password',
  'token_hash',
  'secret_hash',
  'totp_secret',
  'recovery_codes',
  'backup_codes',
];

/** Shorthands for `actions` (tables default to all four, views to read). */
export const READ: readonly RelationAction[] = ['read'];
export const READ_UPDATE: readonly RelationAction[] = ['read', 'update'];
export const READ_DELETE: readonly RelationAction[] = ['read', 'delete'];
export const READ_UPDATE_DELETE: readonly RelationAction[] = ['read', 'update', 'delete'];

/**
 * One allowlist input from the modules' own (each module declares the relations it owns in its
 * `module.ts`). A relation, function or prefix declared by two modules is an error: ownership is
 * single. `hiddenEverywhere` is the union.
 */
export function mergeAllowlistInputs(inputs: readonly DataApiAllowlistInput[]): DataApiAllowlistInput {
  const tables: Record<string, RelationPolicyInput> = {};
  const views: Record<string, RelationPolicyInput> = {};
  const functions: Record<string, FunctionPolicyInput> = {};
  const prefixes: Record<string, RelationPolicyInput & { readonly kind?: 'table' | 'view' }> = {};
  const hidden = new Set<string>();
  const claim = <T>(into: Record<string, T>, name: string, value: T, what: string) => {
    if (name in tables || name in views || name in functions || name in prefixes)
      throw new Error(`The data-API ${what} "${name}" is declared by two modules`);
    into[name] = value;
  };
  for (const input of inputs) {
    for (const [name, policy] of Object.entries(input.tables ?? {})) claim(tables, name, policy, 'table');
    for (const [name, policy] of Object.entries(input.views ?? {})) claim(views, name, policy, 'view');
    const fnInput = input.functions ?? {};
    const fnEntries: Array<[string, FunctionPolicyInput]> = Array.isArray(fnInput)
      ? (fnInput as readonly string[]).map((name) => [name, {}])
      : Object.entries(fnInput as Record<string, FunctionPolicyInput>);
    for (const [name, policy] of fnEntries) claim(functions, name, policy, 'function');
    for (const [prefix, policy] of Object.entries(input.prefixes ?? {}))
      claim(prefixes, prefix, policy, 'prefix');
    for (const column of input.hiddenEverywhere ?? []) hidden.add(column);
  }
  return { tables, views, functions, prefixes, hiddenEverywhere: [...hidden] };
}
