import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  createFlow,
  flowErrorOf,
  getFlow,
  submitFlow,
  type Flow,
  type FlowErrorInfo,
  type FlowQuery,
  type FlowType,
  type SubmitResult,
  type UiText,
} from '../api/flows';
import { resolveFlowError, storeFlowError } from './flow-errors';
import { assignLocation, currentPathAndQuery } from './navigation';
import { FLOW_ERROR_PATH } from './paths';

/** Query parameters that survive when the screen puts `?flow=<id>` in the address. */
const KEPT_PARAMS = ['return_to', 'refresh', 'aal'];
/** Restarts in a row before giving up, so a server that keeps refusing cannot loop the page. */
const MAX_RESTARTS = 3;

export interface FlowState {
  flow: Flow | undefined;
  /** Messages of the screen itself (restart reasons, network errors), shown with the flow's. */
  notice: UiText | undefined;
  busy: boolean;
  /** Bumped on each new rendering of the flow, to remount forms and restart message timers. */
  version: number;
  submit: (body: Record<string, unknown>) => Promise<SubmitResult | undefined>;
  /** Show a message of the screen (e.g. a WebAuthn ceremony that failed). */
  setNotice: (notice: UiText | undefined) => void;
}

export interface UseFlowOptions {
  /** Query for a new flow; defaults to the page's return_to/refresh/aal. */
  query?: (params: URLSearchParams) => FlowQuery;
  /** After a successful settings change etc. */
  onFlow?: (flow: Flow, result: 'loaded' | 'submitted') => void;
  /** Where a 400 on creating the flow goes instead of the usual handling (verification: '/'). */
  createRejectedTo?: string;
}

function defaultQuery(params: URLSearchParams): FlowQuery {
  const query: FlowQuery = {};
  const returnTo = params.get('return_to');
  if (returnTo) query.return_to = returnTo;
  if (params.get('refresh') === 'true') query.refresh = true;
  const aal = params.get('aal');
  if (aal) query.aal = aal;
  return query;
}

/**
 * Creates or fetches the flow of a sign-in screen (`?flow=<id>`), submits it, and applies the
 * error-id behaviours of spec core §8.
 */
export function useFlow(type: FlowType, options: UseFlowOptions = {}): FlowState {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [flow, setFlowState] = useState<Flow>();
  const [notice, setNotice] = useState<UiText>();
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const restarts = useRef(0);
  const requested = useRef<string | undefined>(undefined);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const flowId = params.get('flow') ?? undefined;
  const dropReturnTo = useRef(false);

  const showFlow = useCallback((next: Flow, how: 'loaded' | 'submitted') => {
    setFlowState(next);
    setVersion((value) => value + 1);
    optionsRef.current.onFlow?.(next, how);
  }, []);

  const handleError = useCallback(
    (error: FlowErrorInfo) => {
      const action = resolveFlowError(error, { type, here: currentPathAndQuery() });
      switch (action.kind) {
        case 'redirect':
          assignLocation(action.to);
          return;
        case 'message':
          setNotice({ id: error.id ?? 'flow_error', text: action.message, type: 'error' });
          setVersion((value) => value + 1);
          return;
        case 'error-page':
          navigate(`${FLOW_ERROR_PATH}?id=${encodeURIComponent(storeFlowError(error))}`, { replace: true });
          return;
        case 'restart': {
          restarts.current += 1;
          if (restarts.current > MAX_RESTARTS) {
            navigate(`${FLOW_ERROR_PATH}?id=${encodeURIComponent(storeFlowError(error))}`, { replace: true });
            return;
          }
          setNotice(
            action.message
              ? { id: error.id ?? 'flow_restart', text: action.message, type: 'error' }
              : undefined,
          );
          setFlowState(undefined);
          requested.current = undefined;
          if (action.dropReturnTo) dropReturnTo.current = true;
          const hadFlow = flowId !== undefined;
          // A changed flow id in the address starts the next attempt; otherwise bump the counter.
          if (action.flowId || hadFlow || action.dropReturnTo) {
            setParams(
              (previous) => {
                const next = new URLSearchParams(previous);
                next.delete('flow');
                if (action.dropReturnTo) next.delete('return_to');
                if (action.flowId) next.set('flow', action.flowId);
                return next;
              },
              { replace: true },
            );
          }
          if (!action.flowId && !hadFlow) setAttempt((value) => value + 1);
          return;
        }
      }
    },
    [flowId, navigate, setParams, type],
  );

  useEffect(() => {
    const key = `${type}:${flowId ?? ''}:${attempt}`;
    // StrictMode runs effects twice: one flow per address and attempt is enough.
    if (requested.current === key) return;
    requested.current = key;
    let cancelled = false;
    if (flowId) {
      if (flow?.id === flowId) return;
      getFlow(type, flowId).then(
        (loaded) => {
          if (!cancelled) showFlow(loaded, 'loaded');
        },
        (error: unknown) => {
          if (!cancelled) handleError(flowErrorOf(error));
        },
      );
    } else {
      const source = new URLSearchParams(params);
      if (dropReturnTo.current) source.delete('return_to');
      const query = (optionsRef.current.query ?? defaultQuery)(source);
      createFlow(type, query).then(
        (created) => {
          if (cancelled) return;
          showFlow(created, 'loaded');
          requested.current = `${type}:${created.id}:${attempt}`;
          setParams(
            (current) => {
              const next = new URLSearchParams();
              for (const name of KEPT_PARAMS) {
                if (name === 'return_to' && dropReturnTo.current) continue;
                const value = current.get(name);
                if (value !== null) next.set(name, value);
              }
              next.set('flow', created.id);
              return next;
            },
            { replace: true },
          );
        },
        (error: unknown) => {
          if (cancelled) return;
          const info = flowErrorOf(error);
          const rejectedTo = optionsRef.current.createRejectedTo;
          if (rejectedTo && info.status === 400) assignLocation(rejectedTo);
          else handleError(info);
        },
      );
    }
    return () => {
      cancelled = true;
      // let the second StrictMode run (or a real change) ask again
      if (requested.current === key) requested.current = undefined;
    };
    // params are read only when creating; the flow id and attempt decide when to ask
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type, flowId, attempt]);

  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      if (!flow) return undefined;
      setBusy(true);
      try {
        const result = await submitFlow(type, flow.id, { ...body, csrf_token: flow.csrf_token });
        restarts.current = 0;
        if (result.kind === 'done') {
          assignLocation(result.redirectTo);
        } else {
          setNotice(undefined);
          showFlow(result.flow, 'submitted');
        }
        return result;
      } catch (error) {
        handleError(flowErrorOf(error));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [flow, handleError, showFlow, type],
  );

  const showNotice = useCallback((next: UiText | undefined) => {
    setNotice(next);
    setVersion((value) => value + 1);
  }, []);

  return { flow, notice, busy, version, submit, setNotice: showNotice };
}
