import { describe, expect, it } from 'vitest';
import { totalFromContentRange } from './data-api';

describe('totalFromContentRange', () => {
  it('reads the total of a Content-Range header', () => {
    expect(totalFromContentRange('0-49/1234')).toBe(1234);
    expect(totalFromContentRange('*/0')).toBe(0);
  });

  it('has no total without a header or with an unknown one', () => {
    expect(totalFromContentRange(null)).toBeUndefined();
    expect(totalFromContentRange('0-1/*')).toBeUndefined();
  });
});
