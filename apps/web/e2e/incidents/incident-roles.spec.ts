import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

async function personByEmail(api: APIRequestContext, email: string): Promise<{ id: string; name: string }> {
  const response = await api.get(`/api/db/people?select=id,name&email=eq.${encodeURIComponent(email)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const rows = (await response.json()) as { id: string; name: string }[];
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The read-only value of a field of the detail page (its `dt` and `dd`). */
const fieldValue = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');

test('the commander and the communicator are edited on the incident page and kept over a reload', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const me = await personByEmail(admin, ADMIN.email);
  // Another person to hand the roles to (a viewer: roles on an incident are not login roles).
  const other = {
    email: `incident-commander-${stamp}@example.com`,
    password: 'commander-password-123',
    first: 'Cora',
    last: `Mander ${stamp}`,
  };
  await createViewer(baseURL!, admin, other);
  const cora = await personByEmail(admin, other.email);
  const title = `Commander handover ${stamp}`;
  const created = await admin.post('/api/db/incidents', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: { title, severity: 'medium', type: 'reliability', description: '' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [incident] = (await created.json()) as { id: string }[];
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents/${incident!.id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const commander = selectMenu(page, 'Commander');
  const communicator = selectMenu(page, 'Communicator');
  // The creator holds both roles (spec core §6).
  await expect(commander).toHaveText(me.name);
  await expect(communicator).toHaveText(me.name);

  const saved = (column: string) =>
    page.waitForResponse(
      (response) =>
        response.url().includes(`/api/db/incidents?id=eq.${incident!.id}`) &&
        response.request().method() === 'PATCH' &&
        (response.request().postData() ?? '').includes(column),
    );
  let patch = saved('commander_id');
  await chooseOption(page, 'Commander', cora.name);
  expect((await patch).status()).toBeLessThan(300);
  await expect(commander).toHaveText(cora.name);
  patch = saved('communicator_id');
  await chooseOption(page, 'Communicator', 'Nobody');
  expect((await patch).status()).toBeLessThan(300);
  await expect(communicator).toHaveText('Nobody');

  await page.reload();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(commander).toHaveText(cora.name);
  await expect(communicator).toHaveText('Nobody');
  // Only the creation is in the changelog: the server records no event for these roles (core §4).
  await expect(page.getByRole('list', { name: 'Changelog' }).locator('li')).toHaveText([
    new RegExp(`${me.name}\\s*incident\\.created`),
  ]);

  patch = saved('communicator_id');
  await chooseOption(page, 'Communicator', cora.name);
  expect((await patch).status()).toBeLessThan(300);
  await page.reload();
  await expect(communicator).toHaveText(cora.name);
  await expect(commander).toHaveText(cora.name);

  // The list's Commander column follows.
  await page.goto(`/incidents?search=${encodeURIComponent(title)}`);
  const row = page.getByRole('table', { name: 'Incidents' }).getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(cora.name);

  // Someone who may not write incidents reads the names, without a control to change them.
  const viewerContext = await browser.newContext({ baseURL });
  try {
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, other.email, other.password, `/incidents/${incident!.id}`);
    await expect(viewerPage.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(fieldValue(viewerPage, 'Commander')).toContainText(cora.name);
    await expect(fieldValue(viewerPage, 'Communicator')).toContainText(cora.name);
    await expect(viewerPage.getByLabel('Commander', { exact: true })).toHaveCount(0);
    // And the server refuses the change from them.
    const refused = await viewerPage.request.patch(`/api/db/incidents?id=eq.${incident!.id}`, {
      headers: await csrfHeader(viewerPage.request),
      data: { commander_id: null },
    });
    expect(refused.status()).toBe(403);
  } finally {
    await viewerContext.close();
  }
});
