import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { formatAge, formatDate, type AgeText, type DateFormatOptions } from '../format/date';
import type { DateInput } from '../format/dayjs';
import { useSearchParam, yesNoParam } from '../url-state/search-param';
import type { Preferences } from './preferences';
import { defaultPreferencesStore, type PreferencesStore } from './preferences-store';

const PreferencesContext = createContext<PreferencesStore | undefined>(undefined);

/**
 * Optional: supplies another store (tests, embedded views). Without a provider the hooks use the
 * app-wide store on localStorage.
 */
export function PreferencesProvider({ store, children }: { store: PreferencesStore; children: ReactNode }) {
  return <PreferencesContext.Provider value={store}>{children}</PreferencesContext.Provider>;
}

export interface UsePreferences extends Preferences {
  setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void;
  resetPreferences(): void;
}

/** The user's display preferences and their setters; every reader re-renders on change. */
export function usePreferences(): UsePreferences {
  const store = useContext(PreferencesContext) ?? defaultPreferencesStore();
  const preferences = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const setPreference = useCallback(
    <K extends keyof Preferences>(key: K, value: Preferences[K]) => store.update({ [key]: value }),
    [store],
  );
  return useMemo(
    () => ({ ...preferences, setPreference, resetPreferences: store.reset }),
    [preferences, setPreference, store],
  );
}

/** URL parameter of the Show hidden components preference (settings §2.9). */
export const SHOW_HIDDEN_COMPONENTS_PARAM = 'showHiddenComponents';

/** Show hidden components, held in the URL as yes or no; default yes. Needs a router. */
export function useShowHiddenComponents(): [boolean, (show: boolean) => void] {
  const [show, setShow] = useSearchParam(SHOW_HIDDEN_COMPONENTS_PARAM, yesNoParam, true);
  const set = useCallback((value: boolean) => setShow(value, { replace: true }), [setShow]);
  return [show, set];
}

export interface DateFormatter {
  /** A date in the user's format and zone; '' for empty and zero dates. */
  formatDate(value: DateInput | null | undefined, overrides?: DateFormatOptions): string;
  /** An age ('3h') with the full timestamp in the user's zone for its tooltip. */
  formatAge(value: DateInput | null | undefined, now?: DateInput): AgeText;
}

/** Date formatting bound to the user's Date/Time Format and Timezone preferences. */
export function useDateFormatter(): DateFormatter {
  const { dateTimeFormat, timezone } = usePreferences();
  return useMemo(
    () => ({
      formatDate: (value, overrides) => formatDate(value, { format: dateTimeFormat, timezone, ...overrides }),
      formatAge: (value, now) => formatAge(value, { now, timezone }),
    }),
    [dateTimeFormat, timezone],
  );
}
