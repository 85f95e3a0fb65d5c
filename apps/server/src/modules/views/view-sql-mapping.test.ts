import { describe, expect, it } from 'vitest';
import { columnsSql, translateExpression } from './view-sql-mapping.js';

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
