import { expect, test, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer, csrfHeader, deleteProperty, setProperty } from './api';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/** The server writes job history for its own demo canaries (and housekeeping) soon after it starts. */
async function waitForJobRows(page: Page): Promise<void> {
  // On a fresh server the first runs take up to a minute.
  test.setTimeout(150_000);
  const canaryRun = page
    .getByRole('table', { name: 'Jobs History' })
    .locator('tbody tr', { hasText: 'opsdeck-self' })
    .first();
  await expect(async () => {
    await page.reload();
    await expect(canaryRun).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
}

test('the sidebar collapse is remembered over a reload and Settings becomes a flyout', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Jobs History' })).toBeVisible();

  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Jobs History' })).toBeHidden();

  await sidebar(page).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Feature Flags' }).click();
  await expect(page).toHaveURL(/\/settings\/feature-flags$/);
  await expect(page.getByRole('heading', { name: 'Feature Flags', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
});

test('a click outside the sidebar collapses it only on a narrow window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await page.getByRole('heading', { name: 'Jobs History', level: 1 }).click();
  await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();

  await page.setViewportSize({ width: 900, height: 800 });
  await sidebar(page).getByRole('link', { name: 'Jobs History' }).click();
  await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
  await page.getByRole('heading', { name: 'Jobs History', level: 1 }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
});

test('a viewer sees no Settings and the API refuses its writes', async ({ page, baseURL }) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const viewer = {
    email: `viewer-${Date.now()}@example.com`,
    password: 'viewer-password-123',
    first: 'Vera',
    last: 'Viewer',
  };
  await createViewer(baseURL!, admin, viewer);
  await admin.dispose();

  await signIn(page, viewer.email, viewer.password, '/settings/jobs');
  // Viewers read the database, so the page opens; the navigation to settings is hidden.
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();
  await expect(sidebar(page).getByText('Settings')).toHaveCount(0);
  await expect(sidebar(page).getByRole('link', { name: 'Jobs History' })).toHaveCount(0);

  const write = await page.request.post('/api/db/properties', {
    headers: await csrfHeader(page.request),
    data: { name: 'viewer.attempt', value: 'true' },
  });
  expect(write.status()).toBe(403);
});

test('a feature flag set through the API hides its entry and refuses its page', async ({ page, baseURL }) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  try {
    await setProperty(admin, 'settings.feature_flags.disable', 'true');
    await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
    await expect(sidebar(page).getByRole('link', { name: 'Jobs History' })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Feature Flags' })).toHaveCount(0);
    await page.goto('/settings/feature-flags');
    await expect(
      page.getByText('Unauthorized - You do not have permission to access this page'),
    ).toBeVisible();
  } finally {
    await deleteProperty(admin, 'settings.feature_flags.disable');
    await admin.dispose();
  }
  await page.reload();
  await expect(sidebar(page).getByRole('link', { name: 'Feature Flags' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Feature Flags' })).toContainText('demo.loaded');
});

test('the preferences change every date on the jobs page and are kept over a reload', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await waitForJobRows(page);
  const dates = page.getByRole('table', { name: 'Jobs History' }).locator('tbody time');
  await expect(dates.first()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
  expect(await dates.count()).toBeGreaterThan(0);

  // Timezone: every date moves to the zone (Sri Lanka is UTC+05:30 all year), in the default format.
  await page.getByRole('button', { name: 'Preferences' }).click();
  await chooseOption(page, 'Timezone', /Asia\/Colombo/);
  const notInColombo = () =>
    dates.evaluateAll(
      (elements) =>
        elements.filter((element) => {
          const at = Date.parse(element.getAttribute('datetime') ?? '');
          const wall = new Date(at + 330 * 60_000).toISOString().slice(0, 23).replace('T', ' ');
          return element.textContent !== wall;
        }).length,
    );
  await expect.poll(notInColombo).toBe(0);

  // Format: every date on the page follows it.
  await chooseOption(page, 'Date/Time Format', 'Full');
  const full = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), /;
  const notFull = () =>
    dates.evaluateAll(
      (elements, pattern) =>
        elements.filter((element) => !new RegExp(pattern).test(element.textContent ?? '')).length,
      full.source,
    );
  await expect.poll(notFull).toBe(0);

  // Kept in the browser for this user.
  await page.reload();
  await expect(dates.first()).toHaveText(full);
  await expect.poll(notFull).toBe(0);
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(selectMenu(page, 'Timezone')).toHaveText(/Asia\/Colombo/);
  await expect(selectMenu(page, 'Date/Time Format')).toHaveText('Full');
});

test('the jobs table keeps its page size across visits and its state in the URL', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await waitForJobRows(page);
  await chooseOption(page, 'Rows per page', '5');
  await expect(page).toHaveURL(/pageSize=5/);

  await sidebar(page).getByRole('link', { name: 'Feature Flags' }).click();
  await expect(page.getByRole('heading', { name: 'Feature Flags', level: 1 })).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Jobs History' }).click();
  await expect(page).toHaveURL(/\/settings\/jobs$/);
  await expect(selectMenu(page, 'Rows per page')).toHaveText('5');

  // The demo topology runs every minute, but none of a fresh server's jobs lasts 15 minutes.
  await chooseOption(page, 'Resource Type', 'Topology');
  await expect(page).toHaveURL(/resourceType=topology/);
  await chooseOption(page, 'Duration', '15m');
  await expect(page).toHaveURL(/duration=/);
  await expect(page.getByText('No data available')).toBeVisible();
  await chooseOption(page, 'Duration', 'None');
  await expect(page).not.toHaveURL(/duration=/);
  await chooseOption(page, 'Resource Type', 'Canary');
  await expect(page).toHaveURL(/resourceType=canary/);
  await page.reload();
  await expect(selectMenu(page, 'Resource Type')).toHaveText('Canary');
  await expect(selectMenu(page, 'Rows per page')).toHaveText('5');
  const rows = page.getByRole('table', { name: 'Jobs History' }).locator('tbody tr');
  await expect(rows.first()).toContainText('Canary');

  await chooseOption(page, 'Resource Type', 'All');
  await expect(page).not.toHaveURL(/resourceType=/);

  // Clicking a job name filters by it (settings §2.1), without opening the row's details. Other
  // jobs (topologies, views, playbooks) may be newer than the last canary run under All.
  await rows.getByRole('button', { name: 'Canary', exact: true }).first().click();
  await expect(page).toHaveURL(/name=Canary/);
  await expect(selectMenu(page, 'Job Name')).toHaveText('Canary');
  await expect(page.getByRole('heading', { name: /^Details for job/ })).toHaveCount(0);
});

test('a job with errors opens its details and the copy button copies the resource id', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await waitForJobRows(page);
  // The demo canary 'opsdeck-self' has a check on a closed port, so each of its runs has errors.
  const withErrors = page
    .getByRole('table', { name: 'Jobs History' })
    .locator('tbody tr', { hasText: 'opsdeck-self' })
    .first();
  await expect(withErrors).toBeVisible();

  await withErrors.getByRole('cell').first().click();
  await expect(page.getByRole('heading', { name: 'Details for job Canary' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Errors' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Scrape Summary' })).toHaveCount(0);
  await expect(page.getByRole('tabpanel')).toContainText('closed-port');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Details for job Canary' })).toBeHidden();

  const copy = withErrors.getByRole('button', { name: /^Copy / });
  const label = (await copy.getAttribute('aria-label')) ?? '';
  await copy.click();
  await expect(page.getByText(`Copied ${label.slice('Copy '.length)} to clipboard`)).toBeVisible();
});

test('a render error in the page body shows the error screen inside the shell', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();
  // A mapped time range whose ends are not date math cannot be resolved (settings §8).
  await page.goto('/settings/jobs?rangeType=mapped&from=not-a-date&to=now');
  await expect(page.getByText('Something went wrong')).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Jobs History' })).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Jobs History' }).click();
  await expect(page.getByText('Something went wrong')).toBeHidden();
  await expect(page.getByRole('table', { name: 'Jobs History' })).toBeVisible();
});

