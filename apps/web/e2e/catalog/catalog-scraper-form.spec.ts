import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession } from '../shell/api';
import { FIRST_LOAD, deleteScraper, scraperId } from './catalog-api';

test('create a file scraper with the Form tab, kept in sync with the Code tab, and run it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-form-'));
  await writeFile(path.join(dir, 'a.json'), JSON.stringify({ key: 'form-a', label: 'Form A' }));
  await writeFile(path.join(dir, 'b.json'), JSON.stringify({ key: 'form-b', label: 'Form B' }));
  const name = `e2e-form-${Date.now()}`;
  try {
    await signIn(page, ADMIN.email, ADMIN.password, '/catalog/scrapers/new');
    const picker = page.getByRole('group', { name: 'Spec type' });
    for (const label of ['Kubernetes', 'SQL', 'HTTP', 'Exec', 'Custom'])
      await expect(picker.getByRole('button', { name: label, exact: true })).toBeVisible();
    // A code-only type, then Back to the picker.
    await picker.getByRole('button', { name: 'Kubernetes', exact: true }).click();
    await expect(page.getByRole('tablist', { name: 'Spec editor' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Spec' })).toContainText('kubernetes:');
    await page.getByRole('button', { name: '← Back' }).click();
    await picker.getByRole('button', { name: 'File', exact: true }).click();

    const tabs = page.getByRole('tablist', { name: 'Spec editor' });
    await expect(tabs.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');
    const form = page.getByRole('form', { name: 'File scraper' });
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await chooseOption(form, 'Schedule', '@hourly');
    await form.getByLabel('Config type').fill('E2E::Form');
    await form.getByLabel('Class').fill('E2E');
    await form.getByLabel('ID (JSONPath)').fill('$.key');
    await form.getByLabel('Name (JSONPath)').fill('$.label');
    await form.getByLabel('Paths (one per line, globs allowed)').fill(path.join(dir, '*.json'));
    await chooseOption(form, 'Format', 'json');

    // The Code tab shows what the form wrote; an edit there shows up in the form.
    await tabs.getByRole('tab', { name: 'Code' }).click();
    const code = page.getByRole('textbox', { name: 'Spec' });
    await expect(code).toContainText('schedule: "@hourly"');
    await expect(code).toContainText('type: E2E::Form');
    await expect(code).toContainText('id: $.key');
    await expect(code).toContainText(`- ${path.join(dir, '*.json')}`);
    await expect(code).toContainText('format: json');
    await code.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('    status: $.key\n');
    await expect(code).toContainText('status: $.key');
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('End');
    await page.keyboard.insertText(' # every hour');
    await tabs.getByRole('tab', { name: 'Form' }).click();
    await expect(form.getByLabel('Name (JSONPath)')).toHaveValue('$.label');
    await form.getByLabel('Class').fill('E2E-Form');
    await tabs.getByRole('tab', { name: 'Code' }).click();
    await expect(code).toContainText('# every hour');
    await expect(code).toContainText('class: E2E-Form');
    await expect(code).toContainText('status: $.key');

    // Unparsable YAML (a duplicate key): the form says so instead of overwriting it.
    await code.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('schedule: again\n');
    await tabs.getByRole('tab', { name: 'Form' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('The YAML does not parse');
    await tabs.getByRole('tab', { name: 'Code' }).click();
    await code.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Backspace');
    await tabs.getByRole('tab', { name: 'Form' }).click();
    await expect(form.getByLabel('Class')).toHaveValue('E2E-Form');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
    await expect(page).toHaveURL(/\/catalog\/scrapers\/[0-9a-f-]{36}$/);
    // Reopened, the saved file scraper opens on its Form tab with the saved values.
    await page.reload();
    await expect(
      page.getByRole('tablist', { name: 'Spec editor' }).getByRole('tab', { name: 'Form' }),
    ).toHaveAttribute('aria-selected', 'true');
    await expect(selectMenu(form, 'Schedule')).toHaveText('@hourly');
    await expect(form.getByLabel('Config type')).toHaveValue('E2E::Form');
    await page.getByRole('button', { name: 'Run Now' }).click();
    await expect(page).toHaveURL(/tab=job-history/);
    await expect(page.getByRole('table', { name: 'Job History' }).locator('tbody tr').first()).toContainText(
      'SUCCESS',
    );
    await page.goto('/catalog?type=E2E%3A%3AForm');
    const items = page.getByRole('table', { name: 'Config items' });
    await expect(items.locator('tbody tr td:first-child')).toHaveText(['Form A', 'Form B'], FIRST_LOAD);
  } finally {
    const api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
    const response = await api.get(`/api/db/config_scrapers?select=id&name=eq.${name}&deleted_at=is.null`);
    if (((await response.json()) as unknown[]).length > 0)
      await deleteScraper(api, await scraperId(api, name));
    await api.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});
