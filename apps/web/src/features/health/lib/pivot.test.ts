import { describe, expect, it } from 'vitest';
import type { CheckSummary } from './checks';
import { makeCheckSummary } from '../testing/check-summary';
import { parsePivotCellType, pivotChecks } from './pivot';

const check = (id: string, labels: Record<string, string>, extra: Partial<CheckSummary> = {}): CheckSummary =>
  makeCheckSummary({ id, name: id.split('@')[0], labels, uptime: { passed: 10, failed: 0 }, ...extra });

describe('pivotChecks', () => {
  it('makes one column per label value and one row per check name, empty value last', () => {
    const table = pivotChecks(
      [
        check('api@eu', { region: 'eu-2' }),
        check('api@us', { region: 'us' }),
        check('db@eu', { region: 'eu-10' }),
        check('web@none', {}),
      ],
      'region',
    );
    expect(table.columns).toEqual(['eu-2', 'eu-10', 'us', '']);
    expect(table.rows.map((row) => row.key)).toEqual(['api', 'db', 'web']);
    const api = table.rows[0];
    expect(api.cells.map((cell) => cell?.checks.map((c) => c.id))).toEqual([
      ['api@eu'],
      undefined,
      ['api@us'],
      undefined,
    ]);
    expect(table.rows[2].cells[3]?.checks[0].id).toBe('web@none');
  });

  it('rows follow the pivotLabel label and cells summarise several checks', () => {
    const table = pivotChecks(
      [
        check('a', { region: 'eu', team: 'x' }, { latency: { p95: 20 } }),
        check(
          'b',
          { region: 'eu', team: 'x' },
          { status: 'unhealthy', uptime: { passed: 5, failed: 5 }, latency: { p99: 90 } },
        ),
        check('c', { region: 'us', team: 'y' }),
      ],
      'region',
      'team',
    );
    expect(table.rows.map((row) => row.key)).toEqual(['x', 'y']);
    const cell = table.rows[0].cells[0]!;
    expect(cell.checks).toHaveLength(2);
    expect(cell.status).toBe('mixed');
    // Several checks: fully passing checks over all checks.
    expect(cell.uptime).toEqual({ passed: 1, failed: 1 });
    expect(cell.latency).toBe(90);
    // One check: its own runs.
    expect(table.rows[1].cells[1]!.uptime).toEqual({ passed: 10, failed: 0 });
    expect(table.rows[1].cells[0]).toBeUndefined();
  });

  it('reads the cell type from the URL with health as the default', () => {
    expect(parsePivotCellType('latency')).toBe('latency');
    expect(parsePivotCellType('nonsense')).toBe('health');
    expect(parsePivotCellType(null)).toBe('health');
  });
});
