import { expect, test, type Page } from '@playwright/test';
import {
  AuthScreens,
  expectVerificationScreen,
  registerAccount,
  signIn,
  submitRegistration,
} from '../fixtures/auth';
import { codeIn, linkIn, mailsTo, uniqueEmail, waitForMail } from '../fixtures/identity-peer';

/** Whether the signed-in person's email address is verified, as the session says. */
async function addressVerified(page: Page): Promise<boolean | undefined> {
  const session = await page.request.get('/api/auth/session');
  expect(session.status()).toBe(200);
  const body = (await session.json()) as {
    identity: { verifiable_addresses: { value: string; verified: boolean }[] };
  };
  return body.identity.verifiable_addresses[0]?.verified;
}

test('sign up shows the verification screen; the emailed link verifies and Continue goes on signed in', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('signup');
  const returnTo = '/profile-settings';
  await submitRegistration(page, { email, returnTo });
  await expectVerificationScreen(page, returnTo);
  expect(await addressVerified(page)).toBe(false);

  const mail = await waitForMail(email, 'Verify your email address for Opsdeck');
  expect(mail.from).toBe('Opsdeck <opsdeck@e2e.test>');
  const link = linkIn(mail);
  expect(link.origin).toBe(new URL(baseURL!).origin);
  await page.goto(link.href);
  await page.waitForURL((url) => url.pathname === '/verification');
  await expect(page.getByRole('heading', { name: 'Verify your account' })).toBeVisible();
  await expect(page.getByText('Your email address has been verified.')).toBeVisible();
  await page.getByRole('link', { name: 'Continue', exact: true }).click();
  await page.waitForURL((url) => url.pathname === returnTo);
  const screens = new AuthScreens(page);
  await expect(screens.section('Profile Settings').getByLabel('Email')).toHaveValue(email);
  expect(await addressVerified(page)).toBe(true);

  // The link works once.
  await page.goto(link.href);
  await page.waitForURL((url) => url.pathname === '/verification');
  await expect(
    page.getByText('This verification link is invalid, has expired or was already used. Request a new one.'),
  ).toBeVisible();
});

test('sign up, then the emailed code typed into the verification screen verifies the address', async ({
  page,
}) => {
  const email = uniqueEmail('signup-code');
  const returnTo = '/settings/jobs?page=2';
  await submitRegistration(page, { email, returnTo });
  await expectVerificationScreen(page, returnTo);
  const mail = await waitForMail(email, 'Verify your email address for Opsdeck');
  await page.getByLabel('Verification code').fill(codeIn(mail));
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Your email address has been verified.')).toBeVisible();
  expect(await addressVerified(page)).toBe(true);
  await page.getByRole('link', { name: 'Continue', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/settings/jobs' && url.search === '?page=2');
  const whoami = await page.request.get('/api/auth/whoami');
  expect(whoami.status()).toBe(200);
  expect(((await whoami.json()) as { payload: { user: { email: string } } }).payload.user.email).toBe(email);
});

test('a forgotten password is recovered with the emailed code, and the new one signs in', async ({
  page,
}) => {
  const { email, password } = await registerAccount(page, { email: uniqueEmail('recover') });
  const screens = new AuthScreens(page);
  await screens.signOutByApi();

  await screens.openLogin('/profile-settings');
  await page.getByRole('link', { name: 'Reset password' }).click();
  await expect(page.getByRole('heading', { name: 'Recover account' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(
    page.getByText(
      'If an account uses this email address, a recovery code has been sent to it. Enter the code below.',
    ),
  ).toBeVisible();

  const mail = await waitForMail(email, 'Recover access to your Opsdeck account');
  await page.getByLabel('Recovery code').fill(codeIn(mail));
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/profile-settings');
  await expect(page.getByText('You have recovered your account. Choose a new password now.')).toBeVisible();

  const newPassword = 'a-brand-new-e2e-password';
  const change = screens.section('Change Password');
  await change.getByLabel('New password').fill(newPassword);
  await change.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your changes have been saved.')).toBeVisible();
  await screens.signOutByApi();

  // The old password is gone; the new one signs in.
  await screens.openLogin('/profile-settings');
  await screens.submitPassword(email, password);
  await expect(page.getByText('The email address or password is incorrect.')).toBeVisible();
  await signIn(page, email, newPassword, '/profile-settings');
  await page.waitForURL((url) => url.pathname === '/profile-settings');
  await expect(screens.section('Profile Settings').getByLabel('Email')).toHaveValue(email);
});

test('recovery for an unknown address says the same and sends nothing', async ({ page }) => {
  const email = uniqueEmail('nobody');
  await page.goto('/recovery');
  await expect(page.getByRole('heading', { name: 'Recover account' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(
    page.getByText(
      'If an account uses this email address, a recovery code has been sent to it. Enter the code below.',
    ),
  ).toBeVisible();
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await page.waitForTimeout(500);
  expect(await mailsTo(email)).toEqual([]);
});
