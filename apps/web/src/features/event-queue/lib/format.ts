/** An age in seconds as the page shows it: `45s`, `3m 20s`, `2h 5m`, `3d 4h`; `-` when none. */
export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m}m` : `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d}d` : `${d}d ${h % 24}h`;
}

/** What the confirmation says for a retry or discard of `count` events (of `name` when given). */
export function confirmationText(action: 'retry' | 'discard', count: number, name?: string): string {
  const what = `${count} failed event${count === 1 ? '' : 's'}${name ? ` of ${name}` : ''}`;
  return action === 'retry'
    ? `Retry ${what}? They go back to the queue with a fresh attempt budget.`
    : `Discard ${what}? They are deleted and will not be handled.`;
}