test('the user menu greets the user, shows both versions, hands out a kubeconfig and signs out back to the page', async ({
  page,
}) => {
  // Several pages: the menu, the dialog, the download, the tokens list and signing out.
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs?status=SUCCESS');
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByText('Hi Admin')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute(
    'href',
    '/profile-settings',
  );
  await expect(
    page.getByText(/^frontend version \d+\.\d+\.\d+, backend version \d+\.\d+\.\d+/),
  ).toBeVisible();

  await expect(page.getByRole('menuitem', { name: 'Setup MCP' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download kubeconfig' });
  await expect(dialog.getByText('kubectl --kubeconfig opsdeck-kubeconfig.yaml get canaries')).toBeVisible();
  // This server is plain HTTP: the dialog says kubectl will not send credentials to it.
  await expect(dialog.getByRole('note')).toContainText('kubectl sends credentials only over HTTPS');
  // Step 1 opens the download in a new tab: a kubeconfig pointing at this server's Kubernetes API.
  const link = dialog.getByRole('link', { name: 'Download' });
  await expect(link).toHaveAttribute('href', '/api/kubeconfig');
  await expect(link).toHaveAttribute('target', '_blank');
  const download = await page.request.get('/api/kubeconfig');
  expect(download.headers()['content-disposition']).toContain('opsdeck-kubeconfig.yaml');
  const kubeconfig = await download.text();
  expect(kubeconfig).toContain(`server: ${new URL(page.url()).origin}/api/kubernetes`);
  expect(kubeconfig).toMatch(/token: opsdeck_/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.goto('/settings/tokens');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: /kubeconfig \d{4}-/ })
      .first(),
  ).toBeVisible();

  await page.goto('/settings/jobs?status=SUCCESS');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  expect(new URL(page.url()).searchParams.get('return_to')).toBe('/settings/jobs?status=SUCCESS');
});
