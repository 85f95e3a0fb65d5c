const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A Go-style duration (`30m`, `1h30m`, `10s`, `500ms`) in milliseconds, or undefined when not one. */
export function parseDurationMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index !== consumed) return undefined;
    total += Number(match[1]) * UNITS[match[2]];
    consumed += match[0].length;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}

/** Playbook `timeout` default (issue 24): 30 minutes. */
export const DEFAULT_PLAYBOOK_TIMEOUT_MS = 30 * 60_000;
/** An action without `timeout` may take what is left of the run's. */
export const DEFAULT_ACTION_TIMEOUT_MS = DEFAULT_PLAYBOOK_TIMEOUT_MS;

/** Retry delay: duration × exponent^(attempt−1), ± jitter percent. */
export function retryDelayMs(
  retry: { duration?: unknown; exponent?: { multiplier?: unknown } | unknown; jitter?: unknown },
  attempt: number,
): number {
  const base = parseDurationMs(retry.duration) ?? 1000;
  const exponent = retry.exponent as { multiplier?: unknown } | number | undefined;
  const multiplier =
    typeof exponent === 'number'
      ? exponent
      : Number((exponent as { multiplier?: unknown } | undefined)?.multiplier ?? 1);
  const delay = base * Math.pow(Number.isFinite(multiplier) && multiplier > 0 ? multiplier : 1, attempt - 1);
  const jitter = Number(retry.jitter ?? 0);
  if (!Number.isFinite(jitter) || jitter <= 0) return delay;
  return Math.max(0, delay + delay * (jitter / 100) * (Math.random() * 2 - 1));
}
