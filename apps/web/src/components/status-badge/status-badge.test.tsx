import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBadge } from './status-badge';

afterEach(cleanup);

describe('StatusBadge', () => {
  it.each([
    ['healthy', 'green'],
    ['unhealthy', 'red'],
    ['warning', 'orange'],
    ['unknown', 'grey'],
  ])('shows %s as text in %s', (status, color) => {
    render(<StatusBadge status={status} />);
    const text = screen.getByText(status);
    expect(text.closest('[data-color]')?.getAttribute('data-color')).toBe(color);
  });

  it("reads 'unknown' for an empty status and keeps the extra text", () => {
    render(<StatusBadge status={null}>3h</StatusBadge>);
    expect(screen.getByText('unknown')).toBeTruthy();
    expect(screen.getByText('3h')).toBeTruthy();
  });
});
