import { expect, test, type APIRequestContext } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer } from '../shell/api';
import { FIRST_LOAD, configIds, runScraper, scraperId } from './catalog-api';

let api: APIRequestContext;
let contractsId: string;

test.beforeAll(async ({ baseURL }) => {
  api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await runScraper(api, await scraperId(api, 'opsdeck-repository'));
  contractsId = (await configIds(api, 'Npm::Package'))['@opsdeck/contracts']!;
});

test.afterAll(async () => {
  await api.dispose();
});

test('attach a config item to a new incident and see it as evidence there', async ({ page }) => {
  const title = `Contracts drift ${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, `/catalog/${contractsId}`);
  await expect(page.getByRole('heading', { name: '@opsdeck/contracts', level: 2 })).toBeVisible(FIRST_LOAD);
  await page.getByRole('button', { name: 'Attach as Evidence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link to incident' });
  await expect(dialog).toContainText('@opsdeck/contracts');
  await chooseOption(dialog, 'Incident', 'Create new incident');
  await dialog.getByLabel('New incident title').fill(title);
  await chooseOption(dialog, 'Severity', 'High');
  await dialog.getByLabel('Description').fill('The contracts package changed');
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Linked to incident successfully').first()).toBeVisible();

  await page.getByRole('link', { name: 'View incident' }).first().click();
  await expect(page).toHaveURL(/\/incidents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const evidence = page.getByRole('list', { name: 'Evidence' });
  const link = evidence.getByRole('link', { name: 'The contracts package changed' });
  await expect(link).toHaveAttribute('href', `/catalog/${contractsId}`);
  await link.click();
  await expect(page.getByRole('heading', { name: '@opsdeck/contracts', level: 2 })).toBeVisible();
});

test('a viewer sees no Attach as Evidence on a config item', async ({ page, baseURL }) => {
  const viewer = {
    email: `catalog-viewer-${Date.now()}@example.com`,
    password: 'viewer-password-123',
    first: 'Cat',
    last: 'Viewer',
  };
  await createViewer(baseURL!, api, viewer);
  await signIn(page, viewer.email, viewer.password, `/catalog/${contractsId}`);
  await expect(page.getByRole('heading', { name: '@opsdeck/contracts', level: 2 })).toBeVisible(FIRST_LOAD);
  await expect(page.getByTestId('config-type')).toHaveText('Npm::Package');
  await expect(page.getByRole('button', { name: 'Attach as Evidence' })).toHaveCount(0);
});
