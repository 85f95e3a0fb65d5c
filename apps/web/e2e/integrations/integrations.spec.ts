import { expect as baseExpect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Page object of /settings/integrations and its Add Integration wizard. */
class IntegrationsScreen {
  constructor(readonly page: Page) {}

  get table() {
    return this.page.getByRole('table', { name: 'Integrations' });
  }

  dialog(choice?: string) {
    return this.page.getByRole('dialog', {
      name: choice ? `Add Integration - ${choice}` : 'Add Integration',
    });
  }

  async openWizard(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Integration' }).click();
    // The dialog element itself has no box (its panel is fixed): look at its content.
    await expect(this.dialog().getByRole('heading', { name: 'Add via GitOps' })).toBeVisible();
  }

  async replaceCode(label: string, text: string): Promise<void> {
    const editor = this.page.getByRole('textbox', { name: label });
    await editor.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
  }
}

test('the wizard writes a Flux manifest and a helm command for a GitOps chart, and Back returns to the options', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const screen = new IntegrationsScreen(page);
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/integrations');
  await expect(page.getByRole('heading', { name: 'Integrations', level: 2 })).toBeVisible();
  await screen.openWizard();
  const options = screen.dialog();
  for (const name of ['AWS', 'Azure', 'Prometheus', 'Flux', 'Kubernetes', 'Mission Control'])
    await expect(
      options.getByRole('region', { name: 'Add via GitOps' }).getByRole('button', { name }),
    ).toBeVisible();
  for (const name of ['Custom Topology', 'Catalog Scraper', 'Log Backends'])
    await expect(
      options.getByRole('region', { name: 'Add Directly' }).getByRole('button', { name }),
    ).toBeVisible();

  await options.getByRole('button', { name: 'Kubernetes' }).click();
  const form = screen.dialog('Kubernetes');
  await expect(form.getByLabel('Namespace')).toHaveValue('mission-control');
  await expect(form.getByLabel('Interval')).toHaveValue('30m');
  await expect(form.getByRole('status', { name: 'Values schema' })).toContainText('checked against');

  const flux = form.getByLabel('Flux manifest');
  await expect(flux).toContainText('kind: HelmRepository');
  await expect(flux).toContainText('kind: HelmRelease');
  await expect(flux).toContainText('chart: mission-control-kubernetes');
  await expect(flux).toContainText('clusterName: my-cluster');
  await expect(flux).toContainText('interval: 30m');
  await expect(form.getByRole('note')).toContainText('Kubernetes chart');

  await form.getByLabel('Namespace').fill('ops');
  await screen.replaceCode('Values', 'clusterName: prod-eu\n');
  await expect(flux).toContainText('namespace: ops');
  await expect(flux).toContainText('clusterName: prod-eu');

  await form.getByRole('tab', { name: 'Helm CLI' }).click();
  const helm = form.getByLabel('Helm command');
  await expect(helm).toContainText('helm repo add flanksource https://flanksource.github.io/charts');
  await expect(helm).toContainText('helm upgrade --install');
  await expect(helm).toContainText('flanksource/mission-control-kubernetes');
  await expect(helm).toContainText('--namespace ops');
  await expect(helm).toContainText('clusterName: prod-eu');
  await expect(form.getByRole('note')).toContainText('Kubernetes chart');

  // A bad interval names the field and holds the output back.
  await form.getByLabel('Interval').fill('soon');
  await expect(form.getByText('Interval must be a duration such as 30m, 1h or 90s')).toBeVisible();
  await expect(helm).toBeHidden();
  await expect(form.getByRole('button', { name: 'Done' })).toBeDisabled();
  await form.getByLabel('Interval').fill('1h');
  await expect(form.getByRole('button', { name: 'Done' })).toBeEnabled();

  await form.getByRole('button', { name: 'Back' }).click();
  await expect(screen.dialog().getByRole('button', { name: 'Prometheus' })).toBeVisible();
  await screen.dialog().getByRole('button', { name: 'Prometheus' }).click();
  await expect(screen.dialog('Prometheus').getByLabel('Flux manifest')).toContainText(
    'chart: mission-control-prometheus',
  );
  await screen.dialog('Prometheus').getByRole('button', { name: 'Done' }).click();
  await expect(screen.dialog('Prometheus')).toBeHidden();
});

test('a Custom Topology made from the wizard lands back on the list, which opens its editor', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const screen = new IntegrationsScreen(page);
  const name = `e2e-integration-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/integrations');
  await screen.openWizard();
  await screen.dialog().getByRole('button', { name: 'Custom Topology' }).click();
  await expect(page).toHaveURL(/\/settings\/topologies\/new\?returnTo=%2Fsettings%2Fintegrations$/);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`${name} created successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/integrations$/);

  const row = screen.table.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Topology');
  await expect(row).toContainText('default');

  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/settings\/integrations\/topologies\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  // Settings §2.4: after saving an edited topology the user goes to /settings/integrations.
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/integrations$/);
});

test('the list shows each integration schedule (a scraper reads it from its spec)', async ({ page }) => {
  const screen = new IntegrationsScreen(page);
  // Sorted by name, 50 a page: a leading 0 keeps it on the first page.
  const name = `0e2e-scheduled-${Date.now()}`;
  await sql(
    `INSERT INTO config_scrapers (name, spec) VALUES ($1, '{"file": [], "schedule": "@every 30m"}')`,
    [name],
  );
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/integrations');
  await expect(screen.table.getByRole('columnheader', { name: 'Schedule' })).toBeVisible({ timeout: 20_000 });
  const row = screen.table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('@every 30m');
});
