/**
 * Stage 1: query string and headers → typed query tree. No catalog, no SQL.
 *
 * Grammar follows PostgREST's (select, filters, logic trees, order, columns, on_conflict,
 * Prefer, Range, Accept) plus the `<column>.filter=` tri-state extension.
 */
import { ApiError, parseError } from './errors.js';
import type {
  AcceptedMedia,
  AggregateFunction,
  Condition,
  CountPreference,
  FieldRef,
  FtsOperator,
  IsValue,
  JsonStep,
  OrderTerm,
  ParamValue,
  ParsedQuery,
  Predicate,
  Preferences,
  QueryScope,
  RangeRequest,
  ReturnPreference,
  SelectNode,
  SimpleOperator,
  TriStateToken,
  ValueRef,
} from './query-tree.js';

/** [key, decoded value, raw value]. */
export type QueryParams = ReadonlyArray<readonly [string, string, string?]>;

/** Splits `a=1&b=2` with form decoding (`+` is a space), keeping repeated keys and their order. */
export function parseQueryString(raw: string): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  if (raw === '') return out;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    out.push([decodeComponent(key), decodeComponent(value), value]);
  }
  return out;
}

function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw parseError('Invalid query string', `Malformed percent-encoding in '${text.slice(0, 200)}'`);
  }
}

const SIMPLE_OPERATORS: ReadonlySet<string> = new Set<SimpleOperator>([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
]);
const QUANTIFIABLE: ReadonlySet<string> = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
]);
const FTS_OPERATORS: ReadonlySet<string> = new Set<FtsOperator>(['fts', 'plfts', 'phfts', 'wfts']);
const IS_VALUES: ReadonlySet<string> = new Set<IsValue>(['null', 'not_null', 'true', 'false', 'unknown']);
const ALL_OPERATORS = [...SIMPLE_OPERATORS, 'in', 'is', ...FTS_OPERATORS];
const OPERATOR_LIST = `(${ALL_OPERATORS.join(', ')})`;

class Collector {
  readonly values: ParamValue[] = [];
  ref(value: ParamValue): ValueRef {
    this.values.push(value);
    return { slot: this.values.length - 1 };
  }
}

/**
 * `select=` and `order=` texts hold no values (only names, casts, paths and directions), and
 * their trees are immutable: the same text parses once. Bounded; failures are not remembered.
 */
const MEMO_LIMIT = 1000;
const selectMemo = new Map<string, readonly SelectNode[]>();
const orderMemo = new Map<string, OrderTerm[]>();

function memoized<T>(memo: Map<string, T>, text: string, parse: (text: string) => T): T {
  let parsed = memo.get(text);
  if (parsed === undefined) {
    parsed = parse(text);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
    memo.set(text, parsed);
  }
  return parsed;
}

export interface ParseOptions {
  /** For GET `rpc/<fn>`: names of the function's arguments (query keys that are arguments). */
  readonly rpcArgNames?: ReadonlySet<string> | null;
}

/** Parses every query parameter into one `ParsedQuery`. Throws ApiError (PGRST100) on bad input. */
export function parseQuery(params: QueryParams, options: ParseOptions = {}): ParsedQuery {
  const collector = new Collector();
  const shape: string[] = [];
  const select: SelectNode[] = [];
  let selectGiven = false;
  const scopes = new Map<string, QueryScope>();
  let limit: number | null = null;
  let offset: number | null = null;
  let columns: string[] | null = null;
  let onConflict: string[] | null = null;
  const rpcArgs = new Map<string, string>();
  const scope = (path: string): QueryScope => {
    let found = scopes.get(path);
    if (!found) {
      found = { conditions: [], order: null, limit: null, offset: null };
      scopes.set(path, found);
    }
    return found;
  };
  scope('');

  for (const [key, value] of params) {
    if (key === '') continue;
    switch (key) {
      case 'select':
        select.push(...memoized(selectMemo, value, parseSelect));
        selectGiven = true;
        shape.push(`select=${value}`);
        continue;
      case 'limit':
        limit = parseNonNegativeInteger(value, 'limit');
        continue;
      case 'offset':
        offset = parseNonNegativeInteger(value, 'offset');
        continue;
      case 'order':
        scope('').order = memoized(orderMemo, value, parseOrder);
        shape.push(`order=${value}`);
        continue;
      case 'columns':
        columns = parseColumnList(value, 'columns');
        shape.push(`columns=${columns.join(',')}`);
        continue;
      case 'on_conflict':
        onConflict = parseColumnList(value, 'on_conflict');
        shape.push(`on_conflict=${onConflict.join(',')}`);
        continue;
    }
    if (options.rpcArgNames && options.rpcArgNames.has(key)) {
      if (rpcArgs.has(key)) {
        throw parseError(`Argument '${key}' is given more than once`, null);
      }
      rpcArgs.set(key, value);
      shape.push(`arg:${key}`);
      continue;
    }
    parseScopedParameter(key, value, collector, shape, scope);
  }

  return {
    select: select.length > 0 ? select : [{ kind: 'star' }],
    selectGiven,
    scopes,
    limit,
    offset,
    columns,
    onConflict,
    rpcArgs,
    values: collector.values,
    shape: shape.join('&'),
  };
}

