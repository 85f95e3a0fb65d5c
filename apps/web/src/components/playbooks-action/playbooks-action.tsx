import { createContext, useContext, type ReactNode } from 'react';

/** The resource a page offers playbooks for: a check, a config or a component. */
export interface PlaybooksTarget {
  kind: 'check' | 'config' | 'component';
  id: string;
  name: string;
}

/** Renders the playbooks dropdown for a resource (the playbooks feature's menu). */
export type RenderPlaybooksAction = (target: PlaybooksTarget) => ReactNode;

const PlaybooksActionContext = createContext<RenderPlaybooksAction | null>(null);

/**
 * Features do not import each other (STYLE.md): the route composing a page passes the playbooks
 * feature's menu here; without it the pages show none.
 */
export function PlaybooksActionProvider({
  render,
  children,
}: {
  render: RenderPlaybooksAction;
  children: ReactNode;
}) {
  return <PlaybooksActionContext.Provider value={render}>{children}</PlaybooksActionContext.Provider>;
}

/** The playbooks menu of a resource, when the route provides it (it hides itself when there is nothing to run). */
export function PlaybooksAction({ target }: { target: PlaybooksTarget }) {
  const render = useContext(PlaybooksActionContext);
  return render ? render(target) : null;
}
