import { describe, expect, it } from 'vitest';
import { maskSealedStrings, MASKED_SECRET, openSealedStrings } from './secret-fields.js';

describe('secret fields', () => {
  it('masks sealed strings of a whole row and keeps dates and buffers as they are', () => {
    const created = new Date('2026-11-27T10:00:00Z');
    const bytes = Buffer.from('x');
    const row = {
      id: 'a',
      created_at: created,
      raw: bytes,
      spec: { password: 'enc:v1:abc', list: ['enc:v1:d'] },
    };
    const masked = maskSealedStrings(row) as typeof row;
    expect(masked.created_at).toBe(created);
    expect(masked.raw).toBe(bytes);
    expect(masked.spec).toEqual({ password: MASKED_SECRET, list: [MASKED_SECRET] });
    expect((openSealedStrings(row, undefined) as typeof row).created_at).toBe(created);
  });
});
