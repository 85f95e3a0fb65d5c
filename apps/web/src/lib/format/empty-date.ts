import { dayjs, type DateInput } from './dayjs';

/**
 * True when a value carries no point in time: nullish, blank, unparsable, or the zero date
 * 0001-01-01 that Go services send for "never" (spec settings §9).
 */
export function isEmptyDate(value: DateInput | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '' || text.startsWith('0001-01-01')) return true;
  }
  const parsed = dayjs(value);
  return !parsed.isValid() || parsed.year() <= 1;
}
