/**
 * A Go `time.Duration` as the ecosystem's checks hand it to expressions (`elapsed`, `sslAge`):
 * CEL sees a duration, Go templates print Go's `Duration.String()`, JavaScript a number of
 * nanoseconds (how a Go int64 crosses into the ecosystem's JavaScript runtime).
 */
export class DurationValue {
  constructor(readonly nanoseconds: bigint) {}

  static fromMilliseconds(milliseconds: number): DurationValue {
    return new DurationValue(BigInt(Math.round(milliseconds * 1e6)));
  }

  get milliseconds(): number {
    return Number(this.nanoseconds) / 1e6;
  }

  /** Go's `time.Duration.String()`: "1h2m3.5s", "1.5ms", "0s". */
  toString(): string {
    return formatGoDuration(this.nanoseconds);
  }

  toJSON(): number {
    return Number(this.nanoseconds);
  }
}

function trimFraction(whole: bigint, fraction: bigint, digits: number): string {
  if (fraction === 0n) return whole.toString();
  const text = fraction.toString().padStart(digits, '0').replace(/0+$/, '');
  return `${whole}.${text}`;
}

export function formatGoDuration(nanoseconds: bigint): string {
  const negative = nanoseconds < 0n;
  const value = negative ? -nanoseconds : nanoseconds;
  const sign = negative ? '-' : '';
  if (value === 0n) return '0s';
  if (value < 1000n) return `${sign}${value}ns`;
  if (value < 1_000_000n) return `${sign}${trimFraction(value / 1000n, value % 1000n, 3)}µs`;
  if (value < 1_000_000_000n) return `${sign}${trimFraction(value / 1_000_000n, value % 1_000_000n, 6)}ms`;
  const hours = value / 3_600_000_000_000n;
  const minutes = (value / 60_000_000_000n) % 60n;
  const seconds = trimFraction((value / 1_000_000_000n) % 60n, value % 1_000_000_000n, 9);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

const UNIT_NANOS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86_400e9,
  w: 7 * 86_400e9,
  y: 365 * 86_400e9,
};

/**
 * The ecosystem's duration text: Go's `time.ParseDuration` plus days, weeks and years
 * (`7d`, `1w2d`, `1y`, `-1.5h`). Throws on anything else.
 */
export function parseExtendedDuration(text: string): DurationValue {
  const source = text.trim();
  let rest = source;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return new DurationValue(0n);
  if (rest === '') throw new Error(`invalid duration "${text}"`);
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/;
  while (rest !== '') {
    const match = part.exec(rest);
    if (!match) throw new Error(`invalid duration "${text}"`);
    total += Number(match[1]) * UNIT_NANOS[match[2]];
    rest = rest.slice(match[0].length);
  }
  return new DurationValue(BigInt(Math.round(sign * total)));
}

/** A copy of plain objects and arrays with every DurationValue replaced by `replace(value)`. */
export function replaceDurations(value: unknown, replace: (duration: DurationValue) => unknown): unknown {
  if (value instanceof DurationValue) return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceDurations(item, replace));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = replaceDurations(item, replace);
    return out;
  }
  return value;
}
