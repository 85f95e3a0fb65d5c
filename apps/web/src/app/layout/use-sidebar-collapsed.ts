import { useCallback, useSyncExternalStore } from 'react';

/** Where the sidebar's state is kept (spec core §2, settings §4); default expanded. */
export const SIDEBAR_COLLAPSED_KEY = 'sidebarCollapsed';

const listeners = new Set<() => void>();
// Used only when storage is refused (private mode): the choice then lasts until reload.
let memory = false;

function read(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return memory;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === SIDEBAR_COLLAPSED_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The persisted collapsed flag and its setter. */
export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const collapsed = useSyncExternalStore(subscribe, read, () => false);
  const setCollapsed = useCallback((next: boolean) => {
    memory = next;
    try {
      window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(next));
    } catch {
      // Storage refused: `memory` holds the choice.
    }
    for (const listener of listeners) listener();
  }, []);
  return [collapsed, setCollapsed];
}
