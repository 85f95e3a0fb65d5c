import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession } from '../shell/api';
import { FIRST_LOAD, createFileScraper, deleteScraper, runScraper } from './catalog-api';

const TYPE = 'E2E::Journey';
let api: APIRequestContext;
let dir: string;
let scraper: string;

// Two services: svc-a points to svc-b; svc-a changes once and reports an insight.
test.beforeAll(async ({ baseURL }) => {
  api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-journey-'));
  await writeFile(
    path.join(dir, 'svc-a.json'),
    JSON.stringify({ name: 'svc-a', health: 'healthy', replicas: 1 }),
  );
  await writeFile(
    path.join(dir, 'svc-b.json'),
    JSON.stringify({ name: 'svc-b', health: 'unhealthy', replicas: 2 }),
  );
  scraper = await createFileScraper(api, `e2e-journey-${Date.now()}`, TYPE, path.join(dir, '*.json'), {
    health: '$.health',
    transform: {
      script: {
        expr: "{'config': config, 'analysis': config.name == 'svc-a' ? [{'analyzer': 'disk-check', 'analysis_type': 'availability', 'severity': 'high', 'summary': 'disk almost full'}] : []}",
      },
      relationship: [{ filter: "name == 'svc-a'", type: TYPE, name: 'svc-b' }],
    },
  });
  await runScraper(api, scraper);
  await writeFile(
    path.join(dir, 'svc-a.json'),
    JSON.stringify({ name: 'svc-a', health: 'healthy', replicas: 3 }),
  );
  await runScraper(api, scraper);
});

test.afterAll(async () => {
  await deleteScraper(api, scraper);
  await api.dispose();
  await rm(dir, { recursive: true, force: true });
});

test('summary → type list → filter → item → changes diff → relationships graph → back', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/catalog');
  const summary = page.getByRole('table', { name: 'Catalog summary' });
  await summary.getByRole('button', { name: 'E2E Journey' }).click();
  const items = page.getByRole('table', { name: 'Config items' });
  await expect(items.locator('tbody tr td:first-child')).toHaveText(['svc-a', 'svc-b']);

  await page
    .getByRole('complementary', { name: 'Filters' })
    .getByRole('region', { name: 'Health' })
    .getByRole('button', { name: 'Include healthy' })
    .click();
  await expect(items.locator('tbody tr td:first-child')).toHaveText(['svc-a']);
  await items.getByRole('link', { name: 'svc-a' }).click();
  // The detail page's code loads on first visit, slow on a busy machine.
  await expect(page.getByRole('heading', { name: 'svc-a', level: 2 })).toBeVisible({ timeout: 20_000 });

  const subPages = page.getByRole('navigation', { name: 'Config details' });
  await subPages.getByRole('link', { name: 'Changes' }).click();
  await expect(page).toHaveURL(/\/catalog\/[0-9a-f-]{36}\/changes$/);
  const changes = page.getByRole('table', { name: 'Changes' });
  await expect(changes.locator('tbody tr')).toHaveCount(1);
  await expect(changes.locator('tbody tr')).toContainText('diff');
  await changes.locator('tbody tr').first().click();
  const dialog = page.getByRole('dialog');
  const diff = dialog.getByLabel('Diff');
  await expect(diff).toContainText('replicas');
  await expect(diff.locator('span.text-red-800')).toContainText(['1']);
  await expect(diff.locator('span.text-green-800')).toContainText(['3']);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await subPages.getByRole('link', { name: 'Relationships' }).click();
  await expect(page).toHaveURL(/\/relationships$/);
  const graph = page.getByRole('figure', { name: 'Relationship graph' });
  await expect(graph.getByRole('link', { name: /svc-b/ })).toHaveAttribute('data-layer', '1');
  await chooseOption(page, 'Depth', '1');
  await expect(page).toHaveURL(/depth=1/);
  await expect(graph.getByRole('link', { name: /svc-b/ })).toBeVisible();

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/\/changes$/);
  await expect(page.getByRole('table', { name: 'Changes' }).locator('tbody tr')).toHaveCount(1, FIRST_LOAD);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: TYPE }).click();
  await expect(page.getByRole('table', { name: 'Config items' }).locator('tbody tr')).toHaveCount(2);
});

