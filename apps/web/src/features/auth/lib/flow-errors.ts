import type { FlowErrorInfo, FlowType } from '../api/flows';
import { loginPath } from './navigation';

/** Spec core §8 texts shown when a flow has to start again. */
export const FLOW_ERROR_MESSAGES = {
  returnToForbidden: 'The return_to address is not allowed.',
  expired: 'Your interaction expired, please fill out the form again.',
  csrf: 'A security violation was detected, please fill out the form again.',
} as const;

/** What a screen does with a failed flow call. */
export type FlowErrorAction =
  /** Start a new flow (or open `flowId`, the fresh flow the server made), showing `message`. */
  | { kind: 'restart'; message?: string; flowId?: string; dropReturnTo?: boolean }
  /** Leave the screen for another address (a full navigation). */
  | { kind: 'redirect'; to: string }
  /** Keep the form and show the server's message. */
  | { kind: 'message'; message: string }
  /** Nothing to do on this screen: show the error on the flow-error page. */
  | { kind: 'error-page' };

export interface FlowErrorContext {
  type: FlowType;
  /** The path and query to come back to after signing in, for redirects to the login screen. */
  here: string;
}

/** Maps the identity flow error ids of spec core §8 to what the screen does. */
export function resolveFlowError(error: FlowErrorInfo, context: FlowErrorContext): FlowErrorAction {
  switch (error.id) {
    case 'session_aal2_required':
      return { kind: 'redirect', to: error.redirectTo ?? loginPath(context.here, { aal: 'aal2' }) };
    case 'session_already_available':
      return { kind: 'redirect', to: '/' };
    case 'session_refresh_required':
      return { kind: 'redirect', to: error.redirectTo ?? loginPath(context.here, { refresh: 'true' }) };
    case 'self_service_flow_return_to_forbidden':
      // Starting again with the same return_to would fail the same way.
      return { kind: 'restart', message: FLOW_ERROR_MESSAGES.returnToForbidden, dropReturnTo: true };
    case 'self_service_flow_expired':
      return {
        kind: 'restart',
        message: FLOW_ERROR_MESSAGES.expired,
        ...(error.useFlowId ? { flowId: error.useFlowId } : {}),
      };
    case 'security_csrf_violation':
      return { kind: 'restart', message: FLOW_ERROR_MESSAGES.csrf };
    case 'security_identity_mismatch':
      return { kind: 'restart' };
    case 'browser_location_change_required':
      return error.redirectTo ? { kind: 'redirect', to: error.redirectTo } : { kind: 'error-page' };
    case 'session_inactive':
      return { kind: 'redirect', to: loginPath(context.type === 'login' ? '/' : context.here) };
    case 'self_service_flow_not_found':
      return { kind: 'restart' };
    case 'self_service_flow_throttled':
    case 'self_service_flow_disabled':
      return { kind: 'message', message: error.message };
    default:
      break;
  }
  if (error.status === 410) {
    return { kind: 'restart', ...(error.useFlowId ? { flowId: error.useFlowId } : {}) };
  }
  if (error.status === 0) return { kind: 'message', message: error.message };
  return { kind: 'error-page' };
}

const STORE_PREFIX = 'opsdeck.flow-error.';

/**
 * The server keeps no error records, so the screen hands the error to the flow-error page
 * through sessionStorage under a random id.
 */
export function storeFlowError(error: FlowErrorInfo): string {
  const id = globalThis.crypto.randomUUID();
  try {
    sessionStorage.setItem(
      STORE_PREFIX + id,
      JSON.stringify({ id: error.id, status: error.status, message: error.message, body: error.body }),
    );
  } catch {
    // storage full or blocked: the page then sends the user home
  }
  return id;
}

export function readFlowError(id: string): unknown {
  try {
    const raw = sessionStorage.getItem(STORE_PREFIX + id);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
