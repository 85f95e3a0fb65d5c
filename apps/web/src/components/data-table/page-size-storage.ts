import { browserStorage } from '../../lib/preferences/preferences-store';

/** localStorage key under which a table remembers its page size. */
export function pageSizeStorageKey(tableId: string): string {
  return `opsdeck.table.${tableId}.pageSize`;
}

/** The page size a table was last left at, if it is still one of its options. */
export function rememberedPageSize(tableId: string, options: readonly number[]): number | undefined {
  try {
    const stored = Number(browserStorage()?.getItem(pageSizeStorageKey(tableId)));
    return options.includes(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a table's page size between visits (core §9). */
export function rememberPageSize(tableId: string, pageSize: number): void {
  try {
    browserStorage()?.setItem(pageSizeStorageKey(tableId), String(pageSize));
  } catch {
    // Blocked storage only loses the memory, not the choice.
  }
}
