import { expect, test, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

/** More incidents than one page of the default 50. */
const COUNT = 55;
const titleOf = (stamp: string, n: number) => `${stamp} ${String(n).padStart(2, '0')}`;
const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from <= to ? from + i : from - i));

const table = (page: Page) => page.getByRole('table', { name: 'Incidents' });
const pagination = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });
const titles = (page: Page, stamp: string) =>
  table(page).getByRole('link', { name: new RegExp(`^${stamp} `) });

test('the incident table keeps its sort, page and page size in the URL over a reload and in a new browser', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = `Url state ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  // One insert of 55 rows through the data API; their titles sort 01 … 55.
  const created = await admin.post('/api/db/incidents', {
    headers: await csrfHeader(admin),
    data: range(1, COUNT).map((n) => ({
      title: titleOf(stamp, n),
      severity: 'low',
      type: 'cost',
      description: '',
    })),
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents?search=${encodeURIComponent(stamp)}`);
  const rows = titles(page, stamp);
  const title = table(page).getByRole('columnheader', { name: 'Title' });
  // Server paging: 50 of the 55 on the first page.
  await expect(rows).toHaveCount(50);
  await expect(pagination(page)).toContainText(`1–50 of ${COUNT}`);

  // Sort by Title (ascending, then descending), then page 2 of 25 rows.
  await title.getByRole('button', { name: 'Title' }).click();
  await expect(title).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows).toHaveText(range(1, 50).map((n) => titleOf(stamp, n)));
  await title.getByRole('button', { name: 'Title' }).click();
  await expect(title).toHaveAttribute('aria-sort', 'descending');
  await chooseOption(pagination(page), 'Rows per page', '25');
  await expect(rows).toHaveText(range(55, 31).map((n) => titleOf(stamp, n)));
  await pagination(page).getByRole('button', { name: 'Next page' }).click();

  const secondPage = range(30, 6).map((n) => titleOf(stamp, n));
  const expectSecondPage = async (on: Page) => {
    await expect(titles(on, stamp)).toHaveText(secondPage);
    await expect(pagination(on)).toContainText(`26–50 of ${COUNT}`);
    await expect(pagination(on).getByLabel('Go to page')).toHaveValue('2');
    await expect(selectMenu(pagination(on), 'Rows per page')).toHaveText('25');
    await expect(table(on).getByRole('columnheader', { name: 'Title' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  };
  await expectSecondPage(page);
  const params = new URL(page.url()).searchParams;
  expect(
    Object.fromEntries(['pageIndex', 'pageSize', 'sortBy', 'sortOrder'].map((k) => [k, params.get(k)])),
  ).toEqual({
    pageIndex: '1',
    pageSize: '25',
    sortBy: 'title',
    sortOrder: 'desc',
  });

  await page.reload();
  await expectSecondPage(page);

  // The URL alone carries the state: a fresh browser (nothing remembered) opens the same page.
  const url = new URL(page.url());
  const other = await browser.newContext({ baseURL });
  try {
    const second = await other.newPage();
    await signIn(second, ADMIN.email, ADMIN.password, `${url.pathname}${url.search}`);
    await expectSecondPage(second);
  } finally {
    await other.close();
  }

  // The first page is the default: it leaves the URL.
  await pagination(page).getByRole('button', { name: 'First page' }).click();
  await expect(page).not.toHaveURL(/pageIndex=/);
  await expect(rows).toHaveText(range(55, 31).map((n) => titleOf(stamp, n)));
});
