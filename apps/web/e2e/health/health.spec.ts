import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer } from '../shell/api';

const table = (page: Page) => page.getByRole('table', { name: 'Health checks' });
const checkRow = (page: Page, name: string) =>
  table(page).getByTestId('health-check-row').filter({ hasText: name }).first();

/**
 * The demo canaries run every minute; on a fresh server the first results take up to a minute.
 * Waits until every demo check has a result (so passing ones are really 'healthy'). Checks that
 * other tests made on the same server (paused or pushed ones) may never run: only the demo's count.
 */
async function waitForClosedPort(page: Page): Promise<void> {
  await expect(async () => {
    const response = await page.request.get('/api/canary/api/summary?start=1h');
    const body = (await response.json()) as {
      checks_summary: { status: string | null; namespace: string | null }[];
    };
    const demo = body.checks_summary.filter((check) => check.namespace === 'demo');
    expect(demo.length).toBeGreaterThan(1);
    expect(demo.every((check) => check.status !== null)).toBe(true);
  }).toPass({ timeout: 100_000 });
  await page.reload();
  await expect(checkRow(page, 'closed-port').getByText('unhealthy', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
}

async function closedPortId(page: Page): Promise<string> {
  const response = await page.request.get('/api/canary/api/summary?start=1h');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { checks_summary: { id: string; name: string }[] };
  const check = body.checks_summary.find((item) => item.name === 'closed-port');
  if (!check) throw new Error('no closed-port check');
  return check.id;
}

test.describe.configure({ mode: 'serial' });

test('admin sees the failing demo check, filters, groups and keeps it all over a reload', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await expect(page).toHaveURL(/\/health/);
  await waitForClosedPort(page);

  // Hide Passing is on by default: only failing checks are listed.
  const hidePassing = page.getByRole('checkbox', { name: 'Hide Passing' });
  await expect(hidePassing).toBeChecked();
  await expect(table(page).getByText('healthy', { exact: true })).toHaveCount(0);
  // A click, not uncheck(): the box is bound to the URL and changes once the navigation settles.
  await hidePassing.click();
  await expect(hidePassing).not.toBeChecked();
  await expect(page).toHaveURL(/hidePassing=false/);
  await expect(table(page).getByText('healthy', { exact: true }).first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('CLOSED');
  await expect(page).toHaveURL(/query=CLOSED/);
  await expect(table(page).getByTestId('health-check-row')).toHaveCount(1);
  await expect(checkRow(page, 'closed-port')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await chooseOption(page, 'Group By', 'no-group');
  await expect(page).toHaveURL(/groupBy=no-group/);
  await expect(table(page).getByTestId('health-group-row')).toHaveCount(0);
  await chooseOption(page, 'Group By', 'canary_name');
  await expect(page).not.toHaveURL(/groupBy=/);
  await expect(table(page).getByTestId('health-group-row').first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('port');
  await expect(page).toHaveURL(/query=port/);
  await chooseOption(page, 'Group By', 'type');
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('port');
  await expect(selectMenu(page, 'Group By')).toHaveText('type');
  await expect(page.getByRole('checkbox', { name: 'Hide Passing' })).not.toBeChecked();
  await expect(checkRow(page, 'closed-port')).toBeVisible();
});

test('the check panel opens by click and by URL, shows history, validates durations and runs the check', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await waitForClosedPort(page);
  const id = await closedPortId(page);

  await checkRow(page, 'closed-port').click();
  await expect(page).toHaveURL(new RegExp(`checkId=${id}`));
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible();
  await expect(dialog.getByTestId('check-history-row').first()).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Edit' })).toHaveAttribute(
    'href',
    /^\/settings\/canaries\/[0-9a-f-]{36}\?type=tcp$/,
  );

  await chooseOption(dialog, 'Duration', 'custom');
  await dialog.getByLabel('Custom duration').fill('5m');
  await expect(dialog.getByText('duration is allowed only in milli seconds & seconds')).toBeVisible();
  await dialog.getByLabel('Custom duration').fill('0ms');
  await expect(dialog.getByText('duration is allowed only in milli seconds & seconds')).toBeHidden();
  await chooseOption(dialog, 'Duration', 'All');

  const before = await dialog.getByTestId('check-history-row').count();
  await dialog.getByRole('button', { name: 'Run Now' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Check failed' })).toBeVisible({
    timeout: 30_000,
  });
  // The run is recorded: the history gains a row (unless it already shows a full page). The demo
  // check also runs every minute on its own, so a scheduled run may have added one more.
  if (before < 50)
    await expect
      .poll(() => dialog.getByTestId('check-history-row').count(), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(before + 1);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).not.toHaveURL(/checkId=/);
  await expect(page).toHaveURL(/timeRange=1h/);

  await page.goto(`/health?checkId=${id}&timeRange=1h`);
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'closed-port' })).toBeVisible();
  await expect(page.getByRole('dialog').getByTestId('check-history-row').first()).toBeVisible();
});

