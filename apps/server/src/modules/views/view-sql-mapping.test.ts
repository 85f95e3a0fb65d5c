import { describe, expect, it } from 'vitest';
import { columnsSql, withHoisted, Hoister, translateExpression } from './view-sql-mapping.js';

const fields = new Map([
  ['name', 'text'],
  ['tags', 'json'],
  ['cost_per_minute', 'number'],
  ['created_at', 'timestamptz'],
  ['ready', 'boolean'],
] as const);

describe('translateExpression', () => {
  it('reads fields, keys of JSON fields and double() of them', () => {
    expect(translateExpression('row.name', fields)).toEqual({ sql: 'src."name"', kind: 'text' });
    expect(translateExpression(' row . tags . cpu ', fields)?.kind).toBe('jsonvalue');
    expect(translateExpression('double(row.tags.cpu)', fields)?.kind).toBe('number');
    expect(translateExpression('double(row.cost_per_minute)', fields)?.sql).toBe(
      '(src."cost_per_minute")::float8',
    );
  });

  it('leaves everything else to CEL', () => {
    for (const expression of [
      'row.unknown',
      'row.name.first',
      'double(row.tags.cpu) + 1.0',
      "has(row.tags) ? row.tags.cpu : ''",
      'var.cluster',
      'query',
      'row["name"]',
      'double(row.ready)',
    ])
      expect(translateExpression(expression, fields), expression).toBeNull();
  });
});

describe('columnsSql', () => {
  it('converts to the column types the general path converts to, or gives up', () => {
    expect(
      columnsSql(
        [
          { name: 'name', type: 'string' },
          { name: 'absent', type: 'number' },
        ],
        {},
        fields,
      ),
    ).toEqual(['(src."name")::text', 'NULL::double precision']);
    // A whole JSON object as text (JSON.stringify's spacing) and text as a number stay in CEL.
    expect(columnsSql([{ name: 'tags', type: 'string' }], {}, fields)).toBeNull();
    expect(columnsSql([{ name: 'n', type: 'number' }], { n: 'row.name' }, fields)).toBeNull();
    expect(columnsSql([{ name: 'd', type: 'duration' }], { d: 'row.tags.timeout' }, fields)).toBeNull();
  });
});

describe('Hoister', () => {
  it('computes a JSON key and its text once per row, in nested subqueries', () => {
    const hoister = new Hoister();
    const select = columnsSql(
      [{ name: 'cpu', type: 'number' }],
      { cpu: 'double(row.tags.cpu)' },
      fields,
      hoister,
    );
    expect(select).not.toBeNull();
    // The key's value and its text are columns of src, each read from the level below.
    expect(hoister.levels.map((level) => level.map(({ name }) => name))).toEqual([['__h0'], ['__h1']]);
    expect(hoister.levels[0][0].sql).toContain(`src."tags"->'cpu'`);
    expect(hoister.levels[1][0].sql).toBe(`(src."__h0"#>>'{}')`);
    expect(select![0]).not.toContain('"tags"');
    expect(select![0].match(/src\."__h1"/g)!.length).toBeGreaterThanOrEqual(2);
    expect(withHoisted('SELECT 1', hoister.levels)).toBe(
      `SELECT * FROM (SELECT src.*, (src."__h0"#>>'{}') AS "__h1" FROM (SELECT src.*, ${hoister.levels[0][0].sql} AS "__h0" FROM (SELECT 1) AS src OFFSET 0) AS src OFFSET 0) AS src`,
    );
    expect(withHoisted('SELECT 1', [])).toBe('SELECT 1');
  });

  it('hoists the same subexpression once for two columns', () => {
    const hoister = new Hoister();
    columnsSql(
      [
        { name: 'a', type: 'number' },
        { name: 'b', type: 'gauge' },
      ],
      { a: 'double(row.tags.cpu)', b: 'row.tags.cpu' },
      fields,
      hoister,
    );
    expect(hoister.levels.flat()).toHaveLength(2);
  });
});
