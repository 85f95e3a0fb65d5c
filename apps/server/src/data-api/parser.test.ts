import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import {
  parseAccept,
  parseOrder,
  parsePreferences,
  parseQuery,
  parseQueryString,
  parseRange,
  parseSelect,
  globToLike,
} from './parser.js';
import type { Condition, ParsedQuery, SelectNode } from './query-tree.js';

function query(qs: string, rpcArgNames?: string[]): ParsedQuery {
  return parseQuery(parseQueryString(qs), { rpcArgNames: rpcArgNames ? new Set(rpcArgNames) : null });
}

function rootConditions(parsed: ParsedQuery): Condition[] {
  return parsed.scopes.get('')!.conditions;
}

function valueOf(parsed: ParsedQuery, ref: { slot: number }): unknown {
  return parsed.values[ref.slot];
}

function expectParseError(fn: () => unknown, code = 'PGRST100'): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(code);
    return error as ApiError;
  }
  throw new Error('expected a parse error');
}

describe('parseQueryString', () => {
  it('keeps repeated keys in order and decodes + and percent escapes', () => {
    expect(parseQueryString('select=a&select=b&name=eq.a+b&x=%2C%28')).toEqual([
      ['select', 'a', 'a'],
      ['select', 'b', 'b'],
      ['name', 'eq.a b', 'eq.a+b'],
      ['x', ',(', '%2C%28'],
    ]);
  });
  it('rejects malformed percent-encoding with PGRST100', () => {
    expectParseError(() => parseQueryString('name=eq.%E0%A4%A'));
  });
});

