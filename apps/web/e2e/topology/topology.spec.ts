import { expect as baseExpect, test, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Replaces the CodeMirror document (labelled 'Spec') with the given text. */
async function replaceCode(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Spec' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

// One topology made through the editor serves the whole journey: editor → Run Now → dashboard →
// component page → snapshot → public card.
test('a topology made in the editor runs, shows on the dashboard, its component page, snapshot and public card', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const name = `e2e-shop-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/topologies');
  await expect(page.getByRole('heading', { name: 'Topologies', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Add Topology' }).click();
  await expect(page).toHaveURL(/\/settings\/topologies\/new$/);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('default');

  // A component without a name is refused with its field path.
  await replaceCode(page, `type: Shop\ncomponents:\n  - type: Service\n`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert', { name: 'Save failed' })).toContainText('spec.components[0].name');

  await replaceCode(
    page,
    [
      'type: Shop',
      `owner: e2e-team`,
      'components:',
      '  - name: api',
      '    type: E2EService',
      '    health: healthy',
      '    labels: {tier: backend}',
      '    properties:',
      '      - {name: port, value: 8080, headline: true}',
      '  - name: workers',
      '    type: E2EGroup',
      '    lookup:',
      '      exec:',
      '        - name: list',
      `          script: echo '[{"name":"worker-1","type":"E2EWorker","health":"unhealthy"},{"name":"worker-2","type":"E2EWorker"}]'`,
      '          display: {expr: stdout}',
      '',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`${name} created successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/topologies$/);

  // Run Now from the editor: the Job History tab shows the successful run.
  await page.getByRole('table', { name: 'Topologies' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Run Now' }).click();
  await expect(page.getByText(`${name} ran: 5 components`)).toBeVisible();
  await expect(page).toHaveURL(/tab=job-history/);
  await expect(page.getByRole('tabpanel').getByText('SUCCESS').first()).toBeVisible();

  // The dashboard: the root card with its headline counts; filters live in the URL.
  await page.goto('/topology');
  const root = card(page, name);
  await expect(root).toBeVisible();
  await expect(root.getByRole('img', { name: 'unhealthy' })).toBeVisible();
  await expect(root).toContainText('1 unhealthy · 1 healthy');
  await chooseOption(page, 'Type', 'Shop');
  await expect(page).toHaveURL(/type=Shop/);
  await expect(card(page, 'this-machine')).toHaveCount(0);
  await expect(root).toBeVisible();
  await chooseOption(page, 'Health', 'healthy');
  await expect(page).toHaveURL(/status=healthy/);
  await expect(page.getByText('No components found')).toBeVisible();
  await chooseOption(page, 'Health', 'All');
  await page.reload();
  await expect(selectMenu(page, 'Type')).toHaveText('Shop');

  // The component page: children as cards and the details panel.
  await root.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/topology\/[0-9a-f-]{36}$/);
  const componentUrl = page.url();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(card(page, 'api')).toContainText('port');
  await expect(card(page, 'api')).toContainText('8080');
  await expect(card(page, 'workers')).toContainText('1 unhealthy · 1 unknown');
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details.getByText('No checks')).toBeVisible();
  await card(page, 'api').getByRole('link', { name: 'api' }).click();
  await expect(page.getByRole('heading', { name: 'api', level: 1 })).toBeVisible();
  await expect(details.getByRole('button', { name: 'tier: backend' })).toBeVisible();
  await expect(page.getByText('No child components')).toBeVisible();

  // The snapshot downloads as a tar.gz.
  await page.goto(componentUrl);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download Snapshot' }).click();
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^snapshot-${name}-.*\\.tar\\.gz$`));

  // The public card: no sidebar, the same card.
  const id = componentUrl.split('/').pop()!;
  await page.goto(`/view/topology/${id}`);
  await expect(card(page, name)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sidebar' })).toHaveCount(0);
});

test('the demo topology of this machine is on the dashboard', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/topology(\?|$)/);
  await expect(
    page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Dashboard' }),
  ).toBeVisible();
  // The first scheduled run comes soon after the server starts.
  await expect(async () => {
    await page.reload();
    await expect(card(page, 'this-machine')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  await card(page, 'this-machine').getByRole('link', { name: 'this-machine' }).click();
  await expect(card(page, 'PostgreSQL')).toBeVisible();
  await expect(card(page, 'Redis')).toBeVisible();
  await expect(card(page, 'MariaDB')).toBeVisible();
});
