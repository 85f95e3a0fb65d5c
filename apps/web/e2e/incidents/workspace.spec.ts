import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption } from '../design/select-menu';
import { apiSession, csrfHeader } from '../shell/api';

/**
 * Issue 30: the incident detail page is a workspace, not an admin form: a header with status,
 * severity, type and the time-to-acknowledge/mitigate/resolve figures as badges, commander and
 * communicator as avatars, the changelog as a timeline; the shell (sidebar included) spans the
 * whole page however long it is.
 */
test('the incident workspace shows its state as badges, people as avatars and the changelog as a timeline', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const whoami = (await (await admin.get('/api/auth/whoami')).json()) as {
    payload: { user: { id: string } };
  };
  const [me] = (await (
    await admin.get(`/api/db/people?select=id,name&id=eq.${whoami.payload.user.id}`)
  ).json()) as { id: string; name: string }[];
  const title = `Workspace ${Date.now()}`;
  const created = await admin.post('/api/db/incidents', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: { title, severity: 'critical', type: 'availability', description: 'Checkout answers 503' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [incident] = (await created.json()) as { id: string }[];
  await admin.dispose();

  await page.setViewportSize({ width: 1280, height: 700 });
  await signIn(page, ADMIN.email, ADMIN.password, `/incidents/${incident!.id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible({ timeout: 30_000 });
  const header = page.locator('main header').first();
  for (const badge of [
    'critical',
    'open',
    'availability',
    'Not acknowledged',
    'Not mitigated',
    'Not resolved',
  ]) {
    await expect(header.getByText(badge, { exact: true })).toBeVisible();
  }

  // Commander and communicator (the creator, core §4) each with their avatar.
  const details = page.getByRole('complementary', { name: 'Incident details' });
  await expect(details.getByRole('img', { name: me!.name })).toHaveCount(2);

  // The changelog is an ordered timeline whose entries carry who did it.
  const changelog = page.getByRole('list', { name: 'Changelog' });
  await expect(
    changelog.locator('li', { hasText: 'incident.created' }).getByRole('img', { name: me!.name }),
  ).toBeVisible();
  expect(await changelog.evaluate((element) => element.tagName)).toBe('OL');

  // A stage reached turns its badge into the time it took.
  await chooseOption(page, 'Status', 'mitigated');
  await expect(header.getByText(/^Mitigated in /)).toBeVisible();
  await expect(header.getByText('mitigated', { exact: true })).toBeVisible();
  await expect(header.getByText('Not mitigated', { exact: true })).toHaveCount(0);

  // The page is longer than the window: scrolled to its end, the sidebar still spans the window
  // top to bottom (before, its background stopped at the first screen height).
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(700);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const box = await page.getByRole('navigation', { name: 'Sidebar' }).evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, window: window.innerHeight };
  });
  expect(box.top).toBeLessThanOrEqual(0);
  expect(box.bottom).toBeGreaterThanOrEqual(box.window);
  // And the sidebar's column (its white panel and border) is as tall as the page.
  const column = await page.getByRole('navigation', { name: 'Sidebar' }).evaluate((element) => ({
    column: element.parentElement!.getBoundingClientRect().height,
    page: document.documentElement.scrollHeight,
  }));
  expect(column.column).toBeGreaterThanOrEqual(column.page - 1);
});
