/** `HumanSize()`: byte counts for people, in binary units ("512", "1.5K", "10M", "2G"). */
import { CelScalar, celFunc, type CelFunc, type CelValue } from '@bufbuild/cel';

const UNITS = ['', 'K', 'M', 'G', 'T', 'P', 'E'];

export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes)) throw new Error('HumanSize: expected a number of bytes');
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 ? String(Math.round(value)) : String(Number(value.toFixed(1)));
  return `${sign}${text}${UNITS[unit]}`;
}

function asNumber(value: CelValue): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  throw new Error('HumanSize: expected a number of bytes');
}

export const HUMANIZE_FUNCTIONS: CelFunc[] = [
  celFunc('HumanSize', [CelScalar.DYN], CelScalar.STRING, (value: CelValue) => humanSize(asNumber(value))),
];
