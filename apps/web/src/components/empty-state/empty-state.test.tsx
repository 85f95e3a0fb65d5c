import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EmptyState, NoDetailsFound } from './empty-state';

afterEach(cleanup);

describe('empty states', () => {
  it("says 'No data available' by default", () => {
    render(<EmptyState />);
    expect(screen.getByRole('status').textContent).toBe('No data available');
  });

  it("says 'No details found' for details", () => {
    render(<NoDetailsFound />);
    expect(screen.getByRole('status').textContent).toBe('No details found');
  });

  it('accepts another message and actions', () => {
    render(
      <EmptyState message="No resources found">
        <button type="button">Add</button>
      </EmptyState>,
    );
    expect(screen.getByText('No resources found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });
});
