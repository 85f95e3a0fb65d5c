import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';
import { apiSession, csrfHeader } from '../shell/api';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

test('an unknown address shows the not-found page inside the shell, with a way back', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await expect(page.getByRole('heading', { name: 'Health', level: 1 })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Health' })).toBeVisible();
  await expect(page.getByText(/Hey developer/)).toHaveCount(0);

  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/health/);
  await page.goto('/settings/nothing-here');
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/topology/);
});

test('the bell in the top bar leads to the notifications page', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await page
    .getByRole('banner')
    .getByRole('link', { name: /notifications/i })
    .click();
  await expect(page).toHaveURL(/\/notifications(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
});

test("a request made offline shows 'No internet connection. Please try again.' at once", async ({
  page,
  context,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/incidents');
  await expect(page.getByRole('heading', { name: 'Incidents', level: 1 })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('No internet connection. Please try again.')).toBeVisible({ timeout: 5_000 });
  // The request failed rather than waiting for the network to come back.
  await expect(page.getByRole('button', { name: 'Refresh' })).toHaveAttribute('aria-busy', 'false');
  await context.setOffline(false);
});

test('the resource selector links a config found by POST /resources/search as evidence', async ({
  page,
  baseURL,
}) => {
  const prefix = `selector-${Date.now()}`;
  // 25 configs: past 20 options the list is windowed, and only some rows are in the DOM.
  await sql(
    `INSERT INTO config_items (name, type, config_class, health)
     SELECT $1 || '-' || lpad(n::text, 2, '0'), 'Kubernetes::Pod', 'Pod', 'healthy' FROM generate_series(1, 25) AS n`,
    [prefix],
  );
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const headers = { ...(await csrfHeader(admin)), Prefer: 'return=representation' };
  const created = await admin.post('/api/db/incidents', {
    headers,
    data: { title: `Selector ${prefix}`, severity: 'low', type: 'cost', description: '' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [incident] = (await created.json()) as { id: string }[];
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents/${incident!.id}`);
  await page.getByLabel('New root hypothesis').fill('Bad rollout');
  await page.getByRole('button', { name: 'Add root hypothesis' }).click();
  await expect(page.getByRole('listitem', { name: 'root hypothesis Bad rollout' })).toBeVisible();

  await page.getByRole('radio', { name: 'Config' }).click();
  const selector = page.getByRole('combobox', { name: 'Link a config' });
  await expect(page.getByText('Start typing to search')).toBeVisible();
  await expect(page.getByText('name=..., type=... or health=healthy,unhealthy')).toBeVisible();

  await selector.fill(`${prefix}-none-like-this`);
  await expect(page.getByText('No options found')).toBeVisible();

  await selector.fill(`${prefix} health=healthy`);
  const options = page.getByRole('option', { name: new RegExp(prefix) });
  await expect(options.first()).toContainText(`${prefix}-01`);
  // Windowed: fewer rows rendered than the 25 found.
  expect(await options.count()).toBeLessThan(25);

  await selector.fill(`${prefix}-07`);
  await page.getByRole('option', { name: `${prefix}-07` }).click();
  const evidence = page.getByRole('list', { name: 'Evidence' });
  await expect(evidence.getByRole('link', { name: `${prefix}-07` })).toHaveAttribute('href', /^\/catalog\//);
});

for (const width of [800, 1440]) {
  test(`the health table is readable at ${width} px with the filters open`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, ADMIN.email, ADMIN.password, '/health?hidePassing=false');
    const table = page.getByRole('table').first();
    await expect(table).toBeVisible();
    const filters = page.getByRole('button', { name: /^Filters/ });
    if (await filters.isVisible()) {
      if ((await filters.getAttribute('aria-expanded')) === 'false') await filters.click();
    }
    const headers = table.locator('thead th');
    const boxes = [];
    for (let index = 0; index < (await headers.count()); index += 1) {
      const box = await headers.nth(index).boundingBox();
      const text = (await headers.nth(index).innerText()).trim();
      // The labelled headers; the textless expand column's box is not part of what a reader sees.
      if (box && box.width > 0 && text !== '') boxes.push({ text, ...box });
    }
    const checks = boxes.find((box) => /^checks/i.test(box.text));
    expect(checks?.width ?? 0).toBeGreaterThan(160);
    // No header overlaps the next one.
    for (let index = 1; index < boxes.length; index += 1) {
      expect(boxes[index]!.x + 0.5).toBeGreaterThanOrEqual(boxes[index - 1]!.x + boxes[index - 1]!.width);
    }
    await page.screenshot({ path: testInfo.outputPath(`health-${width}.png`), fullPage: true });
    await testInfo.attach(`health-${width}`, { path: testInfo.outputPath(`health-${width}.png`) });
  });
}
