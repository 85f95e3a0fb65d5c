import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Replaces the CodeMirror document (labelled 'Spec') with the given text. */
async function replaceCode(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Spec' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-e2e-logs-'));
  const now = Date.now();
  const line = (minutesAgo: number, level: number, msg: string, route: string) =>
    JSON.stringify({ time: now - minutesAgo * 60_000, level, msg, route });
  await writeFile(
    path.join(dir, 'shop.log'),
    [
      line(50, 30, 'order 1 placed', '/orders'),
      line(40, 50, 'payment declined for order 2', '/payments'),
      line(30, 40, 'slow checkout', '/orders'),
      line(20, 50, 'payment gateway timeout', '/payments'),
      line(10, 30, 'order 3 placed', '/orders'),
    ].join('\n') + '\n',
  );
});
test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// One backend serves the journey: added on /settings/log-backends, read on /logs with a query,
// a level filter and the histogram, updated, then deleted.
test('a file log backend is added, searched on the logs page, updated and deleted', async ({ page }) => {
  test.setTimeout(180_000);
  const name = `e2e-shop-logs-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/log-backends');
  await expect(page.getByRole('heading', { name: 'Log Backends', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Add Log Backend' }).click();
  await expect(page).toHaveURL(/\/settings\/log-backends\/new$/);
  // Settings §5: Add is disabled while the form is invalid (no name yet).
  const add = page.getByRole('button', { name: 'Add', exact: true });
  await expect(add).toBeDisabled();
  await page.getByLabel('Name').fill(name);
  // A spec that names no backend is refused by the server with the field path.
  await replaceCode(page, 'routes: []\n');
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByRole('alert', { name: 'Save failed' })).toContainText('name one backend');
  await replaceCode(page, `file:\n  path: ${path.join(dir, '*.log')}\n  format: json\n`);
  await add.click();
  await expect(page.getByText(`${name} created successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/log-backends$/);
  await expect(
    page.getByRole('table', { name: 'Log Backends' }).getByRole('link', { name, exact: true }),
  ).toBeVisible();

  // The logs page: the backend as source, a query, newest first, the histogram and a level filter.
  await page.goto('/logs');
  await chooseOption(page, 'Source', `Backend: ${name} (file)`);
  await page.getByRole('textbox', { name: 'Query' }).fill('payment');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/query=payment/);
  const lines = page.getByRole('table', { name: 'Log lines' });
  await expect(lines.getByRole('row')).toHaveCount(3);
  await expect(lines.getByRole('row').nth(1)).toContainText('payment gateway timeout');
  await expect(lines.getByRole('row').nth(2)).toContainText('payment declined for order 2');
  await expect(lines.getByRole('row').nth(1)).toContainText('error');
  await expect(lines.getByRole('row').nth(1)).toContainText('/payments');
  await expect(page.getByText('2 lines')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Log lines over time' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Query' }).fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(lines.getByRole('row')).toHaveCount(6);
  await chooseOption(page, 'Level', 'warn');
  await expect(lines.getByRole('row')).toHaveCount(2);
  await expect(lines).toContainText('slow checkout');
  await chooseOption(page, 'Level', 'All levels');
  await expect(selectMenu(page, 'Level')).toHaveText('All levels');
  await page.getByLabel('Filter').fill('order 3');
  await expect(lines.getByRole('row')).toHaveCount(2);
  await expect(page.getByText('5 lines, 1 shown')).toBeVisible();

  // Update the labels, then delete.
  await page.goto('/settings/log-backends');
  await page.getByRole('table', { name: 'Log Backends' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByLabel('Name')).toBeDisabled();
  await page.getByLabel('Labels').fill('{"team": "shop"}');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Log Backends' })
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: 'team: shop' }),
  ).toBeVisible();
  await page.getByRole('table', { name: 'Log Backends' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete ${name}?`);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`${name} deleted successfully`)).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Log Backends' }).getByRole('link', { name, exact: true }),
  ).toHaveCount(0);
});

test("the logs page offers the demo backends and reads Opsdeck's own log", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/logs');
  await expect(selectMenu(page, 'Source')).toHaveText('Select a source');
  await selectMenu(page, 'Source').click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.filter({ hasText: 'Backend: opsdeck-server (opsdeck)' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Backend: system-logs (file)' })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await chooseOption(page, 'Source', 'Backend: opsdeck-server (opsdeck)');
  await expect(page).toHaveURL(/source=backend%3Aopsdeck-server|source=backend:opsdeck-server/);
  // The server runs at LOG_LEVEL=warn here: the count shows whatever it wrote, and nothing failed.
  await expect(page.getByText(/^\d+ (newest of \d+ )?lines/)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