describe('select', () => {
  it('parses columns, renames, casts and JSON paths', () => {
    expect(parseSelect('id,full:name,sev::text,app:labels->>app,labels->a->0')).toEqual([
      {
        kind: 'column',
        field: { column: 'id', json: [] },
        alias: null,
        cast: null,
        aggregate: null,
        aggregateCast: null,
      },
      {
        kind: 'column',
        field: { column: 'name', json: [] },
        alias: 'full',
        cast: null,
        aggregate: null,
        aggregateCast: null,
      },
      {
        kind: 'column',
        field: { column: 'sev', json: [] },
        alias: null,
        cast: 'text',
        aggregate: null,
        aggregateCast: null,
      },
      {
        kind: 'column',
        field: { column: 'labels', json: [{ arrow: '->>', key: 'app', isIndex: false }] },
        alias: 'app',
        cast: null,
        aggregate: null,
        aggregateCast: null,
      },
      {
        kind: 'column',
        field: {
          column: 'labels',
          json: [
            { arrow: '->', key: 'a', isIndex: false },
            { arrow: '->', key: '0', isIndex: true },
          ],
        },
        alias: null,
        cast: null,
        aggregate: null,
        aggregateCast: null,
      },
    ]);
  });

  it('allows dots and quoted keys in JSON paths', () => {
    const [node] = parseSelect('labels->>app.kubernetes.io/name');
    expect(node).toMatchObject({ field: { json: [{ key: 'app.kubernetes.io/name' }] } });
    const [quoted] = parseSelect('labels->>"a,b(c)"');
    expect(quoted).toMatchObject({ field: { json: [{ key: 'a,b(c)', isIndex: false }] } });
  });

  it('parses embeds with aliases, hints, join types, spreads and nesting', () => {
    expect(
      parseSelect(
        '*,creator:people!incidents_created_by_fkey!inner(id,name),hypotheses(title,evidences(*)),...created_by(name)',
      ),
    ).toEqual([
      { kind: 'star' },
      {
        kind: 'embed',
        name: 'people',
        alias: 'creator',
        hint: 'incidents_created_by_fkey',
        join: 'inner',
        spread: false,
        select: [
          {
            kind: 'column',
            field: { column: 'id', json: [] },
            alias: null,
            cast: null,
            aggregate: null,
            aggregateCast: null,
          },
          {
            kind: 'column',
            field: { column: 'name', json: [] },
            alias: null,
            cast: null,
            aggregate: null,
            aggregateCast: null,
          },
        ],
      },
      {
        kind: 'embed',
        name: 'hypotheses',
        alias: null,
        hint: null,
        join: null,
        spread: false,
        select: [
          {
            kind: 'column',
            field: { column: 'title', json: [] },
            alias: null,
            cast: null,
            aggregate: null,
            aggregateCast: null,
          },
          {
            kind: 'embed',
            name: 'evidences',
            alias: null,
            hint: null,
            join: null,
            spread: false,
            select: [{ kind: 'star' }],
          },
        ],
      },
      {
        kind: 'embed',
        name: 'created_by',
        alias: null,
        hint: null,
        join: null,
        spread: true,
        select: [
          {
            kind: 'column',
            field: { column: 'name', json: [] },
            alias: null,
            cast: null,
            aggregate: null,
            aggregateCast: null,
          },
        ],
      },
    ]);
  });

  it('tolerates spaces around items', () => {
    expect(parseSelect(' id , name ')).toHaveLength(2);
  });

  it('rejects malformed select lists', () => {
    for (const bad of ['id,', 'a(b', 'a)b', '(x)', 'a!(x)', 'a:', '...name', 'x::', 'a.b']) {
      expectParseError(() => parseSelect(bad));
    }
  });

  it('parses aggregates: count(), column.fn(), input and result casts, aliases, JSON paths', () => {
    const col = (node: SelectNode) => (node.kind === 'column' ? node : null);
    expect(parseSelect('count()')).toEqual([
      {
        kind: 'column',
        field: { column: '*', json: [] },
        alias: null,
        cast: null,
        aggregate: 'count',
        aggregateCast: null,
      },
    ]);
    const [total, avg, byType] = parseSelect('total:amount::numeric.sum()::text,amount.avg()::int,type');
    expect(col(total)).toMatchObject({
      alias: 'total',
      cast: 'numeric',
      aggregate: 'sum',
      aggregateCast: 'text',
    });
    expect(col(avg)).toMatchObject({ alias: null, cast: null, aggregate: 'avg', aggregateCast: 'int' });
    expect(col(byType)).toMatchObject({ field: { column: 'type' }, aggregate: null });
    const [json] = parseSelect('labels->>cost::numeric.max()');
    expect(col(json)).toMatchObject({
      field: { column: 'labels', json: [{ arrow: '->>', key: 'cost' }] },
      cast: 'numeric',
      aggregate: 'max',
    });
    const [dotted] = parseSelect('labels->>app.kubernetes.io/cost.min()');
    expect(col(dotted)).toMatchObject({
      field: { json: [{ key: 'app.kubernetes.io/cost' }] },
      aggregate: 'min',
    });
    const [embed] = parseSelect('hypotheses(count(),type)');
    expect(embed).toMatchObject({
      kind: 'embed',
      select: [{ aggregate: 'count' }, { field: { column: 'type' }, aggregate: null }],
    });
    expect(parseSelect('n:count()::text')[0]).toMatchObject({ alias: 'n', aggregateCast: 'text' });
  });

  it('rejects malformed aggregates', () => {
    for (const bad of ['amount.median()', 'amount.sum', 'amount.sum()x', 'labels->>a.median()', 'count()x']) {
      expectParseError(() => parseSelect(bad));
    }
  });

  it('merges several select parameters', () => {
    const parsed = query('select=id&select=name,teams(name)');
    expect(parsed.select.map((n) => n.kind)).toEqual(['column', 'column', 'embed']);
    expect(parsed.selectGiven).toBe(true);
  });

  it('defaults to *', () => {
    expect(query('').select).toEqual([{ kind: 'star' }]);
  });
});

