const DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const CENTS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const COMPACT = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/**
 * A cost in dollars for a table cell: `$1,234.50`; amounts under a dollar keep up to four
 * decimals (`$0.0125`, per-minute costs); a million and above is compact (`$1.2M`). Absent or
 * non-numeric values (the data API sends numerics as numbers or strings) give ''.
 */
export function formatCost(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return '';
  const magnitude = Math.abs(amount);
  if (magnitude >= 1_000_000) return COMPACT.format(amount);
  if (magnitude > 0 && magnitude < 1) return CENTS.format(amount);
  return DOLLARS.format(amount);
}
