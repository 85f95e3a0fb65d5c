import { isValidElement } from 'react';
import toast, { type Renderable } from 'react-hot-toast';

/** How long a toast stays (core §8, settings §9). */
export const TOAST_DURATION_MS = 5000;
export const GENERIC_ERROR_MESSAGE = 'An error occurred';

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/** The response data carried by an error: an HTTP client's `response.data`, an ApiError's `body`, or `data`. */
function responseDataOf(error: Record<string, unknown>): unknown {
  const response = recordOf(error.response);
  if (response && 'data' in response) return response.data;
  if ('body' in error) return error.body;
  return error.data;
}

/**
 * The generic error toast rule (core §8, settings §8): a string is shown as it is; otherwise the
 * response data's `error`, else its `message`, else 'An error occurred'.
 */
export function toastErrorMessage(error: unknown): string {
  if (typeof error === 'string') return error || GENERIC_ERROR_MESSAGE;
  const record = recordOf(error);
  const data = record ? recordOf(responseDataOf(record)) : undefined;
  if (typeof data?.error === 'string' && data.error) return data.error;
  if (typeof data?.message === 'string' && data.message) return data.message;
  return GENERIC_ERROR_MESSAGE;
}

/** A success toast, e.g. '{name} updated successfully'. Returns its id. */
export function showSuccessToast(message: Renderable, options: { id?: string } = {}): string {
  return toast.success(message, { duration: TOAST_DURATION_MS, ...options });
}

/** An error toast following the generic rule; a React element is shown as it is. */
export function showErrorToast(error: unknown, options: { id?: string } = {}): string {
  const message = isValidElement(error) ? error : toastErrorMessage(error);
  return toast.error(message, { duration: TOAST_DURATION_MS, ...options });
}

/** A loading toast: stays until replaced or dismissed, and has no close button. Returns its id. */
export function showLoadingToast(message: Renderable): string {
  return toast.loading(message);
}

/** Removes a toast, e.g. a loading toast whose work finished. */
export function dismissToast(id?: string): void {
  toast.dismiss(id);
}
