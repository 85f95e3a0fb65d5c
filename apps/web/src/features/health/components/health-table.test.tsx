import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { groupChecks, type CheckSummary } from '../lib/checks';
import { makeCheckSummary } from '../testing/check-summary';
import { HealthTable, VIRTUALIZE_FROM_ROWS } from './health-table';

const checks = (count: number, canary = (i: number) => `canary-${i % 3}`): CheckSummary[] =>
  Array.from({ length: count }, (_, i) =>
    makeCheckSummary({
      id: `check-${i}`,
      name: `check-${String(i).padStart(5, '0')}`,
      canary_name: canary(i),
      status: i % 7 === 0 ? 'unhealthy' : 'healthy',
      uptime: { passed: 9, failed: i % 7 === 0 ? 1 : 0 },
    }),
  );

afterEach(cleanup);

const renderTable = (rows: ReturnType<typeof groupChecks>, onOpen = vi.fn()) =>
  render(<HealthTable rows={rows} sortDesc={false} onSort={vi.fn()} onOpen={onOpen} />);

describe('HealthTable', () => {
  it('draws every row of a short list', () => {
    renderTable(groupChecks(checks(40), 'no-group'));
    expect(screen.getAllByTestId('health-check-row')).toHaveLength(40);
  });

  it('draws only a window of 5,000 checks and keeps the row count for assistive tech', () => {
    renderTable(groupChecks(checks(5000), 'no-group'));
    const drawn = screen.getAllByTestId('health-check-row').length;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(VIRTUALIZE_FROM_ROWS);
    expect(screen.getByRole('table', { name: 'Health checks' }).getAttribute('aria-rowcount')).toBe('5001');
  });

  it('collapses a group and opens a check', () => {
    const onOpen = vi.fn();
    renderTable(groupChecks(checks(6), 'canary_name'), onOpen);
    expect(screen.getAllByTestId('health-group-row')).toHaveLength(3);
    expect(screen.getAllByTestId('health-check-row')).toHaveLength(6);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse canary-0' }));
    expect(screen.getAllByTestId('health-check-row')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Expand canary-0' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    fireEvent.click(screen.getAllByTestId('health-check-row')[0]);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ canary_name: 'canary-1' }));
  });
});
