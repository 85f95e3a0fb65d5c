import {
  continueWithSchema,
  flowDoneResponseSchema,
  flowErrorBodySchema,
  flowSchema,
  kratosFlowErrorSchema,
  type Flow,
  type FlowType,
} from '@opsdeck/contracts';
import { ApiError, apiFetch, parseResponse } from '../../../lib/api-client';

/**
 * The self-service identity flows of the server (apps/server/src/modules/auth/README.md). Their
 * shapes are the contracts' (`@opsdeck/contracts` auth.ts); every answer is parsed with them, so
 * a flow that drifted fails with ApiResponseError naming the field instead of rendering a
 * broken form.
 */
export type { Flow, FlowType, UiNode, UiText } from '@opsdeck/contracts';

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

/** Whether an answer is a flow (it has a form): such an answer is parsed as one, never as "done". */
export function isFlow(value: unknown): boolean {
  return !!value && typeof value === 'object' && 'ui' in value;
}

/** Reads the error answer of a flow call; a network failure has status 0. */
export function flowErrorOf(error: unknown): FlowErrorInfo {
  if (!(error instanceof ApiError)) {
    return { status: 0, message: 'Network Error. Please try again.', body: String(error) };
  }
  const info: FlowErrorInfo = { status: error.status, message: error.message, body: error.body };
  // Not every refusal is a flow error (a proxy's 502, the API's `{error}`): those keep ApiError's message.
  const parsed = flowErrorBodySchema.safeParse(error.body);
  if (!parsed.success) return info;
  const { error: inner, redirect_browser_to: redirectTo, use_flow_id: useFlowId } = parsed.data;
  if (inner.id !== undefined) info.id = inner.id;
  info.message = inner.message;
  if (redirectTo !== undefined) info.redirectTo = redirectTo;
  if (useFlowId !== undefined) info.useFlowId = useFlowId;
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
  return apiFetch(
    `${BASE}/${type}/browser${search ? `?${search}` : ''}`,
    {},
    { ...quiet, schema: flowSchema },
  );
}

export function getFlow(type: FlowType, id: string): Promise<Flow> {
  return apiFetch(`${BASE}/${type}/flows?id=${encodeURIComponent(id)}`, {}, { ...quiet, schema: flowSchema });
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
    const entry = continueWithSchema.safeParse(item);
    if (entry.success && entry.data.action === 'show_verification_ui' && entry.data.flow) {
      const params = new URLSearchParams({ flow: entry.data.flow.id, return_to: returnTo });
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
  const path = `${BASE}/${type}?flow=${encodeURIComponent(id)}`;
  let answer: unknown;
  try {
    answer = await apiFetch<unknown>(path, { method: 'POST', body: JSON.stringify(body) }, quiet);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && isFlow(error.body)) {
      return { kind: 'flow', flow: parseResponse(path, error.body, flowSchema), status: 400 };
    }
    throw error;
  }
  if (isFlow(answer)) return { kind: 'flow', flow: parseResponse(path, answer, flowSchema), status: 200 };
  const done = parseResponse(path, answer ?? {}, flowDoneResponseSchema);
  const redirectTo = done.redirect_browser_to ?? done.return_to ?? '/';
  return { kind: 'done', redirectTo: continueWithLocation(done.continue_with, redirectTo) ?? redirectTo };
}

/**
 * An error the server sent a navigating browser to `/error?id=` with (the Kratos door,
 * `/api/kratos/self-service/errors`); undefined when the server has none under this id.
 */
export async function fetchServerFlowError(id: string): Promise<unknown> {
  try {
    const found = await apiFetch(
      `/api/kratos/self-service/errors?id=${encodeURIComponent(id)}`,
      {},
      { ignoreUnauthorized: true, schema: kratosFlowErrorSchema },
    );
    return found.error;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return undefined;
    throw error;
  }
}
