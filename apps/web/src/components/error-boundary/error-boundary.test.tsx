import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

let shouldThrow = true;
function Fragile() {
  if (shouldThrow) throw new Error('widget exploded');
  return <p>recovered</p>;
}

beforeEach(() => {
  shouldThrow = true;
  // React logs caught render errors; keep the test output readable.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ErrorBoundary', () => {
  it("shows 'Something went wrong' with the message and stack", () => {
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Something went wrong');
    expect(alert.textContent).toContain('widget exploded');
    expect(screen.getByLabelText('Error stack').textContent).toContain('Error: widget exploded');
  });

  it('hides the stack when asked', () => {
    render(
      <ErrorBoundary hideStack>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong');
    expect(screen.queryByLabelText('Error stack')).toBeNull();
  });

  it("shows 'Sorry.. there was an error' in the simple variant and recovers on retry", () => {
    const onError = vi.fn();
    render(
      <ErrorBoundary variant="simple" onError={onError}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Sorry.. there was an error');
    expect(onError).toHaveBeenCalledTimes(1);
    shouldThrow = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('recovered')).toBeTruthy();
  });

  it('resets when a reset key changes', () => {
    const { rerender } = render(
      <ErrorBoundary resetKeys={['/health']}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    shouldThrow = false;
    rerender(
      <ErrorBoundary resetKeys={['/incidents']}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByText('recovered')).toBeTruthy();
  });
});
