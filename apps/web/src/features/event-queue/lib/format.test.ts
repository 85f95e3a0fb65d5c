import { describe, expect, it } from 'vitest';
import { confirmationText, formatAge } from './format';

describe('formatAge', () => {
  it('shows seconds, minutes, hours and days with their remainder', () => {
    expect(formatAge(null)).toBe('-');
    expect(formatAge(0)).toBe('0s');
    expect(formatAge(45)).toBe('45s');
    expect(formatAge(200)).toBe('3m 20s');
    expect(formatAge(3600)).toBe('1h');
    expect(formatAge(7500)).toBe('2h 5m');
    expect(formatAge(3 * 86400 + 4 * 3600 + 59)).toBe('3d 4h');
  });
});

describe('confirmationText', () => {
  it('names the count, the event name and the consequence', () => {
    expect(confirmationText('retry', 1)).toBe(
      'Retry 1 failed event? They go back to the queue with a fresh attempt budget.',
    );
    expect(confirmationText('discard', 3, 'check.failed')).toBe(
      'Discard 3 failed events of check.failed? They are deleted and will not be handled.',
    );
  });
});
