import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar, initialsOf } from './avatar';

afterEach(cleanup);

describe('initialsOf', () => {
  it('takes the first and last word, or one letter', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('Grace Brewster Murray Hopper')).toBe('GH');
    expect(initialsOf('admin')).toBe('A');
    expect(initialsOf('jane.doe@example.com')).toBe('JD');
    expect(initialsOf('')).toBe('?');
  });
});

describe('Avatar', () => {
  it('shows the picture when it loads', () => {
    render(<Avatar name="Ada Lovelace" src="/ada.png" />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' }).tagName).toBe('IMG');
  });

  it('falls back to initials without a picture or when it fails', () => {
    render(<Avatar name="Ada Lovelace" src="/broken.png" />);
    fireEvent.error(screen.getByRole('img', { name: 'Ada Lovelace' }));
    const fallback = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(fallback.tagName).toBe('SPAN');
    expect(fallback.textContent).toBe('AL');
    cleanup();
    render(<Avatar name="Grace Hopper" />);
    expect(screen.getByRole('img', { name: 'Grace Hopper' }).textContent).toBe('GH');
  });
});
