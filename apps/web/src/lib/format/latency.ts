/** Latency percentiles as the check APIs return them; any may be missing. */
export interface LatencyPercentiles {
  p95?: number | null;
  p97?: number | null;
  p99?: number | null;
}

/** The latency to display: p95, falling back to p97, then p99 (core §9). Missing or 0 falls through. */
export function pickLatency(latency: LatencyPercentiles | null | undefined): number | undefined {
  if (!latency) return undefined;
  for (const value of [latency.p95, latency.p97, latency.p99]) {
    if (typeof value === 'number' && Number.isFinite(value) && value !== 0) return value;
  }
  return undefined;
}

function trimmed(value: number): string {
  return String(Number(value.toFixed(2)));
}

/**
 * Formats a latency in milliseconds: ms below 1000, s below 60000, minutes below 3600000,
 * else hours (core §9). Non-numbers give ''.
 */
export function formatLatency(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined || !Number.isFinite(milliseconds)) return '';
  if (milliseconds < 1000) return `${trimmed(milliseconds)}ms`;
  if (milliseconds < 60_000) return `${trimmed(milliseconds / 1000)}s`;
  if (milliseconds < 3_600_000) return `${trimmed(milliseconds / 60_000)}m`;
  return `${trimmed(milliseconds / 3_600_000)}h`;
}