function parseScopedParameter(
  key: string,
  value: string,
  collector: Collector,
  shape: string[],
  scope: (path: string) => QueryScope,
): void {
  const arrow = key.indexOf('->');
  const head = arrow < 0 ? key : key.slice(0, arrow);
  let tail = arrow < 0 ? '' : key.slice(arrow);
  const parts = head.split('.');
  for (const part of parts.slice(0, arrow < 0 ? parts.length : parts.length - 1)) {
    if (part === '')
      throw parseError(`"failed to parse filter (${key})"`, 'An empty name was found in the key');
  }

  if (arrow < 0) {
    const last = parts[parts.length - 1];
    const beforeLast = parts.length > 1 ? parts[parts.length - 2] : null;
    if (last === 'or' || last === 'and') {
      const negate = beforeLast === 'not';
      const path = parts.slice(0, parts.length - (negate ? 2 : 1)).join('.');
      const condition = parseLogicParameter(last, negate, value, collector);
      scope(path).conditions.push(condition);
      shape.push(`${key}=${logicShape(condition)}`);
      return;
    }
    if (parts.length > 1 && (last === 'order' || last === 'limit' || last === 'offset')) {
      const path = parts.slice(0, -1).join('.');
      const target = scope(path);
      if (last === 'order') {
        target.order = memoized(orderMemo, value, parseOrder);
        shape.push(`${key}=${value}`);
      } else {
        const n = parseNonNegativeInteger(value, last);
        target[last] = collector.ref(n);
        shape.push(`${key}=#`);
      }
      return;
    }
    if (parts.length > 1 && last === 'filter') {
      const column = parts[parts.length - 2];
      const path = parts.slice(0, -2).join('.');
      const condition = parseTriState({ column, json: [] }, value, collector);
      scope(path).conditions.push(condition);
      shape.push(`${key}=${triStateShape(condition)}`);
      return;
    }
    const column = last;
    const path = parts.slice(0, -1).join('.');
    const condition = parseFilterCondition({ column, json: [] }, value, key, collector);
    scope(path).conditions.push(condition);
    shape.push(`${key}=${conditionShape(condition)}`);
    return;
  }

  let triState = false;
  if (tail.endsWith('.filter')) {
    triState = true;
    tail = tail.slice(0, -'.filter'.length);
  }
  const column = parts[parts.length - 1];
  const path = parts.slice(0, -1).join('.');
  if (column === '')
    throw parseError(`"failed to parse filter (${key})"`, 'A column name is missing before "->"');
  const json = parseJsonPath(tail, 0, key).steps;
  const field: FieldRef = { column, json };
  const condition = triState
    ? parseTriState(field, value, collector)
    : parseFilterCondition(field, value, key, collector);
  scope(path).conditions.push(condition);
  shape.push(
    `${key}=${condition.kind === 'tristate' ? triStateShape(condition) : conditionShape(condition)}`,
  );
}

function parseNonNegativeInteger(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw parseError(
      `"failed to parse ${name} parameter (${value})"`,
      `${name} must be a non-negative integer`,
    );
  }
  return Number(value);
}

// ---------------------------------------------------------------------------------------------
// JSON paths: `->key`, `->>key`, `->0`, `->"quoted.key"`

interface JsonParse {
  steps: JsonStep[];
  end: number;
}

/**
 * Reads `->`/`->>` steps from `text` at `start`. A key runs to the next `->` or to a stop
 * character; dots are allowed in keys (`labels->>app.kubernetes.io/name`).
 */
function parseJsonPath(text: string, start: number, context: string, stops = ''): JsonParse {
  const steps: JsonStep[] = [];
  let i = start;
  while (text.startsWith('->', i)) {
    const arrow: '->' | '->>' = text.startsWith('->>', i) ? '->>' : '->';
    i += arrow.length;
    let key = '';
    let quoted = false;
    if (text[i] === '"') {
      const q = readQuoted(text, i, context);
      key = q.value;
      i = q.end;
      quoted = true;
    } else {
      const begin = i;
      while (
        i < text.length &&
        !text.startsWith('->', i) &&
        !stops.includes(text[i]) &&
        !text.startsWith('::', i)
      )
        i++;
      key = text.slice(begin, i);
    }
    if (key === '' && !quoted) {
      throw parseError(`"failed to parse json path (${context})"`, `A key is missing after "${arrow}"`);
    }
    steps.push({ arrow, key, isIndex: !quoted && /^-?\d+$/.test(key) });
  }
  return { steps, end: i };
}

