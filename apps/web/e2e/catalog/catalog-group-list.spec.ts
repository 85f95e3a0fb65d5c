import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession } from '../shell/api';
import { FIRST_LOAD, createFileScraper, deleteScraper, runScraper } from './catalog-api';

test('a tag or label group opens the list of every type with that value, kept in the URL', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const api = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-e2e-groups-'));
  const stamp = Date.now();
  const site = `site-${stamp}`;
  // Two types share the tag key; the label spans one type of each site.
  const sources = [
    {
      type: 'E2E::GroupA',
      items: [
        { name: `a-north-${stamp}`, site: 'north', owner: 'ops' },
        { name: `a-south-${stamp}`, site: 'south', owner: 'ops' },
      ],
    },
    { type: 'E2E::GroupB', items: [{ name: `b-north-${stamp}`, site: 'north', owner: 'dev' }] },
  ];
  const ids: string[] = [];
  try {
    for (const source of sources) {
      const sub = path.join(dir, source.type.replace('::', '-'));
      await writeFile(`${sub}.json`, JSON.stringify(source.items));
      const id = await createFileScraper(
        api,
        `e2e-groups-${source.type}-${stamp}`,
        source.type,
        `${sub}.json`,
        {
          items: '$[*]',
          tags: [{ name: site, jsonpath: '$.site' }],
          labels: [{ name: `owner-${stamp}`, jsonpath: '$.owner' }],
        },
      );
      ids.push(id);
      await runScraper(api, id);
    }

    await signIn(page, ADMIN.email, ADMIN.password, `/catalog?groupBy=tag%3A${site}`);
    const groups = page.getByRole('table', { name: 'Catalog groups' });
    await expect(groups.getByRole('row').filter({ hasText: 'north' }).getByTestId('group-count')).toHaveText(
      '2',
      FIRST_LOAD,
    );
    await groups.getByRole('button', { name: 'north', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`tags\\.filter=${site}%3Dnorth%3A1`));
    await expect(page.getByRole('heading', { name: 'All types' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Config items' });
    await expect(table.getByRole('link', { name: `a-north-${stamp}` })).toBeVisible();
    await expect(table.getByRole('link', { name: `b-north-${stamp}` })).toBeVisible();
    await expect(table.getByRole('link', { name: `a-south-${stamp}` })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: `b-north-${stamp}` })).toContainText('E2E GroupB');
    // The chosen value is an active include in the Tags filter of the list.
    await expect(page.getByRole('region', { name: 'Tags' })).toContainText(`${site}=north`);

    // A reload keeps the list; Back returns to the groups.
    await page.reload();
    await expect(table.getByRole('link', { name: `b-north-${stamp}` })).toBeVisible(FIRST_LOAD);
    await page.goBack();
    await expect(page.getByRole('table', { name: 'Catalog groups' })).toBeVisible();
    await expect(selectMenu(page, 'Group By')).toHaveText(`Tag: ${site}`);

    // A label group, and '← All types' back to the same grouping.
    await chooseOption(page, 'Group By', `Label: owner-${stamp}`);
    await groups.getByRole('button', { name: 'ops', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`labels\\.filter=owner-${stamp}%3Dops%3A1`));
    await expect(table.getByRole('link', { name: `a-south-${stamp}` })).toBeVisible();
    await expect(table.getByRole('link', { name: `b-north-${stamp}` })).toHaveCount(0);
    await page.getByRole('button', { name: '← All types' }).click();
    await expect(page.getByRole('table', { name: 'Catalog groups' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`groupBy=label%3Aowner-${stamp}$`));
  } finally {
    for (const id of ids) await deleteScraper(api, id);
    await api.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});