describe('filters', () => {
  it('parses every operator with not. and modifiers', () => {
    const parsed = query(
      'a=eq.1&b=not.neq.x&c=gt.1&d=gte.1&e=lt.1&f=lte.1&g=like.*x*&h=ilike.X*&i=match.^a&j=imatch.A&k=isdistinct.3&l=cs.{a,b}&m=cd.{a}&n=ov.{x}&o=sl.[1,2)&p=sr.(1,2)&q=nxr.[1,3]&r=nxl.[1,3]&s=adj.[1,2)&t=fts(english).cat&u=plfts.big cat&v=phfts.a b&w=wfts.a or b&x=eq(any).{1,2}&y=like(all).{a*,*b}',
    );
    const conditions = rootConditions(parsed);
    const ops = conditions.map((c) =>
      c.kind === 'filter'
        ? c.predicate.kind === 'op' || c.predicate.kind === 'fts'
          ? c.predicate.op
          : c.predicate.kind
        : c.kind,
    );
    expect(ops).toEqual([
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
      'fts',
      'plfts',
      'phfts',
      'wfts',
      'eq',
      'like',
    ]);
    const like = conditions[6];
    expect(
      like.kind === 'filter' && like.predicate.kind === 'op' && valueOf(parsed, like.predicate.value),
    ).toBe('%x%');
    const negated = conditions[1];
    expect(negated.kind === 'filter' && negated.negate).toBe(true);
    const fts = conditions[19];
    expect(
      fts.kind === 'filter' &&
        fts.predicate.kind === 'fts' &&
        fts.predicate.language &&
        valueOf(parsed, fts.predicate.language),
    ).toBe('english');
    const any = conditions[23];
    expect(any.kind === 'filter' && any.predicate.kind === 'op' && any.predicate.quantifier).toBe('any');
    const all = conditions[24];
    expect(all.kind === 'filter' && all.predicate.kind === 'op' && valueOf(parsed, all.predicate.value)).toBe(
      '{a%,%b}',
    );
  });

  it('keeps the rest of the value verbatim, including dots and empty values', () => {
    const parsed = query('version=eq.1.2.3&avatar=not.eq.&url=eq.http://x.y/?a');
    const [version, avatar] = rootConditions(parsed);
    expect(
      version.kind === 'filter' &&
        version.predicate.kind === 'op' &&
        valueOf(parsed, version.predicate.value),
    ).toBe('1.2.3');
    expect(
      avatar.kind === 'filter' && avatar.predicate.kind === 'op' && valueOf(parsed, avatar.predicate.value),
    ).toBe('');
  });

  it('parses in lists with quoted values, escapes and the empty list', () => {
    const parsed = query('name=in.("Alice","a,b",c,"say \\"hi\\"")&id=in.()');
    const [name, id] = rootConditions(parsed);
    expect(
      name.kind === 'filter' && name.predicate.kind === 'in' && valueOf(parsed, name.predicate.values),
    ).toEqual(['Alice', 'a,b', 'c', 'say "hi"']);
    expect(
      id.kind === 'filter' && id.predicate.kind === 'in' && valueOf(parsed, id.predicate.values),
    ).toEqual([]);
  });

  it('parses is values', () => {
    const parsed = query('a=is.null&b=not.is.NULL&c=is.true&d=is.false&e=is.unknown&f=is.not_null');
    expect(
      rootConditions(parsed).map((c) =>
        c.kind === 'filter' && c.predicate.kind === 'is' ? c.predicate.value : null,
      ),
    ).toEqual(['null', 'null', 'true', 'false', 'unknown', 'not_null']);
  });

  it('scopes filters, order and paging to embeds', () => {
    const parsed = query(
      'hypotheses.evidences.component_id=eq.X&hypotheses.order=title.desc&hypotheses.limit=2&hypotheses.offset=1&hypotheses.or=(a.eq.1,b.eq.2)',
    );
    const evidences = parsed.scopes.get('hypotheses.evidences')!;
    expect(evidences.conditions).toHaveLength(1);
    const hypotheses = parsed.scopes.get('hypotheses')!;
    expect(hypotheses.order).toEqual([
      { relation: null, field: { column: 'title', json: [] }, direction: 'desc', nulls: null },
    ]);
    expect(valueOf(parsed, hypotheses.limit!)).toBe(2);
    expect(valueOf(parsed, hypotheses.offset!)).toBe(1);
    expect(hypotheses.conditions[0].kind).toBe('logic');
  });

  it('parses JSON path filters with dotted keys', () => {
    const parsed = query('labels->>app.kubernetes.io/name=eq.api');
    const [c] = rootConditions(parsed);
    expect(c).toMatchObject({
      kind: 'filter',
      field: { column: 'labels', json: [{ arrow: '->>', key: 'app.kubernetes.io/name' }] },
    });
  });

  it('rejects malformed filters with PGRST100', () => {
    for (const bad of [
      'a=eqq.1',
      'a=eq',
      'a=1',
      'a=in.1,2',
      'a=in.(1,2',
      'a=is.maybe',
      'a=eq(some).{1}',
      'a=eq(any).1',
      'a=not.',
      'a->=eq.1',
      'a.=eq.1',
    ]) {
      expectParseError(() => query(bad.replace(/=/, '=').split('&').join('&')));
    }
  });

  it('leaves root limit/offset out of the shape but keeps filters operators in it', () => {
    const a = query('name=eq.x&limit=10&offset=5');
    const b = query('name=eq.y&limit=20');
    expect(a.shape).toBe(b.shape);
    expect(a.limit).toBe(10);
    expect(a.offset).toBe(5);
    expect(query('name=neq.x').shape).not.toBe(a.shape);
    expect(query('name=is.null').shape).not.toBe(query('name=is.true').shape);
    expect(() => query('limit=-1')).toThrow(ApiError);
    expect(() => query('offset=abc')).toThrow(ApiError);
  });
});