function readQuoted(text: string, start: number, context: string): { value: string; end: number } {
  let i = start + 1;
  let out = '';
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '"') return { value: out, end: i + 1 };
    out += ch;
    i++;
  }
  throw parseError(`"failed to parse (${context})"`, 'Unterminated double quote');
}

// ---------------------------------------------------------------------------------------------
// select

const NAME_STOPS = ',()!:';

const MAX_EMBED_DEPTH = 16;

class SelectCursor {
  i = 0;
  depth = 0;
  constructor(readonly text: string) {}
  fail(expecting: string): never {
    const found = this.i < this.text.length ? `"${this.text[this.i]}"` : 'end of input';
    throw parseError(
      `"failed to parse select parameter (${this.text})" (line 1, column ${this.i + 1})`,
      `unexpected ${found} expecting ${expecting}`,
    );
  }
  skipSpace(): void {
    while (
      this.i < this.text.length &&
      (this.text[this.i] === ' ' || this.text[this.i] === '\n' || this.text[this.i] === '\t')
    )
      this.i++;
  }
  peek(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }
  /** A name: double-quoted, or a run of characters up to a delimiter, `->` or `::`. */
  name(): string | null {
    this.skipSpace();
    if (this.text[this.i] === '"') {
      const q = readQuoted(this.text, this.i, this.text);
      this.i = q.end;
      return q.value;
    }
    const begin = this.i;
    while (this.i < this.text.length) {
      const ch = this.text[this.i];
      if (NAME_STOPS.includes(ch) || this.peek('->') || ch === ' ' || ch === '.') break;
      this.i++;
    }
    return this.i > begin ? this.text.slice(begin, this.i) : null;
  }
}

export function parseSelect(text: string): SelectNode[] {
  const cursor = new SelectCursor(text);
  const nodes = parseSelectList(cursor, false);
  cursor.skipSpace();
  if (cursor.i < cursor.text.length) cursor.fail('"," or end of input');
  return nodes;
}

function parseSelectList(cursor: SelectCursor, nested: boolean): SelectNode[] {
  const nodes: SelectNode[] = [];
  cursor.skipSpace();
  if (nested && cursor.peek(')')) return nodes;
  if (!nested && cursor.i >= cursor.text.length) return nodes;
  for (;;) {
    nodes.push(parseSelectItem(cursor));
    cursor.skipSpace();
    if (cursor.peek(',')) {
      cursor.i++;
      continue;
    }
    return nodes;
  }
}

