import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession } from '../shell/api';
import { FIRST_LOAD, configIds, runScraper, scraperId } from './catalog-api';

test('select spec lines by number, shift-click a range, keep it in the URL and copy the link', async ({
  page,
  context,
  baseURL,
}) => {
  const api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await runScraper(api, await scraperId(api, 'opsdeck-repository'));
  const id = (await configIds(api, 'Npm::Package'))['@opsdeck/contracts']!;
  await api.dispose();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  await signIn(page, ADMIN.email, ADMIN.password, `/catalog/${id}`);
  const spec = page.getByRole('region', { name: 'Spec' });
  const listing = spec.getByRole('table', { name: 'Config' });
  const selectedRows = listing.locator('tr[aria-selected="true"]');
  await expect(listing.locator('tr[data-line="1"]')).toBeVisible(FIRST_LOAD);
  await expect(selectedRows).toHaveCount(0);

  await listing.getByRole('button', { name: 'Line 2', exact: true }).click();
  await expect(page).toHaveURL(/[?&]lines=2$/);
  await expect(spec.getByText('Line 2 selected')).toBeVisible();
  await listing.getByRole('button', { name: 'Line 4', exact: true }).click({ modifiers: ['Shift'] });
  await expect(page).toHaveURL(/[?&]lines=2-4$/);
  await expect(selectedRows).toHaveCount(3);
  await expect(selectedRows.first()).toHaveAttribute('data-line', '2');
  await expect(selectedRows.last()).toHaveAttribute('data-line', '4');

  // A reload (or the copied link) opens the same lines highlighted.
  await page.reload();
  await expect(selectedRows).toHaveCount(3, FIRST_LOAD);
  await expect(listing.getByRole('button', { name: 'Line 3', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await spec.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());
  expect(new URL(copied).searchParams.get('lines')).toBe('2-4');

  // Shift-click above the first line extends backwards from it; JSON starts without a selection.
  await listing.getByRole('button', { name: 'Line 1', exact: true }).click({ modifiers: ['Shift'] });
  await expect(page).toHaveURL(/[?&]lines=1-2$/);
  await spec.getByRole('button', { name: 'JSON' }).click();
  await expect(page).toHaveURL(/format=json/);
  await expect(page).not.toHaveURL(/lines=/);
  await expect(selectedRows).toHaveCount(0);
  await expect(spec).toContainText('"name": "@opsdeck/contracts"');
  await listing.getByRole('button', { name: 'Line 3', exact: true }).click();
  await page.goto(page.url());
  await expect(spec.getByRole('button', { name: 'JSON' })).toHaveAttribute(
    'aria-pressed',
    'true',
    FIRST_LOAD,
  );
  await expect(selectedRows).toHaveCount(1);
  await spec.getByRole('button', { name: 'Clear selection' }).click();
  await expect(selectedRows).toHaveCount(0);
  await expect(page).not.toHaveURL(/lines=/);
});
