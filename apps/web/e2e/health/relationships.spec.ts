import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { configIds, createFileScraper, deleteScraper, runScraper } from '../catalog/catalog-api';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';
import { apiSession } from '../shell/api';

interface SummaryCheck {
  id: string;
  name: string;
}

/** A demo check as the health API lists it; the demo canaries are synced when the server starts. */
async function demoCheck(api: APIRequestContext, name: string): Promise<SummaryCheck> {
  let found: SummaryCheck | undefined;
  await expect(async () => {
    const response = await api.get('/api/canary/api/summary?start=1h');
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as { checks_summary: SummaryCheck[] };
    found = body.checks_summary.find((check) => check.name === name);
    expect(found, `check ${name}`).toBeTruthy();
  }).toPass({ timeout: 60_000 });
  return found!;
}

test('the Relationships tab counts the linked config item and opens it in the catalog', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const check = await demoCheck(admin, 'closed-port');
  const suffix = Date.now();
  // Before any link: the badge counts none and the tab says so.
  await signIn(page, ADMIN.email, ADMIN.password, `/health?checkId=${check.id}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible({ timeout: 20_000 });
  const tab = dialog.getByRole('tab', { name: /Relationships/ });
  await expect(tab.getByLabel('0 related')).toHaveText('0');
  await tab.click();
  await expect(dialog.getByRole('tabpanel').getByText('No data available')).toBeVisible();

  // Config items come from scrapers (the data API does not insert them): one JSON file, scraped now.
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-relationships-'));
  const itemName = `e2e-linked-db-${suffix}`;
  await writeFile(path.join(dir, 'item.json'), JSON.stringify({ name: itemName }));
  const scraper = await createFileScraper(
    admin,
    `e2e-relationships-${suffix}`,
    'E2E::Database',
    path.join(dir, '*.json'),
  );
  await runScraper(admin, scraper);
  await deleteScraper(admin, scraper);
  await rm(dir, { recursive: true, force: true });
  const config = { id: (await configIds(admin, 'E2E::Database'))[itemName]! };
  expect(config.id, `config item ${itemName}`).toBeTruthy();
  // No API writes check links (the data API only reads them): SQL, as the health engine would.
  await sql(
    `INSERT INTO check_config_relationships (config_id, check_id, canary_id)
     SELECT $1, id, canary_id FROM checks WHERE id = $2`,
    [config.id, check.id],
  );
  await admin.dispose();

  await page.reload();
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible({ timeout: 20_000 });
  await expect(tab.getByLabel('1 related')).toHaveText('1');
  await tab.click();

  const related = dialog.getByRole('table', { name: 'Relationships' });
  const configRow = related.getByRole('row').filter({ hasText: `e2e-linked-db-${suffix}` });
  await expect(configRow.getByRole('cell').nth(1)).toHaveText('E2E::Database');
  await expect(configRow.getByRole('cell').nth(2)).toHaveText('Config');
  await related.getByRole('link', { name: `e2e-linked-db-${suffix}` }).click();
  await expect(page).toHaveURL(new RegExp(`/catalog/${config.id}$`));
  await expect(page.getByRole('heading', { name: `e2e-linked-db-${suffix}`, level: 2 })).toBeVisible();
});