function parseSelectItem(cursor: SelectCursor): SelectNode {
  cursor.skipSpace();
  if (cursor.peek('*')) {
    cursor.i++;
    return { kind: 'star' };
  }
  let spread = false;
  if (cursor.peek('...')) {
    spread = true;
    cursor.i += 3;
  }
  let alias: string | null = null;
  let name = cursor.name();
  if (name === null) cursor.fail('a column name, "*" or an embedded resource');
  cursor.skipSpace();
  if (cursor.peek(':') && !cursor.peek('::')) {
    if (spread) cursor.fail('an embedded resource after "..."');
    cursor.i++;
    alias = name;
    name = cursor.name();
    if (name === null) cursor.fail('a column name or an embedded resource after the alias');
    cursor.skipSpace();
  }
  // Embedded resource: name[!hint][!inner|!left](...)
  if (cursor.peek('!') || cursor.peek('(')) {
    let hint: string | null = null;
    let join: 'inner' | 'left' | null = null;
    while (cursor.peek('!')) {
      cursor.i++;
      const word = cursor.name();
      if (word === null) cursor.fail('a hint or "inner"/"left" after "!"');
      if (word === 'inner' || word === 'left') {
        if (join) cursor.fail('"(" after the join type');
        join = word;
      } else {
        if (hint !== null || join !== null) cursor.fail('"(" after the hint');
        hint = word;
      }
      cursor.skipSpace();
    }
    if (!cursor.peek('(')) cursor.fail('"(" to open the embedded resource');
    cursor.i++;
    if (++cursor.depth > MAX_EMBED_DEPTH) {
      throw parseError(
        `"failed to parse select parameter (${cursor.text})"`,
        `Embedded resources nest at most ${MAX_EMBED_DEPTH} levels`,
      );
    }
    if (name === 'count' && !spread && hint === null && join === null && cursor.peek(')')) {
      // `count()`: counts the rows of the level (grouped by its other items).
      cursor.i++;
      cursor.depth--;
      const aggregateCast = readCast(cursor);
      return {
        kind: 'column',
        field: { column: '*', json: [] },
        alias,
        cast: null,
        aggregate: 'count',
        aggregateCast,
      };
    }
    const select = parseSelectList(cursor, true);
    cursor.skipSpace();
    if (!cursor.peek(')')) cursor.fail('"," or ")"');
    cursor.i++;
    cursor.depth--;
    return { kind: 'embed', name, alias, hint, join, spread, select: select.length === 0 ? [] : select };
  }
  if (spread) cursor.fail('"(" after the spread embedded resource');
  const json = parseJsonPath(cursor.text, cursor.i, cursor.text, ',()');
  cursor.i = json.end;
  const steps = [...json.steps];
  let aggregate: AggregateFunction | null = null;
  // A JSON key runs up to "(" (dots are allowed in keys): `labels->>amount.sum()` ends in an aggregate.
  if (steps.length > 0 && cursor.peek('()')) {
    const last = steps[steps.length - 1];
    const match = /^(.+)\.(count|sum|avg|min|max)$/s.exec(last.key);
    if (!match) cursor.fail('",", ")", "::" or "->"');
    steps[steps.length - 1] = { ...last, key: match[1], isIndex: /^-?\d+$/.test(match[1]) };
    aggregate = match[2] as AggregateFunction;
    cursor.i += 2;
  }
  const cast = aggregate ? null : readCast(cursor);
  if (!aggregate && cursor.peek('.')) {
    const match = /^\.(count|sum|avg|min|max)\(\)/.exec(cursor.text.slice(cursor.i, cursor.i + 8));
    if (!match)
      cursor.fail('",", ")", "::", "->" or an aggregate (.count(), .sum(), .avg(), .min(), .max())');
    aggregate = match[1] as AggregateFunction;
    cursor.i += match[0].length;
  }
  const aggregateCast = aggregate ? readCast(cursor) : null;
  return {
    kind: 'column',
    field: { column: name, json: steps },
    alias,
    cast,
    aggregate,
    aggregateCast,
  };
}

/** `::type` at the cursor, or null. */
function readCast(cursor: SelectCursor): string | null {
  if (!cursor.peek('::')) return null;
  cursor.i += 2;
  const begin = cursor.i;
  while (cursor.i < cursor.text.length && /[A-Za-z0-9_ [\]]/.test(cursor.text[cursor.i])) cursor.i++;
  const cast = cursor.text.slice(begin, cursor.i).trim();
  if (cast === '') cursor.fail('a type name after "::"');
  return cast;
}

// ---------------------------------------------------------------------------------------------
// columns / on_conflict: `a,b` or `"a","b"` (postgrest-js quotes them)

