import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupStatusDot, StatusDot } from './status-dot';

afterEach(cleanup);

describe('StatusDot', () => {
  it('is green for healthy, red for unhealthy and orange for mixed', () => {
    render(
      <>
        <StatusDot status="healthy" />
        <StatusDot status="unhealthy" />
        <StatusDot status="mixed" />
        <StatusDot status="suspended" label="Suspended scraper" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'healthy' }).getAttribute('data-color')).toBe('green');
    expect(screen.getByRole('img', { name: 'unhealthy' }).className).toContain('bg-red-500');
    expect(screen.getByRole('img', { name: 'mixed' }).getAttribute('data-color')).toBe('orange');
    expect(screen.getByRole('img', { name: 'Suspended scraper' }).getAttribute('data-color')).toBe('grey');
  });

  it('colours a group green only when all children are healthy', () => {
    render(
      <>
        <GroupStatusDot label="all good">{[true, 'healthy']}</GroupStatusDot>
        <GroupStatusDot label="some good">{[true, false]}</GroupStatusDot>
        <GroupStatusDot label="none good">{[false, 'unhealthy']}</GroupStatusDot>
      </>,
    );
    expect(screen.getByRole('img', { name: 'all good' }).getAttribute('data-color')).toBe('green');
    expect(screen.getByRole('img', { name: 'some good' }).getAttribute('data-color')).toBe('orange');
    expect(screen.getByRole('img', { name: 'none good' }).getAttribute('data-color')).toBe('red');
  });
});
