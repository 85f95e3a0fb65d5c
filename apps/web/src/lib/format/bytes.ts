const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/**
 * Formats a byte count with base 1024, from B up to YB (settings §9), with at most `decimals`
 * fraction digits and trailing zeros dropped: 1536 → '1.5 KB'. Non-numbers give ''.
 */
export function formatBytes(bytes: number | null | undefined, decimals = 2): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Number(value.toFixed(decimals));
  return `${sign}${rounded} ${UNITS[unit]}`;
}
