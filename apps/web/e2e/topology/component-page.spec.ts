import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

/** Creates a topology through the data API and runs it (Run Now's route). */
async function createAndRun(api: APIRequestContext, name: string, spec: unknown): Promise<void> {
  const created = await api.post('/api/db/topologies', {
    headers: { ...(await csrfHeader(api)), Prefer: 'return=representation' },
    data: { name, spec },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [{ id }] = (await created.json()) as { id: string }[];
  const ran = await api.post(`/api/canary/run/topology/${id}`, { headers: await csrfHeader(api) });
  const body = (await ran.json()) as { status: string; errors: string[] };
  expect(body.errors).toEqual([]);
  expect(body.status).toBe('SUCCESS');
}

// groupBy, an inline check, a selector relationship and the component page's menus, as an admin
// and as a viewer (who may not write incidents, so sees no 'Attach as Evidence').
test('a grouped topology: inline check, related components and the component menus', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const suffix = Date.now();
  const name = `e2e-grouped-${suffix}`;
  const cacheName = `e2e-cache-${suffix}`;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await createAndRun(admin, name, {
    type: 'E2EGrouped',
    groupBy: { tag: 'zone' },
    components: [
      {
        name: 'shop-web',
        type: 'E2EService',
        labels: { zone: 'west' },
        checks: [{ inline: { http: [{ name: `e2e-home-${suffix}`, url: `${baseURL}/api/health` }] } }],
      },
      {
        name: 'shop-db',
        type: 'E2EDatabase',
        labels: { zone: 'east' },
        selectors: [{ labelSelector: `e2e-cache=${suffix}` }],
      },
      { name: cacheName, type: 'E2ECache', labels: { 'e2e-cache': String(suffix) }, health: 'warning' },
    ],
  });

  await signIn(page, ADMIN.email, ADMIN.password, '/topology');
  await card(page, name).getByRole('link', { name }).click();
  // groupBy: one Group card per zone; the unlabelled cache stays under the root.
  await expect(card(page, 'west')).toBeVisible();
  await expect(card(page, 'east')).toBeVisible();
  await expect(card(page, cacheName)).toBeVisible();

  // The related component (pulled in by selectors) on the component page, linking to its page.
  await card(page, 'east').getByRole('link', { name: 'east' }).click();
  await card(page, 'shop-db').getByRole('link', { name: 'shop-db' }).click();
  await expect(page.getByRole('heading', { name: 'shop-db', level: 1 })).toBeVisible();
  const dbUrl = page.url();
  const details = page.getByRole('complementary', { name: 'Details' });
  await details.getByRole('link', { name: cacheName }).click();
  await expect(page.getByRole('heading', { name: cacheName, level: 1 })).toBeVisible();

  // 'Attach as Evidence' links the component to a new incident.
  await page.goto(dbUrl);
  await page.getByRole('button', { name: 'Attach as Evidence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link to incident' });
  await expect(dialog).toContainText('shop-db');
  await chooseOption(dialog, 'Incident', 'Create new incident');
  await dialog.getByLabel('New incident title').fill(`Shop db slow ${suffix}`);
  await chooseOption(dialog, 'Severity', 'High');
  await dialog.getByLabel('Description').fill('The shop database is slow');
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Linked to incident successfully').first()).toBeVisible();

  // The inline check is linked to its component, and links to the health page.
  await page.goto('/topology');
  await card(page, name).getByRole('link', { name }).click();
  await card(page, 'west').getByRole('link', { name: 'west' }).click();
  await card(page, 'shop-web').getByRole('link', { name: 'shop-web' }).click();
  const check = page
    .getByRole('complementary', { name: 'Details' })
    .getByRole('link', { name: `e2e-home-${suffix}` });
  await expect(check).toHaveAttribute('href', /\/health\?checkId=[0-9a-f-]{36}&timeRange=1h$/);

  // A viewer sees the same page without 'Attach as Evidence'.
  const viewer = {
    email: `topology-viewer-${suffix}@example.com`,
    password: 'viewer-pass-123456',
    first: 'Topo',
    last: 'Viewer',
  };
  await createViewer(baseURL!, admin, viewer);
  await page.context().clearCookies();
  await signIn(page, viewer.email, viewer.password, new URL(dbUrl).pathname);
  await expect(page.getByRole('heading', { name: 'shop-db', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('complementary', { name: 'Details' }).getByRole('link', { name: cacheName }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Attach as Evidence' })).toHaveCount(0);
  await admin.dispose();
});
