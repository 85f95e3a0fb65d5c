import { describe, expect, it } from 'vitest';
import {
  clampLineRange,
  formatLineRange,
  isLineSelected,
  parseLineRange,
  selectLine,
} from './line-selection';

describe('spec line selection', () => {
  it('reads and writes the URL form', () => {
    expect(parseLineRange('7')).toEqual({ start: 7, end: 7 });
    expect(parseLineRange('9-3')).toEqual({ start: 3, end: 9 });
    for (const bad of ['', '0', 'a', '3-', '-3', '1-0', null, undefined])
      expect(parseLineRange(bad)).toBeUndefined();
    expect(formatLineRange({ start: 4, end: 4 })).toBe('4');
    expect(formatLineRange({ start: 4, end: 8 })).toBe('4-8');
  });

  it('selects, toggles off and extends with shift from the first selected line', () => {
    expect(selectLine(undefined, 5, false)).toEqual({ start: 5, end: 5 });
    expect(selectLine({ start: 5, end: 5 }, 5, false)).toBeUndefined();
    expect(selectLine({ start: 5, end: 5 }, 9, true)).toEqual({ start: 5, end: 9 });
    expect(selectLine({ start: 5, end: 9 }, 2, true)).toEqual({ start: 2, end: 5 });
    expect(selectLine(undefined, 4, true)).toEqual({ start: 4, end: 4 });
    expect(selectLine({ start: 5, end: 9 }, 7, false)).toEqual({ start: 7, end: 7 });
  });

  it('keeps a range inside the document', () => {
    expect(clampLineRange({ start: 3, end: 50 }, 10)).toEqual({ start: 3, end: 10 });
    expect(clampLineRange({ start: 11, end: 12 }, 10)).toBeUndefined();
    expect(isLineSelected({ start: 3, end: 5 }, 5)).toBe(true);
    expect(isLineSelected({ start: 3, end: 5 }, 6)).toBe(false);
    expect(isLineSelected(undefined, 1)).toBe(false);
  });
});