test('label filters, tabs, sorting and the card layout all live in the URL', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/health?hidePassing=false&groupBy=no-group');
  await waitForClosedPort(page);
  const rows = table(page).getByTestId('health-check-row');
  const names = async () =>
    (await rows.locator('td:nth-child(2)').allTextContents()).map((name) => name.trim());
  // Expected rows from the API: the demo canaries opsdeck-self (app=opsdeck) and scripts
  // (app=demo), plus whatever other tests of the run created.
  const summary = (await (await page.request.get('/api/canary/api/summary?start=1h')).json()) as {
    checks_summary: { name: string; labels?: Record<string, string> | null }[];
  };
  const sortedNames = (keep: (labels: Record<string, string>) => boolean) =>
    summary.checks_summary
      .filter((check) => keep(check.labels ?? {}))
      .map((check) => check.name)
      .sort((a, b) => {
        // As the page sorts by name: lower-cased code units, ties by locale.
        const [left, right] = [a.toLowerCase(), b.toLowerCase()];
        return left < right ? -1 : left > right ? 1 : a.localeCompare(b);
      });
  const everyCheck = sortedNames(() => true);
  const opsdeckChecks = sortedNames((labels) => labels.app === 'opsdeck');
  const notOpsdeck = sortedNames((labels) => labels.app !== 'opsdeck');
  const scriptChecks = sortedNames((labels) => labels.app === 'demo');
  const appTabs = [...new Set(summary.checks_summary.map((check) => check.labels?.app).filter(Boolean))];
  expect(opsdeckChecks).toEqual(expect.arrayContaining(['closed-port', 'opsdeck-healthz', 'opsdeck-readyz']));
  expect(scriptChecks).toEqual(expect.arrayContaining(['demo-resources', 'flaky-minute']));
  await expect(rows).toHaveCount(everyCheck.length);

  // Filter by Label: include, then exclude; the sidebar's badge counts the active filters.
  const filters = page.getByRole('complementary', { name: 'Filters' });
  await filters.getByRole('button', { name: 'Include app=opsdeck' }).click();
  await expect(page).toHaveURL(/labels=/);
  expect(JSON.parse(new URL(page.url()).searchParams.get('labels')!)).toEqual({ 'app=opsdeck': 1 });
  await expect(rows).toHaveCount(opsdeckChecks.length);
  expect(await names()).toEqual(opsdeckChecks);
  await filters.getByRole('button', { name: 'Exclude app=opsdeck' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('labels')).toBe('{"app=opsdeck":-1}');
  await expect(rows).toHaveCount(notOpsdeck.length);
  expect(await names()).toEqual(notOpsdeck);
  await page.reload();
  await expect(filters.getByRole('button', { name: 'Exclude app=opsdeck' })).toHaveAttribute(
    'aria-pressed',
    'true',
    { timeout: 30_000 },
  );
  await expect(rows).toHaveCount(notOpsdeck.length);
  await filters.getByRole('button', { name: 'Exclude app=opsdeck' }).click();
  await expect(page).not.toHaveURL(/labels=/);
  await expect(rows).toHaveCount(everyCheck.length);

  // Tab By a label key: 'All' first, the rest alphabetical; a tab shows its checks only.
  await chooseOption(page, 'Tab By', 'app');
  await expect(page).toHaveURL(/tabBy=app/);
  const tabs = page.getByRole('tablist', { name: 'Tabs' }).getByRole('tab');
  await expect(tabs).toHaveText(['All', ...appTabs.sort((a, b) => a!.localeCompare(b!))] as string[]);
  const demoTab = page.getByRole('tab', { name: 'demo', exact: true });
  await demoTab.click();
  await expect(demoTab).toHaveAttribute('aria-selected', 'true');
  await expect(rows).toHaveCount(scriptChecks.length);
  expect(await names()).toEqual(scriptChecks);
  await page.getByRole('tab', { name: 'All', exact: true }).click();
  await expect(rows).toHaveCount(everyCheck.length);

  // Single-column sort: ascending, descending, then back to the default by name.
  const byName = page.getByRole('columnheader', { name: 'Checks' });
  const sorted = everyCheck;
  await byName.getByRole('button').click();
  await expect(page).toHaveURL(/sortBy=name/);
  await expect(byName).toHaveAttribute('aria-sort', 'ascending');
  expect(await names()).toEqual(sorted);
  await byName.getByRole('button').click();
  await expect(page).toHaveURL(/sortDesc=true/);
  await expect(byName).toHaveAttribute('aria-sort', 'descending');
  expect(await names()).toEqual([...sorted].reverse());
  await page.reload();
  await expect(byName).toHaveAttribute('aria-sort', 'descending');
  expect(await names()).toEqual([...sorted].reverse());
  await byName.getByRole('button').click();
  await expect(page).not.toHaveURL(/sortBy=/);
  await expect(byName).toHaveAttribute('aria-sort', 'none');
  expect(await names()).toEqual(sorted);

  // The card layout shows the same checks and survives a reload.
  await chooseOption(page, 'Layout', 'card');
  await expect(page).toHaveURL(/layout=card/);
  await page.reload();
  const cards = page.getByTestId('health-check-card');
  await expect(cards).toHaveCount(everyCheck.length);
  // As the table: the status as its word in its colour, an uptime bar and the latency with its unit.
  const closedPort = cards.filter({ hasText: 'closed-port' });
  await expect(closedPort.getByText('unhealthy', { exact: true })).toBeVisible();
  await expect(closedPort.locator('[role="meter"]')).toHaveAttribute('aria-label', 'closed-port uptime');
  await expect(closedPort).toContainText(/\d+(\.\d+)?(ms|s)\b/);
  await cards.filter({ hasText: 'closed-port' }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'closed-port' })).toBeVisible();
});