function parseColumnList(text: string, what: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= text.length) {
    while (text[i] === ' ') i++;
    let name: string;
    if (text[i] === '"') {
      const q = readQuoted(text, i, text);
      name = q.value;
      i = q.end;
    } else {
      const begin = i;
      while (i < text.length && text[i] !== ',') i++;
      name = text.slice(begin, i).trim();
    }
    if (name === '') {
      throw parseError(`"failed to parse ${what} parameter (${text})"`, 'An empty column name was found');
    }
    out.push(name);
    while (text[i] === ' ') i++;
    if (i >= text.length) break;
    if (text[i] !== ',') {
      throw parseError(
        `"failed to parse ${what} parameter (${text})" (line 1, column ${i + 1})`,
        `unexpected "${text[i]}" expecting ","`,
      );
    }
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// filters: [not.]op[(modifier)].value

function parseFilterCondition(field: FieldRef, raw: string, key: string, collector: Collector): Condition {
  const parsed = parseOperatorExpression(raw, collector, null, `${key}=${raw}`);
  return { kind: 'filter', field, negate: parsed.negate, predicate: parsed.predicate };
}

interface OperatorParse {
  negate: boolean;
  predicate: Predicate;
  end: number;
}

/**
 * Parses `[not.]op[(mod)].value` from `text`. With `logicStops` the value ends at a top-level
 * `,` or `)` (logic trees); without, the value is the rest of the text.
 */
function parseOperatorExpression(
  text: string,
  collector: Collector,
  logicStart: number | null,
  context: string,
): OperatorParse {
  let i = logicStart ?? 0;
  const fail = (details: string): never => {
    throw parseError(
      `"failed to parse ${logicStart === null ? 'filter' : 'logic tree'} (${context})" (line 1, column ${i + 1})`,
      details,
    );
  };
  let negate = false;
  if (text.startsWith('not.', i)) {
    negate = true;
    i += 4;
  }
  const opMatch = /^([a-z]+)(?:\(([^()]*)\))?/.exec(text.slice(i));
  if (!opMatch) fail(`unexpected ${describeAt(text, i)} expecting "not" or operator ${OPERATOR_LIST}`);
  const op = opMatch![1];
  const modifier = opMatch![2] ?? null;
  if (!SIMPLE_OPERATORS.has(op) && op !== 'in' && op !== 'is' && !FTS_OPERATORS.has(op)) {
    fail(`unexpected "${op}" expecting "not" or operator ${OPERATOR_LIST}`);
  }
  i += opMatch![0].length;
  if (text[i] !== '.') fail(`unexpected ${describeAt(text, i)} expecting "."`);
  i++;

  const readValue = (): string => {
    if (logicStart === null) {
      const v = text.slice(i);
      i = text.length;
      return v;
    }
    return readLogicValue();
  };
  const readLogicValue = (): string => {
    if (text[i] === '"') {
      const q = readQuoted(text, i, context);
      if (i < text.length && text[q.end] !== undefined && text[q.end] !== ',' && text[q.end] !== ')') {
        fail(`unexpected ${describeAt(text, q.end)} after a quoted value`);
      }
      i = q.end;
      return q.value;
    }
    if (text[i] === '{') {
      const end = matchBalanced(text, i, '{', '}');
      if (end < 0) fail('unbalanced "{"');
      const v = text.slice(i, end + 1);
      i = end + 1;
      return v;
    }
    const begin = i;
    while (i < text.length && text[i] !== ',' && text[i] !== ')') i++;
    return text.slice(begin, i);
  };

  if (op === 'in') {
    if (modifier !== null) fail('"in" takes no modifier');
    if (text[i] !== '(') fail(`unexpected ${describeAt(text, i)} expecting "(" to open the list`);
    const list = parseList(text, i, context);
    i = list.end;
    if (logicStart === null && i < text.length) fail(`unexpected ${describeAt(text, i)} after the list`);
    return { negate, predicate: { kind: 'in', values: collector.ref(list.items) }, end: i };
  }
  if (op === 'is') {
    if (modifier !== null) fail('"is" takes no modifier');
    const v = readValue().toLowerCase();
    if (!IS_VALUES.has(v)) fail(`unexpected "${v}" expecting null, not_null, true, false or unknown`);
    return { negate, predicate: { kind: 'is', value: v as IsValue }, end: i };
  }
  if (FTS_OPERATORS.has(op)) {
    let language: ValueRef | null = null;
    if (modifier !== null) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(modifier))
        fail(`"${modifier}" is not a text search configuration name`);
      language = collector.ref(modifier);
    }
    const v = readValue();
    return {
      negate,
      predicate: { kind: 'fts', op: op as FtsOperator, language, value: collector.ref(v) },
      end: i,
    };
  }
  let quantifier: 'any' | 'all' | null = null;
  if (modifier !== null) {
    if (!QUANTIFIABLE.has(op) || (modifier !== 'any' && modifier !== 'all')) {
      fail(`unexpected "(${modifier})" for "${op}": expecting "(any)" or "(all)"`);
    }
    quantifier = modifier as 'any' | 'all';
  }
  let v = readValue();
  if (op === 'like' || op === 'ilike') v = v.replace(/\*/g, '%');
  if (quantifier !== null && !/^\{.*\}$/s.test(v)) {
    fail(`"${op}(${quantifier})" expects a list in curly braces, such as {a,b}`);
  }
  return {
    negate,
    predicate: { kind: 'op', op: op as SimpleOperator, quantifier, value: collector.ref(v) },
    end: i,
  };
}

function describeAt(text: string, i: number): string {
  return i < text.length ? `"${text[i]}"` : 'end of input';
}

function matchBalanced(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  let inQuote = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inQuote) {
      if (ch === '\\') i++;
      else if (ch === '"') inQuote = false;
      continue;
    }
    if (ch === '"') inQuote = true;
    else if (ch === open) depth++;
    else if (ch === close) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `(a,"b,c",d)` → ['a','b,c','d']; `()` → []. */
