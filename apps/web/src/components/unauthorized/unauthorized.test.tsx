import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Unauthorized } from './unauthorized';

afterEach(cleanup);

describe('Unauthorized', () => {
  it('explains the missing permission', () => {
    render(<Unauthorized />);
    expect(screen.getByRole('alert').textContent).toBe(
      'Unauthorized - You do not have permission to access this page',
    );
  });
});
