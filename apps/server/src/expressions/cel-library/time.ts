/**
 * The ecosystem's time and duration functions: `Duration()`, `HumanDuration()`, `time.Now()`,
 * `time.Parse()`, `time.ZoneName()`, `time.ZoneOffset()`, `time.Since()`, `time.Until()`.
 */
import { CelScalar, celFunc, type CelFunc, type CelValue } from '@bufbuild/cel';
import { DurationValue, parseExtendedDuration } from '../duration-value.js';
import { parseGoTime } from './go-time-layout.js';
import { durationMessage, readDuration, readTimestamp, timestampMessage } from './values.js';

const DYN = CelScalar.DYN;
const STRING = CelScalar.STRING;
const INT = CelScalar.INT;

/**
 * A duration for people, the way the ecosystem's `HumanDuration` writes it: the two largest
 * units among days, hours, minutes and seconds ("2d3h", "1h5m", "45s", "1.5s" under a minute).
 */
export function humanDuration(duration: DurationValue): string {
  const negative = duration.nanoseconds < 0n;
  const milliseconds = Math.abs(duration.milliseconds);
  const sign = negative ? '-' : '';
  if (milliseconds < 1000) return `${sign}${Math.round(milliseconds)}ms`;
  if (milliseconds < 60_000) return `${sign}${Number((milliseconds / 1000).toFixed(1))}s`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  let rest = milliseconds;
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    if (parts.length === 2) break;
  }
  return sign + parts.filter((part) => !part.startsWith('0')).join('');
}

function zoneName(at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(at)
    .find((item) => item.type === 'timeZoneName');
  const name = part?.value ?? 'UTC';
  return name === 'GMT' ? 'UTC' : name;
}

export const TIME_FUNCTIONS: CelFunc[] = [
  celFunc('Duration', [STRING], DYN, (text: string) => durationMessage(parseExtendedDuration(text)) as never),
  celFunc('HumanDuration', [DYN], STRING, (value: CelValue) =>
    humanDuration(readDuration(value, parseExtendedDuration)),
  ),
  celFunc('time.Now', [], DYN, () => timestampMessage(Date.now()) as never),
  celFunc(
    'time.Parse',
    [STRING, STRING],
    DYN,
    (layout: string, value: string) => timestampMessage(parseGoTime(layout, value)) as never,
  ),
  celFunc('time.ZoneName', [], STRING, () => zoneName(new Date())),
  celFunc('time.ZoneOffset', [], INT, () => BigInt(-new Date().getTimezoneOffset() * 60)),
  celFunc(
    'time.Since',
    [DYN],
    DYN,
    (value: CelValue) =>
      durationMessage(DurationValue.fromMilliseconds(Date.now() - readTimestamp(value))) as never,
  ),
  celFunc(
    'time.Until',
    [DYN],
    DYN,
    (value: CelValue) =>
      durationMessage(DurationValue.fromMilliseconds(readTimestamp(value) - Date.now())) as never,
  ),
];
