import { describe, expect, it } from 'vitest';
import { truncateText } from './text';

describe('truncateText', () => {
  it('keeps text within the limit', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('exactly10!', 10)).toBe('exactly10!');
  });

  it('cuts longer text and appends an ellipsis', () => {
    expect(truncateText('a much longer text', 6)).toBe('a much...');
  });

  it('gives an empty string for missing text', () => {
    expect(truncateText(undefined, 5)).toBe('');
    expect(truncateText(null, 5)).toBe('');
  });
});
