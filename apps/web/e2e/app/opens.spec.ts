import { expect, test } from '@playwright/test';

test('the app opens and shows the running backend', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Opsdeck' })).toBeVisible();
  await expect(page.getByText('Backend version')).toBeVisible();
  await expect(page.getByText(/^1[5-9]\.\d+/)).toBeVisible();
});

test('a client-side route deep-links to the app', async ({ page }) => {
  const response = await page.goto('/health?timeRange=1h');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Opsdeck' })).toBeVisible();
});