test('a viewer sees the check but not Run Now', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const admin = await apiSession(baseURL, ADMIN.email, ADMIN.password);
  const viewer = {
    email: 'health-viewer@example.com',
    password: 'health-viewer-password-1',
    first: 'Hea',
    last: 'Lth',
  };
  await createViewer(baseURL, admin, viewer);
  await admin.dispose();

  await signIn(page, viewer.email, viewer.password, '/health');
  await waitForClosedPort(page);
  const id = await closedPortId(page);
  await page.goto(`/health?checkId=${id}&timeRange=1h`);
  const dialog = page.getByRole('dialog');
  // On a loaded machine the summary behind the panel can take longer than the default 5 s.
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByTestId('check-history-row').first()).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Run Now' })).toHaveCount(0);

  // The server is the authority: the viewer's own session cannot run the check either.
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'opsdeck_csrf')?.value;
  expect(csrf).toBeTruthy();
  const refused = await page.request.post(`/api/canary/run/check/${id}`, {
    headers: { 'X-CSRF-Token': csrf! },
    data: {},
  });
  expect(refused.status(), await refused.text()).toBe(403);
});

test('a pivot by label with its cell type survives a reload and opens the check with its Health Overview', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/health?hidePassing=false');
  await waitForClosedPort(page);

  await chooseOption(page, 'Pivot By', 'app');
  await expect(page).toHaveURL(/pivotBy=app/);
  const pivot = page.getByRole('table', { name: 'Checks by app' });
  await expect(pivot.getByRole('columnheader', { name: 'opsdeck' })).toBeVisible();
  await expect(pivot.getByRole('columnheader', { name: 'demo' })).toBeVisible();
  const cell = pivot.getByRole('button', { name: 'closed-port opsdeck' });
  await expect(cell.getByRole('img', { name: 'unhealthy' })).toBeVisible();

  await chooseOption(page, 'Cell', 'uptime');
  await expect(page).toHaveURL(/pivotCellType=uptime/);
  // closed-port never passes.
  await expect(cell).toHaveText('0.0%');
  await chooseOption(page, 'Rows', 'name');
  await page.reload();
  await expect(selectMenu(page, 'Pivot By')).toHaveText('app');
  await expect(selectMenu(page, 'Cell')).toHaveText('uptime');
  await expect(pivot.getByRole('button', { name: 'closed-port opsdeck' })).toHaveText('0.0%');

  // A short window (Playwright's default is 720 px high) shows the chart in a Graph tab.
  await pivot.getByRole('button', { name: 'closed-port opsdeck' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible();
  await dialog.getByRole('tab', { name: 'Graph' }).click();
  await expect(dialog.getByRole('figure', { name: 'Health Overview' })).toBeVisible();
  await expect(dialog.getByRole('figure', { name: 'Health Overview' })).toContainText(/[1-9]\d* failed/);
  await dialog.getByRole('tab', { name: /Relationships/ }).click();
  await expect(dialog.getByRole('tabpanel')).toContainText('No data available');
  await expect(dialog.getByLabel('0 related')).toBeVisible();

  // A tall window shows it above the tabs and drops the Graph tab.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(dialog.getByRole('tab', { name: 'Graph' })).toHaveCount(0);
  await expect(dialog.getByRole('figure', { name: 'Health Overview' })).toBeVisible();
});

test('the auto-refresh setting refetches the checks on its interval and is remembered', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await expect(selectMenu(page, 'Auto refresh')).toHaveText('none');
  await chooseOption(page, 'Auto refresh', '15s');
  const started = Date.now();
  await page.waitForRequest((request) => request.url().includes('/api/canary/api/summary'), {
    timeout: 25_000,
  });
  expect(Date.now() - started).toBeGreaterThan(10_000);
  await page.reload();
  await expect(selectMenu(page, 'Auto refresh')).toHaveText('15s');
  await chooseOption(page, 'Auto refresh', 'none');
  await page.reload();
  await expect(selectMenu(page, 'Auto refresh')).toHaveText('none');
});
