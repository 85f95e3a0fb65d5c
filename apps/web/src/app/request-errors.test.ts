import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import {
  connectivityMessage,
  handleRequestError,
  NETWORK_ERROR_MESSAGE,
  OFFLINE_MESSAGE,
  TIMEOUT_MESSAGE,
} from './request-errors';

describe('connectivityMessage', () => {
  it('names timeouts, network errors and being offline (spec core §8)', () => {
    expect(connectivityMessage(new DOMException('t', 'TimeoutError'), false)).toBe(TIMEOUT_MESSAGE);
    expect(connectivityMessage(new TypeError('Failed to fetch'), false)).toBe(NETWORK_ERROR_MESSAGE);
    expect(connectivityMessage(new TypeError('Failed to fetch'), true)).toBe(OFFLINE_MESSAGE);
    expect(TIMEOUT_MESSAGE).toBe('Request timed out. Please try again.');
    expect(NETWORK_ERROR_MESSAGE).toBe('Network Error. Please try again.');
    expect(OFFLINE_MESSAGE).toBe('No internet connection. Please try again.');
  });

  it('leaves HTTP answers and our own aborts alone', () => {
    expect(connectivityMessage(new ApiError(500, 'boom', undefined), false)).toBeUndefined();
    expect(connectivityMessage(new DOMException('a', 'AbortError'), false)).toBeUndefined();
  });
});

describe('handleRequestError', () => {
  it('sends a 401 to the login screen and nothing else', () => {
    const onUnauthorized = vi.fn();
    handleRequestError(new ApiError(403, 'no', undefined), onUnauthorized);
    expect(onUnauthorized).not.toHaveBeenCalled();
    handleRequestError(new ApiError(401, 'Unauthorized', undefined), onUnauthorized);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
