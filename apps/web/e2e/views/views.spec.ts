import { expect as baseExpect, test } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

// demo/views.yaml puts 'Demo Estate' in the sidebar: checks of the demo canaries and the catalog
// items of the type its 'Catalog type' variable selects.
test('a sidebar view shows its panels and table, and a variable changes its rows', async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now();
  const packageName = `e2e-view-package-${suffix}`;
  const resourceName = `e2e-view-resource-${suffix}`;
  await sql(
    `INSERT INTO config_items (name, type, health, status) VALUES
       ($1, 'Npm::Package', 'healthy', 'installed'), ($2, 'Opsdeck::DemoResource', 'unhealthy', 'applied'),
       ($3, 'Opsdeck::DemoResource', 'healthy', 'applied')`,
    [packageName, resourceName, `${resourceName}-ok`],
  );

  await signIn(page, ADMIN.email, ADMIN.password, '/');
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Demo Estate' }).click();
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Demo Estate' })).toBeVisible();

  // Rows materialised before the items above were inserted (a rerun) are refreshed on demand.
  const table = page.getByRole('table', { name: 'Demo Estate rows' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Refresh view' }).click();
  await expect(page.getByRole('button', { name: 'Refresh view' })).toBeEnabled();
  await expect(table.getByRole('cell', { name: packageName })).toBeVisible();
  await expect(table.getByRole('cell', { name: resourceName, exact: true })).toHaveCount(0);

  const panels = page.getByRole('list', { name: 'Panels' });
  await expect(panels.getByRole('listitem', { name: 'Health' })).toBeVisible();
  await expect(panels.getByRole('listitem', { name: 'Health' }).getByRole('list')).toContainText('healthy');
  const rowsPanel = panels.getByRole('listitem', { name: 'Rows' });
  await expect(rowsPanel.getByTestId('panel-number')).toHaveText(/^[1-9]\d*$/);
  await expect(panels.getByRole('listitem', { name: 'By kind' }).getByRole('table')).toContainText(
    'catalog item',
  );

  // The variable picks the other catalog type: its own fingerprint, its own rows.
  const variables = page.getByRole('group', { name: 'Variables' });
  await chooseOption(variables, 'Catalog type', 'Opsdeck::DemoResource');
  await expect(selectMenu(variables, 'Catalog type')).toHaveText('Opsdeck::DemoResource');
  await expect(page).toHaveURL(/var\.catalog_type=Opsdeck%3A%3ADemoResource/);
  await expect(table.getByRole('cell', { name: resourceName, exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: `${resourceName}-ok` })).toBeVisible();
  await expect(table.getByRole('img', { name: 'healthy', exact: true }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: packageName })).toHaveCount(0);

  // A filterable column filters the table (POST /api/view/{id}/rows).
  await chooseOption(page.getByRole('group', { name: 'Filters' }), 'health', 'unhealthy');
  await expect(page).toHaveURL(/col\.health=unhealthy/);
  await expect(table.getByRole('cell', { name: resourceName, exact: true })).toBeVisible();
  await expect(table.getByRole('img', { name: 'healthy', exact: true })).toHaveCount(0);
  await expect(table.getByRole('cell', { name: `${resourceName}-ok` })).toHaveCount(0);

  // /view/{namespace}/{name} opens the same view.
  await page.goto('/view/demo/estate');
  await expect(page.getByRole('heading', { name: 'Demo Estate' })).toBeVisible();

  // Settings lists it and opens it in the shared editor.
  await page.goto('/settings/views');
  await page.getByRole('link', { name: 'estate', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/views\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('estate');
});