function parseList(text: string, start: number, context: string): { items: string[]; end: number } {
  let i = start + 1;
  const items: string[] = [];
  if (text[i] === ')') return { items, end: i + 1 };
  for (;;) {
    if (text[i] === '"') {
      const q = readQuoted(text, i, context);
      items.push(q.value);
      i = q.end;
    } else {
      const begin = i;
      while (i < text.length && text[i] !== ',' && text[i] !== ')') i++;
      items.push(text.slice(begin, i));
    }
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ')') return { items, end: i + 1 };
    throw parseError(
      `"failed to parse filter (${context})" (line 1, column ${i + 1})`,
      `unexpected ${describeAt(text, i)} expecting "," or ")"`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// logic trees: or=(a.eq.1,and(b.gt.2,c.is.null),not.or(...))

function parseLogicParameter(
  op: 'and' | 'or',
  negate: boolean,
  text: string,
  collector: Collector,
): Condition {
  const context = `${negate ? 'not.' : ''}${op}=${text}`;
  if (text[0] !== '(') {
    throw parseError(
      `"failed to parse logic tree (${text})" (line 1, column 1)`,
      'unexpected start expecting "("',
    );
  }
  const parsed = parseLogicChildren(text, 0, collector, context, 0);
  if (parsed.end !== text.length) {
    throw parseError(
      `"failed to parse logic tree (${text})" (line 1, column ${parsed.end + 1})`,
      `unexpected ${describeAt(text, parsed.end)} expecting end of input`,
    );
  }
  return { kind: 'logic', op, negate, children: parsed.children };
}

const MAX_LOGIC_DEPTH = 32;

function parseLogicChildren(
  text: string,
  start: number,
  collector: Collector,
  context: string,
  depth: number,
): { children: Condition[]; end: number } {
  if (depth > MAX_LOGIC_DEPTH) {
    throw parseError(
      `"failed to parse logic tree (${context})"`,
      `Logic trees nest at most ${MAX_LOGIC_DEPTH} levels`,
    );
  }
  let i = start + 1;
  const children: Condition[] = [];
  for (;;) {
    const child = parseLogicCondition(text, i, collector, context, depth);
    children.push(child.condition);
    i = child.end;
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ')') return { children, end: i + 1 };
    throw parseError(
      `"failed to parse logic tree (${context})" (line 1, column ${i + 1})`,
      `unexpected ${describeAt(text, i)} expecting "," or ")"`,
    );
  }
}

function parseLogicCondition(
  text: string,
  start: number,
  collector: Collector,
  context: string,
  depth: number,
): { condition: Condition; end: number } {
  let i = start;
  const nested = /^(not\.)?(and|or)\(/.exec(text.slice(i, i + 8));
  if (nested) {
    const negate = Boolean(nested[1]);
    const op = nested[2] as 'and' | 'or';
    i += nested[0].length - 1;
    const inner = parseLogicChildren(text, i, collector, context, depth + 1);
    return { condition: { kind: 'logic', op, negate, children: inner.children }, end: inner.end };
  }
  // field: column[->json...] then '.'
  let column: string;
  if (text[i] === '"') {
    const q = readQuoted(text, i, context);
    column = q.value;
    i = q.end;
  } else {
    const begin = i;
    while (i < text.length && !'.,()'.includes(text[i]) && !text.startsWith('->', i)) i++;
    column = text.slice(begin, i);
  }
  if (column === '') {
    throw parseError(
      `"failed to parse logic tree (${context})" (line 1, column ${i + 1})`,
      `unexpected ${describeAt(text, i)} expecting a column name`,
    );
  }
  const json = parseJsonPath(text, i, context, '.,()');
  i = json.end;
  if (text[i] !== '.') {
    throw parseError(
      `"failed to parse logic tree (${context})" (line 1, column ${i + 1})`,
      `unexpected ${describeAt(text, i)} expecting "."`,
    );
  }
  i++;
  const parsed = parseOperatorExpression(text, collector, i, context);
  return {
    condition: {
      kind: 'filter',
      field: { column, json: json.steps },
      negate: parsed.negate,
      predicate: parsed.predicate,
    },
    end: parsed.end,
  };
}

// ---------------------------------------------------------------------------------------------
// order=a.desc,b.asc.nullslast,labels->>x,created_by(name).desc

export function parseOrder(text: string): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const rawTerm of splitTopLevel(text)) {
    const term = rawTerm.trim();
    const fail = (details: string): never => {
      throw parseError(`"failed to parse order (${text})" (line 1, column 1)`, details);
    };
    if (term === '') fail('An empty order term was found');
    let rest = term;
    let nulls: 'first' | 'last' | null = null;
    let direction: 'asc' | 'desc' | null = null;
    if (rest.endsWith('.nullsfirst')) {
      nulls = 'first';
      rest = rest.slice(0, -'.nullsfirst'.length);
    } else if (rest.endsWith('.nullslast')) {
      nulls = 'last';
      rest = rest.slice(0, -'.nullslast'.length);
    }
    if (rest.endsWith('.asc')) {
      direction = 'asc';
      rest = rest.slice(0, -'.asc'.length);
    } else if (rest.endsWith('.desc')) {
      direction = 'desc';
      rest = rest.slice(0, -'.desc'.length);
    }
    let relation: string | null = null;
    const embedded = /^([^()]+)\((.+)\)$/.exec(rest);
    if (embedded) {
      relation = embedded[1].trim();
      rest = embedded[2].trim();
    }
    let column: string;
    let i = 0;
    if (rest[0] === '"') {
      const q = readQuoted(rest, 0, text);
      column = q.value;
      i = q.end;
    } else {
      while (i < rest.length && !rest.startsWith('->', i)) i++;
      column = rest.slice(0, i);
    }
    if (column === '' || /[(),]/.test(column) || column.includes('.')) {
      fail(
        `unexpected "${rest}" expecting a column name, optionally followed by .asc/.desc and .nullsfirst/.nullslast`,
      );
    }
    const json = parseJsonPath(rest, i, text);
    if (json.end !== rest.length) fail(`unexpected "${rest.slice(json.end)}"`);
    terms.push({ relation, field: { column, json: json.steps }, direction, nulls });
  }
  return terms;
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inQuote = false;
  let begin = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuote) {
      if (ch === '\\') i++;
      else if (ch === '"') inQuote = false;
      continue;
    }
    if (ch === '"') inQuote = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(begin, i));
      begin = i + 1;
    }
  }
  out.push(text.slice(begin));
  return out;
}

