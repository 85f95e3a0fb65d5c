import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession } from '../shell/api';
import {
  FIRST_LOAD,
  configIds,
  createFileScraper,
  deleteScraper,
  runScraper,
  scraperId,
} from './catalog-api';

let api: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await runScraper(api, await scraperId(api, 'opsdeck-repository'));
});

test.afterAll(async () => {
  await api.dispose();
});

test('summary → type list → filter → item → spec → changes → back', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/catalog');
  const summary = page.getByRole('table', { name: 'Catalog summary' });
  await expect(summary).toBeVisible(FIRST_LOAD);
  const packageRow = summary.getByRole('row').filter({ hasText: 'Npm Package' });
  // Root, server, web and contracts package.json files.
  await expect(packageRow.getByTestId('summary-count')).toHaveText('4');
  await expect(summary.getByRole('row').filter({ hasText: 'Opsdeck DemoResource' })).toBeVisible();

  await packageRow.getByRole('button', { name: 'Npm Package' }).click();
  await expect(page).toHaveURL(/\/catalog\?type=Npm%3A%3APackage$/);
  const items = page.getByRole('table', { name: 'Config items' });
  await expect(items.locator('tbody tr')).toHaveCount(4);
  await expect(items.getByRole('link', { name: '@opsdeck/web' })).toBeVisible();

  // The search narrows the list and lives in the URL.
  await page.getByRole('searchbox', { name: 'Search configs' }).fill('contracts');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/search=contracts/);
  await expect(items.locator('tbody tr')).toHaveCount(1);
  await expect(items.getByRole('link', { name: '@opsdeck/contracts' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search configs' }).fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(items.locator('tbody tr')).toHaveCount(4);

  // Sorting by name descending is kept in the URL.
  await items.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
  await expect(page).toHaveURL(/sortBy=name/);

  await items.getByRole('link', { name: '@opsdeck/web' }).click();
  await expect(page).toHaveURL(/\/catalog\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: '@opsdeck/web', level: 2 })).toBeVisible();
  await expect(page.getByTestId('config-type')).toHaveText('Npm::Package');
  const subPages = page.getByRole('navigation', { name: 'Config details' });
  await expect(subPages.getByRole('link', { name: 'Spec' })).toHaveAttribute('aria-current', 'page');
  const spec = page.getByRole('region', { name: 'Spec' });
  await expect(spec).toContainText('name: "@opsdeck/web"');
  await spec.getByRole('button', { name: 'JSON' }).click();
  await expect(spec).toContainText('"name": "@opsdeck/web"');

  await subPages.getByRole('link', { name: 'Changes' }).click();
  await expect(page).toHaveURL(/\/catalog\/[0-9a-f-]{36}\/changes$/);
  await expect(page.getByRole('region', { name: 'Changes' })).toContainText('No data available');

  await subPages.getByRole('link', { name: 'Insights' }).click();
  await expect(page).toHaveURL(/\/insights$/);
  await expect(page.getByRole('region', { name: 'Insights' })).toContainText('No data available');

  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: 'Npm::Package' })
    .click();
  await expect(page.getByRole('table', { name: 'Config items' }).locator('tbody tr')).toHaveCount(4);
  await page.getByRole('button', { name: '← All types' }).click();
  await expect(page.getByRole('table', { name: 'Catalog summary' })).toBeVisible();
});

