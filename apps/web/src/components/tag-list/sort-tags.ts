/** A tag: key and value, both strings (core §3, settings §3). */
export interface Tag {
  key: string;
  value: string;
}

const PINNED_KEYS = ['account', 'namespace', 'name'];

function rank(key: string): number {
  const index = PINNED_KEYS.indexOf(key.toLowerCase());
  return index === -1 ? PINNED_KEYS.length : index;
}

/** Accepts a tag map or list and returns a new list. */
export function toTagList(tags: Readonly<Record<string, string>> | readonly Tag[] | null | undefined): Tag[] {
  if (!tags) return [];
  if (Array.isArray(tags)) return [...tags];
  return Object.entries(tags as Record<string, string>).map(([key, value]) => ({
    key,
    value: String(value),
  }));
}

/** Sorts tags: account first, then namespace, then name, then the rest by key, case-insensitively. */
export function sortTags(tags: Readonly<Record<string, string>> | readonly Tag[] | null | undefined): Tag[] {
  return toTagList(tags).sort((a, b) => {
    const byRank = rank(a.key) - rank(b.key);
    if (byRank !== 0) return byRank;
    const byKey = a.key.toLowerCase().localeCompare(b.key.toLowerCase());
    return byKey !== 0 ? byKey : a.value.toLowerCase().localeCompare(b.value.toLowerCase());
  });
}
