/** `90s`, `15m`, `1h30m`, `2d`, `500ms` → milliseconds; undefined when unreadable. */
export function parseDurationMs(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  const units: Record<string, number> = {
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
    w: 604_800_000,
  };
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  for (const match of trimmed.matchAll(pattern)) {
    total += Number(match[1]) * units[match[2]];
    matched += match[0].length;
  }
  return matched === trimmed.length && matched > 0 ? Math.round(total) : undefined;
}
