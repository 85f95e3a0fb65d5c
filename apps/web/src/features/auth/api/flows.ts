import { ApiError, apiFetch } from '../../../lib/api-client';

/** The self-service identity flows of the server (apps/server/src/modules/auth/README.md). */
export type FlowType = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export interface UiText {
  id: string;
  text: string;
  type: 'info' | 'error' | 'success';
}

export interface UiNode {
  group: string;
  name: string;
  type: string;
  value?: unknown;
  required?: boolean;
  disabled?: boolean;
  label?: string;
  autocomplete?: string;
  messages: UiText[];
}

export interface Flow {
  id: string;
  type: FlowType;
  state: string | null;
  return_to: string | null;
  refresh: boolean;
  requested_aal: 'aal1' | 'aal2';
  csrf_token: string;
  ui: { action: string; method: string; nodes: UiNode[]; messages: UiText[] };
}

/** `{error: {id, code, status, message}, redirect_browser_to?, use_flow_id?}` of a failed flow call. */
export interface FlowErrorInfo {
  status: number;
  id?: string;
  message: string;
  redirectTo?: string;
  useFlowId?: string;
  body: unknown;
}

export type SubmitResult =
  { kind: 'flow'; flow: Flow; status: number } | { kind: 'done'; redirectTo: string };

const BASE = '/api/auth/self-service';

export function isFlow(value: unknown): value is Flow {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const ui = record.ui as Record<string, unknown> | undefined;
  return typeof record.id === 'string' && typeof ui === 'object' && ui !== null && Array.isArray(ui.nodes);
}

/** Reads the error answer of a flow call; a network failure has status 0. */
export function flowErrorOf(error: unknown): FlowErrorInfo {
  if (!(error instanceof ApiError)) {
    return { status: 0, message: 'Network Error. Please try again.', body: String(error) };
  }
  const body = error.body && typeof error.body === 'object' ? (error.body as Record<string, unknown>) : {};
  const inner = body.error && typeof body.error === 'object' ? (body.error as Record<string, unknown>) : {};
  const info: FlowErrorInfo = { status: error.status, message: error.message, body: error.body };
  if (typeof inner.id === 'string') info.id = inner.id;
  if (typeof inner.message === 'string') info.message = inner.message;
  if (typeof body.redirect_browser_to === 'string') info.redirectTo = body.redirect_browser_to;
  if (typeof body.use_flow_id === 'string') info.useFlowId = body.use_flow_id;
  return info;
}

const quiet = { ignoreUnauthorized: true };

export interface FlowQuery {
  return_to?: string;
  refresh?: boolean;
  aal?: string;
}

export function createFlow(type: FlowType, query: FlowQuery = {}): Promise<Flow> {
  const params = new URLSearchParams();
  if (query.return_to) params.set('return_to', query.return_to);
  if (query.refresh) params.set('refresh', 'true');
  if (query.aal) params.set('aal', query.aal);
  const search = params.toString();
  return apiFetch<Flow>(`${BASE}/${type}/browser${search ? `?${search}` : ''}`, {}, quiet);
}

export function getFlow(type: FlowType, id: string): Promise<Flow> {
  return apiFetch<Flow>(`${BASE}/${type}/flows?id=${encodeURIComponent(id)}`, {}, quiet);
}

/**
 * Where a finished flow continues when the server asks for more than the redirect: after a
 * registration whose address needs verifying, `continue_with` holds `show_verification_ui` with
 * the verification flow (its code was just emailed), shown at /verification; return_to goes
 * along, so the verification screen leads on to where the user was going.
 */
export function continueWithLocation(continueWith: unknown, returnTo: string): string | undefined {
  if (!Array.isArray(continueWith)) return undefined;
  for (const item of continueWith as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const entry = item as { action?: unknown; flow?: { id?: unknown } };
    if (entry.action === 'show_verification_ui' && typeof entry.flow?.id === 'string') {
      const params = new URLSearchParams({ flow: entry.flow.id, return_to: returnTo });
      return `/verification?${params.toString()}`;
    }
  }
  return undefined;
}

/**
 * Submits a flow. A 400 carrying the flow is not a failure: the form re-renders with the
 * server's messages. Other errors are thrown as ApiError (read them with flowErrorOf).
 */
export async function submitFlow(
  type: FlowType,
  id: string,
  body: Record<string, unknown>,
): Promise<SubmitResult> {
  try {
    const answer = await apiFetch<unknown>(
      `${BASE}/${type}?flow=${encodeURIComponent(id)}`,
      { method: 'POST', body: JSON.stringify(body) },
      quiet,
    );
    if (isFlow(answer)) return { kind: 'flow', flow: answer, status: 200 };
    const record = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
    const redirectTo =
      typeof record.redirect_browser_to === 'string'
        ? record.redirect_browser_to
        : typeof record.return_to === 'string'
          ? record.return_to
          : '/';
    return { kind: 'done', redirectTo: continueWithLocation(record.continue_with, redirectTo) ?? redirectTo };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && isFlow(error.body)) {
      return { kind: 'flow', flow: error.body, status: 400 };
    }
    throw error;
  }
}
