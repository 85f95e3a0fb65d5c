import { applicationReportSchema } from '@opsdeck/contracts';
import { expect as baseExpect, test } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

const suffix = Date.now();
const appName = `e2e-shop-${suffix}`;
const label = `e2e-shop-${suffix}`;

test.beforeAll(async () => {
  await sql(
    `WITH api AS (
       INSERT INTO config_items (name, type, config_class, health, status, labels)
       VALUES ('shop-api', 'Kubernetes::Deployment', 'Deployment', 'healthy', 'Running', jsonb_build_object('app', $1::text))
       RETURNING id),
     store AS (
       INSERT INTO config_items (name, type, config_class, health, labels)
       VALUES ('shop-db', 'AWS::RDS::DBInstance', 'Database', 'unhealthy', jsonb_build_object('app', $1::text))
       RETURNING id)
     INSERT INTO config_changes (config_id, change_type, severity, summary)
     SELECT id, 'Deployment', 'info', 'image shop:1.2' FROM api
     UNION ALL SELECT id, 'BackupCompleted', 'info', 'nightly snapshot' FROM store`,
    [label],
  );
  await sql(`INSERT INTO applications (name, namespace, spec) VALUES ($1, 'e2e', $2::jsonb)`, [
    appName,
    JSON.stringify({
      description: 'The e2e shop',
      configs: [{ labelSelector: `app=${label}` }],
      sections: [{ title: 'Overview' }],
    }),
  ]);
});

test('the application list opens a printable audit report, also served as JSON', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/applications');
  await expect(page.getByRole('heading', { name: 'Applications', level: 1 })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: appName });
  await expect(row).toContainText('unhealthy');
  await row.getByRole('link', { name: appName }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/e2e/${appName}$`));

  const report = page.getByRole('article', { name: `Audit report ${appName}` });
  await expect(report.getByRole('heading', { name: appName })).toBeVisible();
  await expect(report).toContainText('The e2e shop');
  const configs = report.getByRole('table', { name: 'Config items' });
  await expect(configs.getByRole('row')).toHaveCount(3);
  await expect(configs).toContainText('shop-db');
  await expect(report.getByRole('table', { name: 'Recent changes' })).toContainText('image shop:1.2');
  await expect(report.getByRole('table', { name: 'Backups and restores' })).toContainText('nightly snapshot');
  await expect(report.getByRole('table', { name: 'Role access' })).toContainText('viewer');
  await expect(report.getByRole('button', { name: 'Print' })).toBeVisible();

  await chooseOption(page, 'Range', 'Last 30 days');
  await expect(page).toHaveURL(/range=30d/);
  await expect(report).toContainText('Last 30 days');

  // Printing shows the report alone: the print stylesheet hides the rest of the page.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Sidebar' })).toBeHidden();
  await expect(report.getByRole('table', { name: 'Config items' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  const json = await page.request.get(`/api/application/e2e/${appName}`);
  expect(json.status()).toBe(200);
  const body = applicationReportSchema.parse(await json.json());
  expect(body.configs.map((config) => config.name).sort()).toEqual(['shop-api', 'shop-db']);
  expect(body.health).toBe('unhealthy');
});