describe('logic trees', () => {
  it('parses nested and/or/not with quoted values and lists', () => {
    const parsed = query(
      'or=(a.eq.1,and(b.gt.2,c.in.("x,y",z)),not.and(d.is.null,e.like.*q*),f.eq."a,b)",g.cs.{1,2})',
    );
    const [tree] = rootConditions(parsed);
    expect(tree.kind).toBe('logic');
    if (tree.kind !== 'logic') return;
    expect(tree.op).toBe('or');
    expect(tree.children.map((c) => c.kind)).toEqual(['filter', 'logic', 'logic', 'filter', 'filter']);
    const and = tree.children[1];
    expect(and.kind === 'logic' && and.op).toBe('and');
    const notAnd = tree.children[2];
    expect(notAnd.kind === 'logic' && notAnd.negate).toBe(true);
    const quoted = tree.children[3];
    expect(
      quoted.kind === 'filter' && quoted.predicate.kind === 'op' && valueOf(parsed, quoted.predicate.value),
    ).toBe('a,b)');
    const braces = tree.children[4];
    expect(
      braces.kind === 'filter' && braces.predicate.kind === 'op' && valueOf(parsed, braces.predicate.value),
    ).toBe('{1,2}');
  });

  it('parses not.or and several or parameters', () => {
    const parsed = query('not.or=(a.eq.1,b.eq.2)&or=(c.eq.3)&or=(d.eq.4)');
    const conditions = rootConditions(parsed);
    expect(conditions).toHaveLength(3);
    expect(conditions[0]).toMatchObject({ kind: 'logic', op: 'or', negate: true });
  });

  it('parses JSON paths inside logic trees', () => {
    const parsed = query('or=(labels->>env.eq.prod,labels->app.is.null)');
    const [tree] = rootConditions(parsed);
    expect(tree.kind === 'logic' && tree.children[0]).toMatchObject({
      field: { column: 'labels', json: [{ arrow: '->>', key: 'env' }] },
    });
  });

  it('rejects malformed trees', () => {
    for (const bad of [
      'or=a.eq.1',
      'or=(a.eq.1',
      'or=(a.eq.1))',
      'or=()',
      'or=(a.xx.1)',
      'or=(a.eq."x)',
      'and=(a)',
      'or=(,a.eq.1)',
    ]) {
      expectParseError(() => query(bad));
    }
  });

  it('bounds nesting depth', () => {
    const deep = `or=${'(and'.repeat(40)}(a.eq.1${')'.repeat(41)}`;
    expectParseError(() => query(deep.replace('or=(and', 'or=(and')));
  });
});

