export interface Uptime {
  passed?: number | null;
  failed?: number | null;
}

/** Uptime percentage passed / (passed + failed) × 100, or NaN when there were no runs. */
export function uptimePercent(uptime: Uptime | null | undefined): number {
  const passed = uptime?.passed ?? 0;
  const failed = uptime?.failed ?? 0;
  return (passed / (passed + failed)) * 100;
}

/**
 * Formats uptime with 2 decimals (check panel) or 1 (health table), as '99.5%'; '-' when the
 * percentage is not a number (core §9).
 */
export function formatUptime(uptime: Uptime | null | undefined, decimals: 1 | 2 = 1): string {
  const percent = uptimePercent(uptime);
  if (!Number.isFinite(percent)) return '-';
  return `${percent.toFixed(decimals)}%`;
}

/**
 * A group's uptime: how many of its checks passed every run, over all its checks (core §9),
 * in the same shape as a check's uptime so it formats the same way.
 */
export function groupUptime(children: readonly (Uptime | null | undefined)[]): {
  passed: number;
  failed: number;
} {
  const passed = children.filter((child) => (child?.failed ?? 0) === 0 && (child?.passed ?? 0) > 0).length;
  return { passed, failed: children.length - passed };
}