// ---------------------------------------------------------------------------------------------
// tri-state: `<column>.filter=a,!b,c*,>now-1h,now-7d..now`

/**
 * Values are split on the commas of the decoded text: clients build the parameter with
 * URLSearchParams or encodeURIComponent, which send the separating commas as %2C. A comma inside
 * a value is written `||||`, and `____` stands for a colon.
 */
function parseTriState(field: FieldRef, text: string, collector: Collector): Condition {
  const tokens: TriStateToken[] = [];
  const pieces = text.split(',');
  for (const piece of pieces) {
    let value = piece.replace(/\|\|\|\|/g, ',').replace(/____/g, ':');
    let exclude = false;
    if (value.startsWith('!')) {
      exclude = true;
      value = value.slice(1);
    }
    if (value === '') continue;
    const compare = /^(>=|<=|>|<)(.+)$/s.exec(value);
    if (compare) {
      tokens.push({
        kind: 'compare',
        exclude,
        op: compare[1] as '>' | '>=' | '<' | '<=',
        value: collector.ref(compare[2]),
        raw: collector.ref(value),
      });
      continue;
    }
    const dots = value.indexOf('..');
    if (dots > 0 && dots + 2 < value.length) {
      tokens.push({
        kind: 'range',
        exclude,
        from: collector.ref(value.slice(0, dots)),
        to: collector.ref(value.slice(dots + 2)),
        raw: collector.ref(value),
      });
      continue;
    }
    if (value.includes('*')) {
      tokens.push({ kind: 'glob', exclude, value: collector.ref(globToLike(value)) });
      continue;
    }
    tokens.push({ kind: 'eq', exclude, value: collector.ref(value) });
  }
  return { kind: 'tristate', field, tokens };
}

/** `a*b` → `a%b` with the LIKE metacharacters of the literal parts escaped. */
export function globToLike(glob: string): string {
  return glob.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '%');
}

// ---------------------------------------------------------------------------------------------
// shapes (cache keys): everything that changes the SQL, nothing that is a value

function predicateShape(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'op':
      return predicate.quantifier ? `${predicate.op}(${predicate.quantifier})` : predicate.op;
    case 'in':
      return 'in';
    case 'is':
      return `is.${predicate.value}`;
    case 'fts':
      return predicate.language ? `${predicate.op}(l)` : predicate.op;
  }
}

function conditionShape(condition: Condition): string {
  switch (condition.kind) {
    case 'filter':
      return `${condition.negate ? 'not.' : ''}${predicateShape(condition.predicate)}`;
    case 'logic':
      return logicShape(condition);
    case 'tristate':
      return triStateShape(condition);
    case 'embedNull':
      return `embed:${condition.isNull}`;
  }
}

function logicShape(condition: Condition): string {
  if (condition.kind !== 'logic') return conditionShape(condition);
  const children = condition.children.map((child) =>
    child.kind === 'filter' ? `${JSON.stringify(child.field)}.${conditionShape(child)}` : logicShape(child),
  );
  return `${condition.negate ? 'not.' : ''}${condition.op}(${children.join(',')})`;
}

