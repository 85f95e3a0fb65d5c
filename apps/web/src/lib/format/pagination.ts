/** Page count ceil(total / pageSize), or 1 when there are no rows (settings §9). */
export function pageCount(total: number | null | undefined, pageSize: number): number {
  if (!total || total <= 0 || !Number.isFinite(total) || pageSize <= 0) return 1;
  return Math.ceil(total / pageSize);
}

/** Page sizes selectable in tables (core §9); the default is 50. */
export const PAGE_SIZE_OPTIONS = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
/** Page sizes of the simple table variant. */
export const SIMPLE_PAGE_SIZE_OPTIONS = [50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;
