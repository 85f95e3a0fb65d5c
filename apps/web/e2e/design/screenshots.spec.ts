import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

/**
 * Issue 30 "Small screens": the main pages at the spec's minimum width (800 px, core §9) and at a
 * wide screen, each photographed for review (test-results/…/<page>-<width>.png, attached to the
 * report; not compared pixel by pixel). What is asserted: the page opens inside the shell without
 * the not-found or error screen, and nothing makes the window scroll sideways.
 */
const PAGES: { name: string; path: string }[] = [
  { name: 'topology', path: '/topology' },
  { name: 'health', path: '/health?hidePassing=false' },
  { name: 'incidents', path: '/incidents' },
  { name: 'catalog', path: '/catalog' },
  { name: 'logs', path: '/logs' },
  { name: 'playbooks', path: '/playbooks' },
  { name: 'notifications', path: '/notifications' },
  { name: 'health-checks', path: '/settings/canaries' },
  { name: 'jobs-history', path: '/settings/jobs' },
  { name: 'connections', path: '/settings/connections' },
];

async function settle(page: Page) {
  // Generous waits: the machine running the suite can be heavily loaded.
  await expect(page.getByRole('navigation', { name: 'Sidebar' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('main')).toBeVisible({ timeout: 30_000 });
  // Skeletons gone: the page has its data (or its empty state).
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  await expect(page.getByText(/Sorry\.\. there was an error|Something went wrong/)).toHaveCount(0);
}

async function photograph(page: Page, name: string, width: number) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - window.innerWidth;
  });
  expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(1);
  const file = test.info().outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
}

for (const width of [800, 1440]) {
  test(`the main pages at ${width} px fit the window and are photographed for review`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(360_000);
    const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
    const created = await admin.post('/api/db/incidents', {
      headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
      data: {
        title: `Checkout latency above its objective (${width} px review)`,
        severity: 'high',
        type: 'availability',
        description: 'p95 latency of the checkout service is above 800 ms since the last rollout.',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const [incident] = (await created.json()) as { id: string }[];
    await admin.dispose();

    await page.setViewportSize({ width, height: 900 });
    await signIn(page, ADMIN.email, ADMIN.password, '/topology');
    for (const target of [...PAGES, { name: 'incident-workspace', path: `/incidents/${incident!.id}` }]) {
      await test.step(target.name, async () => {
        await page.goto(target.path);
        await settle(page);
        await photograph(page, target.name, width);
      });
    }
  });
}