function triStateShape(condition: Condition): string {
  if (condition.kind !== 'tristate') return conditionShape(condition);
  return `ts(${condition.tokens.map((t) => `${t.exclude ? '!' : ''}${t.kind === 'compare' ? t.op : t.kind}`).join(',')})`;
}

// ---------------------------------------------------------------------------------------------
// headers

const PREFERENCE_VALUES: Record<string, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
  params: ['single-object'],
};

export function parsePreferences(header: string | readonly string[] | undefined): Preferences {
  const text = Array.isArray(header) ? header.join(',') : ((header as string | undefined) ?? '');
  let ret: ReturnPreference | null = null;
  let count: CountPreference | null = null;
  let resolution: Preferences['resolution'] = null;
  let missing: Preferences['missing'] = null;
  let handling: Preferences['handling'] = null;
  let maxAffected: number | null = null;
  let tx: Preferences['tx'] = null;
  let params: Preferences['params'] = null;
  const invalid: string[] = [];
  for (const rawItem of text.split(',')) {
    const item = rawItem.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const value = (eq < 0 ? '' : item.slice(eq + 1)).trim();
    if (name === 'max-affected') {
      if (/^\d{1,12}$/.test(value)) maxAffected = Number(value);
      else invalid.push(item);
      continue;
    }
    if (name === 'timezone') continue;
    const allowed = PREFERENCE_VALUES[name];
    if (!allowed || !allowed.includes(value)) {
      invalid.push(item);
      continue;
    }
    switch (name) {
      case 'return':
        ret = value as ReturnPreference;
        break;
      case 'count':
        count = value as CountPreference;
        break;
      case 'resolution':
        resolution = value as Preferences['resolution'];
        break;
      case 'missing':
        missing = value as Preferences['missing'];
        break;
      case 'handling':
        handling = value as Preferences['handling'];
        break;
      case 'tx':
        tx = value as Preferences['tx'];
        break;
      case 'params':
        params = 'single-object';
        break;
    }
  }
  const applied: string[] = [];
  if (resolution) applied.push(`resolution=${resolution}`);
  if (missing) applied.push(`missing=${missing}`);
  if (ret) applied.push(`return=${ret}`);
  if (count) applied.push(`count=${count}`);
  if (handling) applied.push(`handling=${handling}`);
  if (maxAffected !== null && handling === 'strict') applied.push(`max-affected=${maxAffected}`);
  return { return: ret, count, resolution, missing, handling, maxAffected, tx, params, applied, invalid };
}

/** `Range: 0-24` (optionally `items=0-24`). Malformed values are ignored, as PostgREST does. */
export function parseRange(header: string | undefined): RangeRequest | null {
  if (!header) return null;
  const match = /^\s*(?:items=)?(\d{1,15})-(\d{1,15})?\s*$/.exec(header);
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] === undefined ? null : Number(match[2]);
  if (to !== null && to < from) {
    throw new ApiError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `The lower boundary must be lower than or equal to the upper boundary in the Range header.`,
    );
  }
  return { from, to };
}

const JSON_TYPES = new Set([
  'application/json',
  'application/*',
  '*/*',
  'application/vnd.pgrst.array+json',
  'application/vnd.pgrst.array',
]);
const OBJECT_TYPES = new Set(['application/vnd.pgrst.object+json', 'application/vnd.pgrst.object']);

export function parseAccept(header: string | undefined): AcceptedMedia {
  if (!header || header.trim() === '') return { type: 'json', stripNulls: false };
  const candidates = header
    .split(',')
    .map((entry, index) => {
      const [typeRaw, ...paramParts] = entry.split(';');
      const type = typeRaw.trim().toLowerCase();
      let q = 1;
      let stripNulls = false;
      for (const part of paramParts) {
        const [k, v] = part.split('=').map((s) => s.trim().toLowerCase());
        if (k === 'q') q = Number.isFinite(Number(v)) ? Number(v) : 0;
        if (k === 'nulls' && v === 'stripped') stripNulls = true;
      }
      return { type, q, index, stripNulls };
    })
    .filter((c) => c.type !== '' && c.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const candidate of candidates) {
    if (JSON_TYPES.has(candidate.type)) return { type: 'json', stripNulls: candidate.stripNulls };
    if (OBJECT_TYPES.has(candidate.type)) return { type: 'object', stripNulls: candidate.stripNulls };
    if (candidate.type === 'text/csv' || candidate.type === 'text/*')
      return { type: 'csv', stripNulls: false };
  }
  throw new ApiError(
    406,
    'PGRST107',
    `None of these media types are available: ${candidates.map((c) => c.type).join(', ') || header}`,
  );
}
