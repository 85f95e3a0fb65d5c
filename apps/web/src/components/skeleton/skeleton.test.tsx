import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageSkeleton } from './skeleton';

afterEach(cleanup);

describe('PageSkeleton', () => {
  it('announces loading and draws the requested lines', () => {
    render(<PageSkeleton lines={4} />);
    const status = screen.getByRole('status', { name: 'Loading' });
    expect(status.getAttribute('aria-busy')).toBe('true');
    expect(status.querySelectorAll('.animate-pulse')).toHaveLength(5);
  });
});
