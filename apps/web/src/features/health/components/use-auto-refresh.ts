import { useCallback, useSyncExternalStore } from 'react';
import { parseIntervalMs } from '../../../lib/format';

/** Where the health page's auto-refresh setting is kept, per browser. */
export const AUTO_REFRESH_STORAGE_KEY = 'opsdeck.health.refreshInterval';
/** Choices offered; any number with an s, m, h, d or w suffix is accepted (core §4). */
export const AUTO_REFRESH_OPTIONS = ['15s', '30s', '1m', '5m', '15m', '30m', '1h'] as const;

const listeners = new Set<() => void>();

function read(): string {
  try {
    return window.localStorage.getItem(AUTO_REFRESH_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === AUTO_REFRESH_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The user's auto-refresh interval for the health page: the setting as typed ('' for none) and
 * its value in milliseconds (undefined: no auto-refresh). A malformed stored value means none.
 */
export function useAutoRefresh(): [{ value: string; ms?: number }, (next: string) => void] {
  const value = useSyncExternalStore(subscribe, read, () => '');
  const set = useCallback((next: string) => {
    try {
      if (next) window.localStorage.setItem(AUTO_REFRESH_STORAGE_KEY, next);
      else window.localStorage.removeItem(AUTO_REFRESH_STORAGE_KEY);
    } catch {
      // Storage can be unavailable (some private windows): the choice is then not kept.
    }
    for (const listener of listeners) listener();
  }, []);
  return [{ value, ms: parseIntervalMs(value) }, set];
}