describe('order', () => {
  it('parses directions, nulls, JSON paths and related columns', () => {
    expect(parseOrder('a.desc,b.asc.nullslast,c.nullsfirst,labels->>env.desc,created_by(name).asc')).toEqual([
      { relation: null, field: { column: 'a', json: [] }, direction: 'desc', nulls: null },
      { relation: null, field: { column: 'b', json: [] }, direction: 'asc', nulls: 'last' },
      { relation: null, field: { column: 'c', json: [] }, direction: null, nulls: 'first' },
      {
        relation: null,
        field: { column: 'labels', json: [{ arrow: '->>', key: 'env', isIndex: false }] },
        direction: 'desc',
        nulls: null,
      },
      { relation: 'created_by', field: { column: 'name', json: [] }, direction: 'asc', nulls: null },
    ]);
  });
  it('rejects bad terms', () => {
    for (const bad of ['', 'a,', 'a.up', 'a.b.c']) expectParseError(() => parseOrder(bad));
  });
});

describe('tri-state .filter', () => {
  it('splits on commas, encoded or not, unescapes ____ and ||||, and classifies tokens', () => {
    const parsed = query(
      'type.filter=Postgres________Instance%2C!Kubernetes*,a||||b,%2C,>now-1h,!now-7d..now,<=5',
    );
    const [c] = rootConditions(parsed);
    expect(c.kind).toBe('tristate');
    if (c.kind !== 'tristate') return;
    expect(c.tokens.map((t) => `${t.exclude ? '!' : ''}${t.kind}`)).toEqual([
      'eq',
      '!glob',
      'eq',
      'compare',
      '!range',
      'compare',
    ]);
    const values = c.tokens.map((t) =>
      t.kind === 'range' ? [valueOf(parsed, t.from), valueOf(parsed, t.to)] : valueOf(parsed, t.value),
    );
    expect(values).toEqual(['Postgres::Instance', 'Kubernetes%', 'a,b', 'now-1h', ['now-7d', 'now'], '5']);
  });

  it('escapes LIKE metacharacters of literal glob parts', () => {
    expect(globToLike('50%_off*')).toBe('50\\%\\_off%');
  });

  it('works on JSON paths and embedded paths', () => {
    const parsed = query('resource->>name.filter=a,b&config.type.filter=!x');
    expect(rootConditions(parsed)[0]).toMatchObject({
      kind: 'tristate',
      field: { column: 'resource', json: [{ key: 'name' }] },
    });
    expect(parsed.scopes.get('config')!.conditions[0]).toMatchObject({
      kind: 'tristate',
      field: { column: 'type' },
    });
  });
});

describe('rpc arguments', () => {
  it('takes function arguments from the query string, the rest are filters', () => {
    const parsed = query('config_id=abc&max_depth=3&name=eq.x', ['config_id', 'max_depth']);
    expect([...parsed.rpcArgs]).toEqual([
      ['config_id', 'abc'],
      ['max_depth', '3'],
    ]);
    expect(rootConditions(parsed)).toHaveLength(1);
  });
});

describe('headers', () => {
  it('parses Prefer into the honoured preferences', () => {
    const prefs = parsePreferences([
      'return=representation, count=exact',
      'resolution=merge-duplicates,missing=default,bogus=1',
    ]);
    expect(prefs).toMatchObject({
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      missing: 'default',
    });
    expect(prefs.invalid).toEqual(['bogus=1']);
    expect(prefs.applied).toEqual([
      'resolution=merge-duplicates',
      'missing=default',
      'return=representation',
      'count=exact',
    ]);
  });

  it('parses Range', () => {
    expect(parseRange('0-24')).toEqual({ from: 0, to: 24 });
    expect(parseRange('items=10-')).toEqual({ from: 10, to: null });
    expect(parseRange('garbage')).toBeNull();
    expectParseError(() => parseRange('5-2'), 'PGRST103');
  });

  it('negotiates Accept', () => {
    expect(parseAccept(undefined)).toEqual({ type: 'json', stripNulls: false });
    expect(parseAccept('application/vnd.pgrst.object+json')).toEqual({ type: 'object', stripNulls: false });
    expect(parseAccept('application/vnd.pgrst.array+json;nulls=stripped')).toEqual({
      type: 'json',
      stripNulls: true,
    });
    expect(parseAccept('text/csv;q=0.5, application/json')).toEqual({ type: 'json', stripNulls: false });
    expect(parseAccept('text/csv')).toEqual({ type: 'csv', stripNulls: false });
    expectParseError(() => parseAccept('image/png'), 'PGRST107');
  });
});
