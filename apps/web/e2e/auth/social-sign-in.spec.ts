import { expect, test } from '@playwright/test';
import { AuthScreens } from '../fixtures/auth';
import { addProviderAccount, OIDC_PROVIDER, uniqueEmail } from '../fixtures/identity-peer';

test('social sign-in through the OpenID Connect provider creates the account, then finds it again', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('sso');
  await addProviderAccount({
    sub: `e2e-${Date.now()}`,
    email,
    email_verified: true,
    name: 'Sam Single',
  });
  const screens = new AuthScreens(page);
  await screens.openLogin('/profile-settings');
  await page.getByRole('button', { name: `Sign in with ${OIDC_PROVIDER.name}` }).click();

  // At the provider: its own sign-in page, then consent.
  await page.waitForURL((url) => url.origin === OIDC_PROVIDER.issuer);
  await expect(page.getByRole('heading', { name: `Sign in to ${OIDC_PROVIDER.name}` })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Allow access' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();

  // Back at Opsdeck, signed in as a new person with the provider's name and address.
  await page.waitForURL(
    (url) => url.origin === new URL(baseURL!).origin && url.pathname === '/profile-settings',
  );
  const profile = screens.section('Profile Settings');
  await expect(profile.getByLabel('Email')).toHaveValue(email);
  await expect(profile.getByLabel('First name')).toHaveValue('Sam');
  await expect(profile.getByLabel('Last name')).toHaveValue('Single');
  await expect(
    screens.section('Manage Social Sign In').getByRole('button', { name: `Unlink ${OIDC_PROVIDER.name}` }),
  ).toBeVisible();
  const whoami = await page.request.get('/api/auth/whoami');
  expect(whoami.status()).toBe(200);
  const me = (await whoami.json()) as { payload: { user: { id: string; email: string } } };
  expect(me.payload.user.email).toBe(email);

  // Signed out here but still signed in at the provider: the button signs the same person in again.
  await screens.signOutByApi();
  await screens.openLogin('/profile-settings');
  await page.getByRole('button', { name: `Sign in with ${OIDC_PROVIDER.name}` }).click();
  await page.waitForURL(
    (url) => url.origin === new URL(baseURL!).origin && url.pathname === '/profile-settings',
  );
  const again = (await (await page.request.get('/api/auth/whoami')).json()) as typeof me;
  expect(again.payload.user.id).toBe(me.payload.user.id);
});
