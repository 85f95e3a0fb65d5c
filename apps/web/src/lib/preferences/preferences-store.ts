import {
  applyPreferences,
  DEFAULT_PREFERENCES,
  parsePreferences,
  PREFERENCES_STORAGE_KEY,
  type Preferences,
} from './preferences';

/** A small external store so every component reads the same preferences without prop drilling. */
export interface PreferencesStore {
  getSnapshot(): Preferences;
  subscribe(listener: () => void): () => void;
  update(patch: Partial<Preferences>): void;
  reset(): void;
}

function readStorage(storage: Storage | undefined): Preferences {
  if (!storage) return { ...DEFAULT_PREFERENCES };
  try {
    const text = storage.getItem(PREFERENCES_STORAGE_KEY);
    return parsePreferences(text ? JSON.parse(text) : undefined);
  } catch {
    // Unreadable storage (blocked, corrupt JSON) must not break the page: use the defaults.
    return { ...DEFAULT_PREFERENCES };
  }
}

/** The browser's localStorage, or undefined where it is unavailable (private modes, tests). */
export function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Creates a store persisted in `storage` that also follows changes made in other tabs. */
export function createPreferencesStore(storage: Storage | undefined = browserStorage()): PreferencesStore {
  let snapshot = readStorage(storage);
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  const onStorage = (event: StorageEvent) => {
    if (event.key !== null && event.key !== PREFERENCES_STORAGE_KEY) return;
    snapshot = readStorage(storage);
    notify();
  };

  const persist = (next: Preferences) => {
    snapshot = next;
    try {
      storage?.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // A full or blocked storage keeps the change for this session only.
    }
    notify();
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1 && typeof window !== 'undefined')
        window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof window !== 'undefined')
          window.removeEventListener('storage', onStorage);
      };
    },
    update: (patch) => persist(applyPreferences(snapshot, patch)),
    reset: () => persist({ ...DEFAULT_PREFERENCES }),
  };
}

let defaultStore: PreferencesStore | undefined;

/** The app-wide store on localStorage, created on first use. */
export function defaultPreferencesStore(): PreferencesStore {
  defaultStore ??= createPreferencesStore();
  return defaultStore;
}
