import { dictionary } from '@zxcvbn-ts/language-common';
import { REQUIRED, text, type UiText } from './flow-core.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The ~49,000 most common passwords of leaked lists, as zxcvbn-ts keeps them (lower case).
 * Password guessing starts with these, so throttling alone does not protect an account that
 * uses one; they are refused wherever a password is chosen.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common']);

export const PASSWORD_TOO_COMMON =
  'This password is too common and easy to guess. Choose a less predictable one, such as a few unrelated words.';

/** Whether a password is one of the common ones (case does not matter, nor surrounding spaces). */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}

/**
 * Server-side password rules, the same for registration, the settings password change and the
 * new password after recovery; messages are shown next to the password field.
 */
export function passwordProblems(password: string, email: string): UiText[] {
  if (!password) return [text('required', REQUIRED, 'error')];
  if (password.length < PASSWORD_MIN_LENGTH) {
    return [
      text(
        'password_too_short',
        `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
        'error',
      ),
    ];
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return [
      text(
        'password_too_long',
        `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
        'error',
      ),
    ];
  }
  if (email && password.toLowerCase() === email.toLowerCase()) {
    return [text('password_is_email', 'The password must not be your email address.', 'error')];
  }
  if (isCommonPassword(password)) return [text('password_too_common', PASSWORD_TOO_COMMON, 'error')];
  return [];
}
