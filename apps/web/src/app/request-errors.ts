import toast from 'react-hot-toast';
import { ApiError } from '../lib/api-client';
import { TOAST_DURATION_MS } from '../components/toasts/toasts';

/** Spec core §8 connectivity messages. */
export const TIMEOUT_MESSAGE = 'Request timed out. Please try again.';
export const NETWORK_ERROR_MESSAGE = 'Network Error. Please try again.';
export const OFFLINE_MESSAGE = 'No internet connection. Please try again.';

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * The connectivity message for an error that never got an HTTP answer, or undefined for
 * anything else (HTTP errors are the caller's to report).
 */
export function connectivityMessage(error: unknown, offline: boolean = isOffline()): string | undefined {
  if (error instanceof ApiError)
    return error.status === 408 || error.status === 504 ? TIMEOUT_MESSAGE : undefined;
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    // An abort we asked for (a query cancelled on navigation) is not a failure.
    return error.name === 'TimeoutError' ? TIMEOUT_MESSAGE : undefined;
  }
  // fetch rejects with a TypeError when no answer arrived at all.
  if (error instanceof TypeError) return offline ? OFFLINE_MESSAGE : NETWORK_ERROR_MESSAGE;
  return undefined;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * What every failed query or mutation does before its own handling: a 401 sends the browser to
 * the login screen, a missing answer shows one connectivity toast (one id per message, so a page
 * of failing queries shows it once).
 */
export function handleRequestError(error: unknown, onUnauthorized: () => void): void {
  if (isUnauthorized(error)) {
    onUnauthorized();
    return;
  }
  const message = connectivityMessage(error);
  if (message) toast.error(message, { id: message, duration: TOAST_DURATION_MS });
}
