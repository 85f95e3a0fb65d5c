import { useSyncExternalStore } from 'react';

/** Below this window height the Health Overview chart moves from the panel header to a Graph tab. */
export const SHORT_SCREEN_QUERY = '(max-height: 760px)';

function subscribe(listener: () => void) {
  const media = window.matchMedia?.(SHORT_SCREEN_QUERY);
  media?.addEventListener('change', listener);
  return () => media?.removeEventListener('change', listener);
}

const read = () => window.matchMedia?.(SHORT_SCREEN_QUERY).matches ?? false;

/** Whether the window is short (core §2: the check panel shows its Graph tab only on short screens). */
export function useShortScreen(): boolean {
  return useSyncExternalStore(subscribe, read, () => false);
}
