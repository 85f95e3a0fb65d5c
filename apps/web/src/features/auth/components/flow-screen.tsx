import type { ReactNode } from 'react';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import type { Flow, UiText } from '../api/flows';
import { useFlashVisible } from '../lib/use-flash-messages';
import type { FlowState } from '../lib/use-flow';
import { withWebAuthnCredential } from '../lib/webauthn';
import { FlowMessages } from './flow-messages';

/** The flow's own messages and the screen's notice, hidden 10 s after they appear. */
export function FlashMessages({ state }: { state: FlowState }) {
  const visible = useFlashVisible(state.version);
  const messages: UiText[] = [...(state.notice ? [state.notice] : []), ...(state.flow?.ui.messages ?? [])];
  return <FlowMessages messages={visible ? messages : []} />;
}

/** Submits a form body, running a WebAuthn ceremony first when the method needs one. */
export function useFlowSubmit(state: FlowState) {
  return (body: Record<string, unknown>) => {
    const flow = state.flow;
    if (!flow) return;
    withWebAuthnCredential(flow.ui.nodes, body).then(
      (complete) => void state.submit(complete),
      (error: unknown) =>
        state.setNotice({
          id: 'webauthn_failed',
          type: 'error',
          text: error instanceof Error ? error.message : String(error),
        }),
    );
  };
}

/** Loading skeleton until the flow is there, then `children(flow)`. */
export function FlowBody({ state, children }: { state: FlowState; children: (flow: Flow) => ReactNode }) {
  return (
    <>
      <FlashMessages state={state} />
      {state.flow ? children(state.flow) : <PageSkeleton lines={3} label="Loading" className="p-0" />}
    </>
  );
}
