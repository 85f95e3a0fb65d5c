import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$65536\$8\$1\$/);
    expect(stored).not.toContain('correct horse battery');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batter', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toEqual(await hashPassword('same'));
  });

  it('rejects stored values of another scheme', async () => {
    await expect(verifyPassword('x', 'bcrypt$whatever')).resolves.toBe(false);
  });

  it('generates 20-character passwords without ambiguous characters', () => {
    const password = generatePassword();
    expect(password).toHaveLength(20);
    expect(password).not.toMatch(/[01OIl]/);
  });
});
