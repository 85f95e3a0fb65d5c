import { createContext, useContext, type ReactNode } from 'react';

/** What a page offers as incident evidence: a config item, one of its changes, a check or a component. */
export type EvidenceTarget =
  | { kind: 'config'; configId: string; name: string }
  | { kind: 'config_change'; configChangeId: string; configId?: string; name: string }
  | { kind: 'check'; checkId: string; name: string }
  | { kind: 'component'; componentId: string; name: string };

/** Renders the control that attaches a target as evidence (the incidents feature's button). */
export type RenderEvidenceAction<Target extends EvidenceTarget = EvidenceTarget> = (
  target: Target,
) => ReactNode;

const EvidenceActionContext = createContext<RenderEvidenceAction | null>(null);

/**
 * Features do not import each other (STYLE.md): the route composing a page passes the incidents
 * feature's 'Attach as Evidence' button here; without it the pages show none.
 */
export function EvidenceActionProvider({
  render,
  children,
}: {
  render: RenderEvidenceAction;
  children: ReactNode;
}) {
  return <EvidenceActionContext.Provider value={render}>{children}</EvidenceActionContext.Provider>;
}

/** 'Attach as Evidence' for a target, when the route provides it (it hides itself from users who may not). */
export function EvidenceAction({ target }: { target: EvidenceTarget }) {
  const render = useContext(EvidenceActionContext);
  return render ? render(target) : null;
}
