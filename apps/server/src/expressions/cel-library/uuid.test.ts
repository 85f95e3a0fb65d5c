import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL uuid functions', () => {
  it('makes and validates UUIDs', () => {
    const made = evaluateCel('uuid.V4()', {}) as string;
    expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(evaluateCel('uuid.V4() != uuid.V4()', {})).toBe(true);
    expect(evaluateCel('uuid.IsValid(uuid.V4())', {})).toBe(true);
    expect(evaluateCel("uuid.IsValid('not-a-uuid')", {})).toBe(false);
    expect(evaluateCel('uuid.Nil()', {})).toBe('00000000-0000-0000-0000-000000000000');
    expect(evaluateCel("uuid.Parse('{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}')", {})).toBe(
      '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
    );
  });
});