test('the global change feed filters by type, config type and time range', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/catalog/changes');
  const changes = page.getByRole('table', { name: 'Changes' });
  const filters = page.getByRole('complementary', { name: 'Change filters' });
  await filters
    .getByRole('region', { name: 'Config Type' })
    .getByRole('button', { name: `Include ${TYPE}` })
    .click();
  await expect(page).toHaveURL(/configType\.filter=/);
  await expect(changes.locator('tbody tr')).toHaveCount(1);
  await expect(changes.locator('tbody tr')).toContainText('svc-a');

  await filters
    .getByRole('region', { name: 'Change Type' })
    .getByRole('button', { name: 'Exclude diff' })
    .click();
  await expect(changes).toContainText('No data available');
  await filters.getByRole('region', { name: 'Change Type' }).getByRole('button', { name: 'Clear' }).click();
  await expect(changes.locator('tbody tr')).toHaveCount(1);

  // A range in the past finds nothing; the last hour finds the change.
  const url = new URL(page.url());
  url.searchParams.set('rangeType', 'absolute');
  url.searchParams.set('from', '2020-01-01T00:00:00.000Z');
  url.searchParams.set('to', '2020-01-02T00:00:00.000Z');
  await page.goto(url.toString());
  await expect(page.getByRole('table', { name: 'Changes' })).toContainText('No data available', FIRST_LOAD);
  url.searchParams.set('rangeType', 'relative');
  url.searchParams.set('range', '1h');
  url.searchParams.delete('from');
  url.searchParams.delete('to');
  await page.goto(url.toString());
  await expect(page.getByRole('table', { name: 'Changes' }).locator('tbody tr')).toHaveCount(1, FIRST_LOAD);
});

test('insights list the findings a transform reported, with filters', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/catalog/insights');
  const insights = page.getByRole('table', { name: 'Insights' });
  // A retried beforeAll scrapes the same files again under a new scraper: take the first finding.
  const row = insights.getByRole('row').filter({ hasText: 'disk almost full' }).first();
  await expect(row).toContainText('disk-check', FIRST_LOAD);
  await expect(row).toContainText('high');
  const filters = page.getByRole('complementary', { name: 'Insight filters' });
  await filters
    .getByRole('region', { name: 'Severity' })
    .getByRole('button', { name: 'Exclude high' })
    .click();
  await expect(insights.getByRole('row').filter({ hasText: 'disk almost full' })).toHaveCount(0);
  await filters.getByRole('region', { name: 'Severity' }).getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('searchbox', { name: 'Search insights' }).fill('almost');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(insights.locator('tbody tr').first()).toContainText('disk almost full');
  await insights.getByRole('link', { name: 'svc-a' }).first().click();
  await expect(page).toHaveURL(/\/insights$/);
  await expect(page.getByRole('region', { name: 'Insights' })).toContainText('disk almost full');
});

test('edit a scraper: a broken JSONPath is refused with its field, then save, run and see job history', async ({
  page,
}) => {
  const scrapeDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-editor-'));
  const file = path.join(scrapeDir, 'one.json');
  await writeFile(file, JSON.stringify({ name: 'edited-one', state: 'ok' }));
  const name = `e2e-editor-${Date.now()}`;
  const id = await createFileScraper(api, name, 'E2E::Before', file);
  try {
    await signIn(page, ADMIN.email, ADMIN.password, '/catalog/scrapers');
    const list = page.getByRole('table', { name: 'Scrapers' });
    await expect(list.getByRole('row').filter({ hasText: name })).toContainText('Never run', FIRST_LOAD);
    await list.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/catalog/scrapers/${id}$`));
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeDisabled();

    // A file scraper opens on its Form tab; the YAML is on the Code tab.
    await page.getByRole('tablist', { name: 'Spec editor' }).getByRole('tab', { name: 'Code' }).click();
    const editor = page.getByRole('textbox', { name: 'Spec' });
    const replaceSpec = async (text: string) => {
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(text);
    };
    await replaceSpec(
      `file:\n  - type: E2E::Edited\n    class: E2E\n    id: $.name\n    name: $.name\n    health: "$.state["\n    paths:\n      - ${file}\n`,
    );
    await page.getByRole('button', { name: 'Update' }).click();
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('spec.file[0].health');
    await expect(alert).toContainText('invalid JSONPath');

    await replaceSpec(
      `schedule: "@every 30m"\nfile:\n  - type: E2E::Edited\n    class: E2E\n    id: $.name\n    name: $.name\n    status: $.state\n    paths:\n      - ${file}\n`,
    );
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
    await expect(alert).toBeHidden();

    await page.getByRole('button', { name: 'Run Now' }).click();
    await expect(page).toHaveURL(/tab=job-history/);
    const history = page.getByRole('table', { name: 'Job History' });
    const run = history.locator('tbody tr').first();
    await expect(run).toContainText('SUCCESS');
    await run.click();
    const details = page.getByRole('dialog', { name: /Details for job/ });
    await details.getByRole('tab', { name: 'Scrape Summary' }).click();
    await expect(details.getByRole('tabpanel')).toContainText('E2E::Edited');
    await page.keyboard.press('Escape');

    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Scrapers' })
      .click();
    await expect(
      page.getByRole('table', { name: 'Scrapers' }).getByRole('row').filter({ hasText: name }),
    ).toContainText('SUCCESS');
    const items = await api.get(`/api/db/configs?select=name,status&type=eq.E2E::Edited`);
    expect(await items.json()).toEqual([{ name: 'edited-one', status: 'ok' }]);
  } finally {
    await deleteScraper(api, id);
    await rm(scrapeDir, { recursive: true, force: true });
  }
});
