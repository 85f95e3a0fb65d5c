import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';
import { FIRST_LOAD, configIds, createFileScraper, deleteScraper, runScraper } from './catalog-api';

test('group the catalog by a tag or label key, and sort the list by cost', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-costs-'));
  const stamp = Date.now();
  const zone = `zone-${stamp}`;
  const items = [
    { name: 'cheap', team: `costs-a-${stamp}`, cost: 12.5 },
    { name: 'pricey', team: `costs-a-${stamp}`, cost: 1234.5 },
    { name: 'free', team: `costs-b-${stamp}`, cost: null },
  ];
  for (const item of items) await writeFile(path.join(dir, `${item.name}.json`), JSON.stringify(item));
  const id = await createFileScraper(api, `e2e-costs-${stamp}`, 'E2E::Costed', path.join(dir, '*.json'), {
    tags: [{ name: zone, value: 'eu' }],
    labels: [{ name: 'team', jsonpath: '$.team' }],
  });
  try {
    await runScraper(api, id);
    const ids = await configIds(api, 'E2E::Costed');
    for (const item of items) {
      if (item.cost === null) continue;
      const response = await api.patch(`/api/db/config_items?id=eq.${ids[item.name]}`, {
        headers: await csrfHeader(api),
        data: { cost_total_30d: item.cost, cost_per_minute: 0.0125 },
      });
      expect(response.ok(), await response.text()).toBe(true);
    }

    await signIn(page, ADMIN.email, ADMIN.password, '/catalog?type=E2E%3A%3ACosted');
    const table = page.getByRole('table', { name: 'Config items' });
    const names = table.locator('tbody tr td:first-child');
    await expect(names).toHaveText(['cheap', 'free', 'pricey'], FIRST_LOAD);
    const pricey = table.getByRole('row').filter({ hasText: 'pricey' });
    await expect(pricey).toContainText('$1,234.50');
    await expect(pricey).toContainText('$0.0125');

    // Most expensive first; items without a cost last in either direction.
    // The header says the direction at once; the rows follow when the sorted page arrives, so
    // the order is read from the header, not from rows that may still be the previous page's.
    const costHeader = table.getByRole('columnheader', { name: 'Cost (30d)' });
    await costHeader.getByRole('button').click();
    await expect(page).toHaveURL(/sortBy=cost_total_30d/);
    await expect(costHeader).toHaveAttribute('aria-sort', /^(ascending|descending)$/);
    const ascending = (await costHeader.getAttribute('aria-sort')) === 'ascending';
    const order = ascending ? ['cheap', 'pricey', 'free'] : ['pricey', 'cheap', 'free'];
    await expect(names).toHaveText(order);
    await costHeader.getByRole('button').click();
    await expect(costHeader).toHaveAttribute('aria-sort', ascending ? 'descending' : 'ascending');
    await expect(names).toHaveText([order[1]!, order[0]!, 'free']);

    await page.getByRole('button', { name: '← All types' }).click();
    await chooseOption(page, 'Group By', `Tag: ${zone}`);
    await expect(page).toHaveURL(new RegExp(`groupBy=tag%3A${zone}`));
    const groups = page.getByRole('table', { name: 'Catalog groups' });
    const eu = groups.getByRole('row').filter({ hasText: 'eu' });
    await expect(eu.getByTestId('group-count')).toHaveText('3', FIRST_LOAD);
    await expect(eu).toContainText('$1,247.00');

    await chooseOption(page, 'Group By', 'Label: team');
    await expect(
      groups
        .getByRole('row')
        .filter({ hasText: `costs-a-${stamp}` })
        .getByTestId('group-count'),
    ).toHaveText('2');
    await expect(
      groups
        .getByRole('row')
        .filter({ hasText: `costs-b-${stamp}` })
        .getByTestId('group-count'),
    ).toHaveText('1');
    // The choice is in the URL: a reload keeps it.
    await page.reload();
    await expect(selectMenu(page, 'Group By')).toHaveText('Label: team', FIRST_LOAD);
    await expect(groups.getByRole('row').filter({ hasText: `costs-b-${stamp}` })).toBeVisible(FIRST_LOAD);
    await chooseOption(page, 'Group By', 'Config type');
    await expect(page.getByRole('table', { name: 'Catalog summary' })).toBeVisible(FIRST_LOAD);
  } finally {
    await deleteScraper(api, id);
    await api.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});
