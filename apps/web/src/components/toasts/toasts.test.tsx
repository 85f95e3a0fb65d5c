import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { AppToaster } from './app-toaster';
import {
  dismissToast,
  showErrorToast,
  showLoadingToast,
  showSuccessToast,
  TOAST_DURATION_MS,
  toastErrorMessage,
} from './toasts';

beforeAll(() => {
  // jsdom has no matchMedia; react-hot-toast asks it about reduced motion.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.useRealTimers();
});

describe('toastErrorMessage', () => {
  it('shows strings directly', () => {
    expect(toastErrorMessage('Connection refused')).toBe('Connection refused');
  });

  it('prefers the response data error, then its message', () => {
    expect(toastErrorMessage({ response: { data: { error: 'bad spec', message: 'ignored' } } })).toBe(
      'bad spec',
    );
    expect(toastErrorMessage({ response: { data: { message: 'duplicate key' } } })).toBe('duplicate key');
    expect(
      toastErrorMessage(new ApiError(409, 'HTTP 409', { code: '23505', message: 'already exists' })),
    ).toBe('already exists');
    expect(toastErrorMessage({ data: { error: 'denied' } })).toBe('denied');
  });

  it("falls back to 'An error occurred'", () => {
    expect(toastErrorMessage(new Error('boom'))).toBe('An error occurred');
    expect(toastErrorMessage({ response: { data: 'text' } })).toBe('An error occurred');
    expect(toastErrorMessage(undefined)).toBe('An error occurred');
    expect(toastErrorMessage('')).toBe('An error occurred');
  });
});

describe('AppToaster', () => {
  it('shows success and error toasts with a close button, for 5000 ms', () => {
    vi.useFakeTimers();
    render(<AppToaster />);
    act(() => {
      showSuccessToast('Token created successfully');
      showErrorToast({ response: { data: { error: 'Failed to create token' } } });
    });
    expect(screen.getByText('Token created successfully')).toBeTruthy();
    expect(screen.getByText('Failed to create token')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Dismiss notification' })).toHaveLength(2);
    expect(TOAST_DURATION_MS).toBe(5000);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByText('Token created successfully')).toBeTruthy();
    act(() => vi.advanceTimersByTime(200));
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.queryByText('Token created successfully')).toBeNull();
  });

  it('shows loading toasts without a close button until dismissed', () => {
    render(<AppToaster />);
    let id = '';
    act(() => {
      id = showLoadingToast('Saving...');
    });
    expect(screen.getByText('Saving...')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dismiss notification' })).toBeNull();
    act(() => showSuccessToast('Saved', { id }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    act(() => dismissToast());
  });

  it('places toasts at the bottom right', () => {
    render(<AppToaster />);
    act(() => {
      showSuccessToast('Placed');
    });
    const wrapper = screen.getByText('Placed').closest('[style*="bottom"]') as HTMLElement | null;
    expect(wrapper?.style.bottom).toBe('0px');
    expect(wrapper?.style.justifyContent).toBe('flex-end');
  });
});