test('health, status and tag filters include and exclude through the tri-state lists', async ({ page }) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-catalog-'));
  const items = [
    { name: 'alpha', health: 'healthy', status: 'Running', env: 'prod' },
    { name: 'bravo', health: 'unhealthy', status: 'Failed', env: 'dev' },
    { name: 'charlie', health: 'healthy', status: 'Stopped', env: 'dev' },
  ];
  for (const item of items) await writeFile(path.join(dir, `${item.name}.json`), JSON.stringify(item));
  const id = await createFileScraper(
    api,
    `e2e-filters-${Date.now()}`,
    'E2E::Filtered',
    path.join(dir, '*.json'),
    {
      health: '$.health',
      status: '$.status',
      tags: [{ name: 'env', jsonpath: '$.env' }],
      transform: {
        relationship: [{ filter: "name == 'alpha'", type: 'E2E::Filtered', name: 'bravo', relation: 'hard' }],
      },
    },
  );
  try {
    await runScraper(api, id);
    await signIn(page, ADMIN.email, ADMIN.password, '/catalog?type=E2E%3A%3AFiltered');
    const table = page.getByRole('table', { name: 'Config items' });
    const names = table.locator('tbody tr td:first-child');
    await expect(names).toHaveText(['alpha', 'bravo', 'charlie'], FIRST_LOAD);
    const filters = page.getByRole('complementary', { name: 'Filters' });

    await filters
      .getByRole('region', { name: 'Health' })
      .getByRole('button', { name: 'Include healthy' })
      .click();
    await expect(page).toHaveURL(/health\.filter=healthy%3A1/);
    await expect(names).toHaveText(['alpha', 'charlie']);

    await filters
      .getByRole('region', { name: 'Status' })
      .getByRole('button', { name: 'Exclude Stopped' })
      .click();
    await expect(names).toHaveText(['alpha']);

    await filters.getByRole('region', { name: 'Health' }).getByRole('button', { name: 'Clear' }).click();
    await filters.getByRole('region', { name: 'Status' }).getByRole('button', { name: 'Clear' }).click();
    await expect(names).toHaveText(['alpha', 'bravo', 'charlie']);

    await filters
      .getByRole('region', { name: 'Tags' })
      .getByRole('button', { name: 'Exclude env=prod' })
      .click();
    await expect(names).toHaveText(['bravo', 'charlie']);
    // The filter survives a reload because it lives in the URL.
    await page.reload();
    await expect(names).toHaveText(['bravo', 'charlie'], FIRST_LOAD);

    // Relationships (from the scraper's rule): alpha → bravo, outgoing on alpha, incoming on bravo.
    const ids = await configIds(api, 'E2E::Filtered');
    await page.goto(`/catalog/${ids.alpha}/relationships`);
    const graph = page.getByRole('figure', { name: 'Relationship graph' });
    await expect(graph.getByRole('link', { name: /bravo/ })).toBeVisible(FIRST_LOAD);
    await expect(graph.getByRole('link', { name: /alpha/ })).toHaveAttribute('aria-current', 'page');
    // bravo is one hop to the right of alpha.
    await expect(graph.getByRole('link', { name: /bravo/ })).toHaveAttribute('data-layer', '1');
    await expect(graph.locator('path[data-edge]')).toHaveCount(1);

    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' }).click();
    await expect(page).toHaveURL(/view=table/);
    const outgoing = page
      .getByRole('table', { name: 'Related configs' })
      .getByRole('row')
      .filter({ hasText: 'bravo' });
    await expect(outgoing).toContainText('Outgoing');
    // Incoming only: nothing points to alpha.
    await chooseOption(page, 'Direction', 'Incoming');
    await expect(page).toHaveURL(/direction=incoming/);
    await expect(page.getByRole('region', { name: 'Relationships' })).toContainText('No data available');
    await chooseOption(page, 'Direction', 'All');
    await outgoing.getByRole('link', { name: 'bravo' }).click();
    await expect(page).toHaveURL(new RegExp(`/catalog/${ids.bravo}$`));
    await expect(page.getByRole('heading', { name: 'bravo', level: 2 })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Config details' })
      .getByRole('link', { name: 'Relationships' })
      .click();
    await expect(
      page.getByRole('figure', { name: 'Relationship graph' }).getByRole('link', { name: /alpha/ }),
    ).toHaveAttribute('data-layer', '-1');
  } finally {
    await deleteScraper(api, id);
    await rm(dir, { recursive: true, force: true });
  }
});

test('a changed file shows its change with the diff', async ({ page }) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-catalog-'));
  const file = path.join(dir, 'item.json');
  const name = `e2e-item-${Date.now()}`;
  await writeFile(file, JSON.stringify({ name, replicas: 1 }));
  const id = await createFileScraper(api, `e2e-catalog-${Date.now()}`, 'E2E::Item', file);
  try {
    await runScraper(api, id);
    await writeFile(file, JSON.stringify({ name, replicas: 3 }));
    await runScraper(api, id);

    await signIn(page, ADMIN.email, ADMIN.password, '/catalog?type=E2E%3A%3AItem');
    await page.getByRole('table', { name: 'Config items' }).getByRole('link', { name }).click();
    await page
      .getByRole('navigation', { name: 'Config details' })
      .getByRole('link', { name: 'Changes' })
      .click();
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect(changes.locator('tbody tr')).toHaveCount(1);
    await changes.locator('tbody tr').first().click();
    await expect(page).toHaveURL(/changeId=/);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Diff')).toContainText('replicas');
    await expect(dialog.getByLabel('Diff')).toContainText('+');
    await expect(dialog.getByRole('region', { name: 'Patches' })).toContainText('/replicas');
  } finally {
    await deleteScraper(api, id);
    await rm(dir, { recursive: true, force: true });
  }
});
