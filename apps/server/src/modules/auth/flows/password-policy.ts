import { REQUIRED, text, type UiText } from './flow-core.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Server-side password rules; messages are shown next to the password field. */
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
  return [];
}
