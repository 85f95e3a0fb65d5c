import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';

test('the app opens on the topology dashboard', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/topology(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Topology', level: 1 })).toBeVisible();
});

test('a deep link without a session goes to the login screen and back', async ({ page }) => {
  const response = await page.goto('/settings/feature-flags?pageSize=10');
  expect(response?.status()).toBe(200);
  await page.waitForURL((url) => url.pathname === '/login');
  expect(new URL(page.url()).searchParams.get('return_to')).toBe('/settings/feature-flags?pageSize=10');
});
