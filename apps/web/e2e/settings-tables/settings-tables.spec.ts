import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

test.describe.configure({ timeout: 90_000 });

/**
 * Spec core §2: the generic /settings/{table} list and /settings/{table}/{id} editor, on a
 * settings table without a page of its own (logging_backends: its own page is /settings/log-backends).
 */
test('a generic settings resource is listed, edited with Save showing the toast, and Cancel returns', async ({
  page,
}) => {
  const name = `generic-${Date.now().toString(36)}`;
  await sql(
    `INSERT INTO logging_backends (name, namespace, labels, spec, created_at)
     VALUES ($1, 'default', '{"team":"ops"}', '{"file":{"path":"/var/log/app.log"}}', now() + interval '1 minute')`,
    [name],
  );
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/logging_backends');
  const list = page.getByRole('region', { name: 'Logging Backends' });
  await expect(list.getByRole('heading', { name: 'Logging Backends' })).toBeVisible({ timeout: 20_000 });
  // Newest first: the row made a minute ahead is the first of the table.
  await expect(list.getByRole('row').nth(1)).toContainText(name);
  await expect(list.getByRole('row').nth(1)).toContainText('ops');

  await list.getByRole('row').filter({ hasText: name }).click();
  await expect(page).toHaveURL(/\/settings\/logging_backends\/[0-9a-f-]{36}$/);
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Logging Backends' })).toBeVisible();
  await expect(breadcrumb).toContainText(name);
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();

  // Cancel goes back to the list without saving.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/settings\/logging_backends$/);

  await list.getByRole('row').filter({ hasText: name }).click();
  await page.getByLabel('Labels', { exact: true }).fill('{"team":"platform"}');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/logging_backends$/);
  await expect(list.getByRole('row').filter({ hasText: name })).toContainText('platform');

  // Labels that are not a JSON object of strings: the server names the field, nothing is saved.
  await list.getByRole('row').filter({ hasText: name }).click();
  await page.getByLabel('Labels', { exact: true }).fill('{"team":3}');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('alert', { name: 'Save failed' })).toContainText('labels.team');
});

test('a table outside the allowlist (config scrapers included) has no generic page', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/config_scrapers');
  // Spec core §2: an address that does not exist shows the not-found page inside the shell.
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('/settings/config_scrapers')).toBeVisible();
  const answer = await page.request.get('/api/settings/resources/config_scrapers');
  expect(answer.status()).toBe(404);
});
