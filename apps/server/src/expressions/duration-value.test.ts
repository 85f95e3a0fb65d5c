import { describe, expect, it } from 'vitest';
import { DurationValue, formatGoDuration, parseExtendedDuration } from './duration-value.js';
import { evaluate } from './index.js';

describe('Go durations in expressions', () => {
  it("prints Go's Duration.String()", () => {
    expect(formatGoDuration(0n)).toBe('0s');
    expect(formatGoDuration(1_500_000n)).toBe('1.5ms');
    expect(formatGoDuration(1_500_000_000n)).toBe('1.5s');
    expect(formatGoDuration(3_723_000_000_000n)).toBe('1h2m3s');
    expect(formatGoDuration(-90_000_000_000n)).toBe('-1m30s');
    expect(formatGoDuration(750n)).toBe('750ns');
  });

  it('parses days, weeks and years beside Go units, and refuses the rest', () => {
    expect(parseExtendedDuration('7d').milliseconds).toBe(7 * 86_400_000);
    expect(parseExtendedDuration('1w1d').milliseconds).toBe(8 * 86_400_000);
    expect(parseExtendedDuration('-1.5h').milliseconds).toBe(-5_400_000);
    expect(() => parseExtendedDuration('5 minutes')).toThrow(/invalid duration/);
  });

  it('is a duration in CEL, Go text in templates and nanoseconds in JavaScript', async () => {
    const variables = { elapsed: DurationValue.fromMilliseconds(1500) };
    expect(await evaluate({ expr: "elapsed == duration('1.5s')" }, variables)).toBe(true);
    expect(await evaluate({ template: '{{ .elapsed }}' }, variables)).toBe('1.5s');
    expect(await evaluate({ javascript: 'elapsed' }, variables)).toBe(1_500_000_000);
  });
});
