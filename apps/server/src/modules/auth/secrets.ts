import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A random secret of `bytes` bytes, base64url: cookies, link tokens, access-token secrets. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256, base64url. Only for high-entropy secrets, where a slow hash buys nothing. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Compares two strings in time independent of where they differ. */
export function safeEqual(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A numeric code of `digits` digits that a person types from an email. */
export function randomDigits(digits = 6): string {
  return Array.from({ length: digits }, () => String(randomInt(10))).join('');
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A backup code such as `k7m2p-x9qrt`: 10 characters of 31, about 50 bits. */
export function randomBackupCode(): string {
  const characters = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}
