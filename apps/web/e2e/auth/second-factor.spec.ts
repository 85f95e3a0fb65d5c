import { expect, test, type Page } from '@playwright/test';
import { AuthScreens, registerAccount } from '../fixtures/auth';
import { totpCode } from '../fixtures/totp';

/** Sets up TOTP in profile settings with a code computed from the shown secret. */
async function enableTotp(page: Page): Promise<void> {
  const totp = new AuthScreens(page).section('Manage 2FA TOTP Authenticator App');
  const secret = (await totp.locator('[data-node="totp_secret_key"] code').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await totp.getByLabel('Verification code').fill(totpCode(secret));
  await totp.getByRole('button', { name: 'Save' }).click();
  await expect(totp.getByRole('button', { name: 'Unlink TOTP authenticator app' })).toBeVisible();
}

test('a backup recovery code signs in once as the second factor', async ({ page }) => {
  const { email, password } = await registerAccount(page);
  const screens = new AuthScreens(page);
  await enableTotp(page);

  const backup = screens.section('Manage 2FA Backup Recovery Codes');
  await backup.getByRole('button', { name: 'Generate new backup recovery codes' }).click();
  const shown = backup.getByRole('list', { name: 'Backup recovery codes (shown once)' });
  await expect(shown.getByRole('listitem').first()).toBeVisible();
  const codes = (await shown.getByRole('listitem').allTextContents()).map((code) => code.trim());
  expect(codes.length).toBeGreaterThanOrEqual(8);
  expect(new Set(codes).size).toBe(codes.length);

  await screens.signOutByApi();
  await screens.openLogin('/profile-settings');
  await screens.submitPassword(email, password);
  await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
  await page.getByLabel('Backup recovery code').fill(codes[0] as string);
  await page.getByRole('button', { name: 'Use backup recovery code' }).click();
  await page.waitForURL((url) => url.pathname === '/profile-settings');
  await expect(screens.section('Profile Settings').getByLabel('Email')).toHaveValue(email);
  // The codes are shown once; now the section counts the unused ones.
  await expect(backup.locator('[data-node="lookup_secret_remaining"] code')).toHaveText(
    String(codes.length - 1),
  );

  // A used code does not work again; another one does.
  await screens.signOutByApi();
  await screens.openLogin('/profile-settings');
  await screens.submitPassword(email, password);
  await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
  await page.getByLabel('Backup recovery code').fill(codes[0] as string);
  await page.getByRole('button', { name: 'Use backup recovery code' }).click();
  await expect(page.getByText('The code or key is not valid. Please try again.')).toBeVisible();
  await page.getByLabel('Backup recovery code').fill(codes[1] as string);
  await page.getByRole('button', { name: 'Use backup recovery code' }).click();
  await page.waitForURL((url) => url.pathname === '/profile-settings');
});
