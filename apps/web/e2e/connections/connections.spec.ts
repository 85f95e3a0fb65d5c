import { expect, test, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';

// /settings/connections against the real built app: a PostgreSQL connection tested against the
// machine's PostgreSQL (127.0.0.1:5432), and an Email connection whose service URL survives
// saving and reopening.
test.describe.configure({ timeout: 90_000 });

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

async function openNewForm(page: Page, typeLabel: string) {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/connections');
  await page.getByRole('button', { name: 'Add Connection' }).click();
  const picker = page.getByRole('dialog', { name: 'Add Connection' });
  await picker.getByRole('button', { name: typeLabel, exact: true }).click();
  const form = page.getByRole('dialog', { name: `Add Connection - ${typeLabel}` });
  await expect(form.getByRole('heading', { name: `Add Connection - ${typeLabel}` })).toBeVisible();
  return form;
}

test('add a PostgreSQL connection, test it before saving, save it and see its health from the last test', async ({
  page,
}) => {
  const name = unique('e2e-pg');
  const form = await openNewForm(page, 'Postgres');
  await form.getByLabel('Name', { exact: true }).fill(name);
  await expect(form.getByLabel('Namespace', { exact: true })).toHaveValue('default');

  // Required fields say so once left empty.
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('This field is required')).toHaveCount(3);

  await form.getByLabel('URL', { exact: true }).fill('postgres://127.0.0.1:5432/postgres');
  await form.getByLabel('Username', { exact: true }).fill('no_such_role');
  await form.getByLabel('Password', { exact: true }).fill('e2e-password');
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByRole('status')).toContainText('role "no_such_role" does not exist');

  await form.getByLabel('Username', { exact: true }).fill('postgres');
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByRole('status')).toContainText(/connected: PostgreSQL \d+/);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${name} created successfully`)).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Postgres');
  await expect(row).toContainText('not tested');
  await row.click();
  const edit = page.getByRole('dialog', { name: `${name} - Postgres` });
  // An admin may edit connections: the stored password comes back to the form.
  await expect(edit.getByLabel('Password', { exact: true })).toHaveValue('e2e-password');
  await edit.getByRole('button', { name: 'Test' }).click();
  await expect(edit.getByRole('status')).toContainText('connected: PostgreSQL');
  await edit.getByRole('button', { name: 'Close' }).click();
  await expect(row.getByRole('img', { name: 'healthy' })).toHaveAttribute('data-color', 'green');

  await row.click();
  await edit.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(`${name} deleted successfully`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('add an Email connection and see its service URL round-trip', async ({ page }) => {
  const name = unique('e2e-mail');
  const form = await openNewForm(page, 'Email');
  await form.getByLabel('Name', { exact: true }).fill(name);
  // The spec's defaults.
  await expect(form.getByLabel('Port', { exact: true })).toHaveValue('587');
  await expect(selectMenu(form, 'Encryption method')).toHaveText('Auto');
  await expect(selectMenu(form, 'SMTP authentication')).toHaveText('Unknown');

  await form.getByLabel('Host', { exact: true }).fill('smtp.example.com');
  await form.getByLabel('Port', { exact: true }).fill('2525');
  await form.getByLabel('Username', { exact: true }).fill('mailer');
  await form.getByLabel('Password', { exact: true }).fill('mail-secret');
  await form.getByLabel('From Address').fill('ops@example.com');
  await form.getByLabel('From Name').fill('Ops Deck');
  await chooseOption(form, 'Encryption method', 'ExplicitTLS');
  await chooseOption(form, 'SMTP authentication', 'Plain');
  const serviceUrl =
    'smtp://$(username):$(password)@smtp.example.com:2525/?FromAddress=ops%40example.com&FromName=Ops%20Deck&Encryption=ExplicitTLS&Auth=Plain';
  await expect(form.getByLabel('Service URL')).toHaveValue(serviceUrl);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${name} created successfully`)).toBeVisible();

  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await row.click({ timeout: 20_000 });
  const edit = page.getByRole('dialog', { name: `${name} - Email` });
  await expect(edit.getByLabel('Host', { exact: true })).toHaveValue('smtp.example.com');
  await expect(edit.getByLabel('Port', { exact: true })).toHaveValue('2525');
  await expect(edit.getByLabel('From Name')).toHaveValue('Ops Deck');
  await expect(selectMenu(edit, 'Encryption method')).toHaveText('ExplicitTLS');
  await expect(selectMenu(edit, 'SMTP authentication')).toHaveText('Plain');
  await expect(edit.getByLabel('Service URL')).toHaveValue(serviceUrl);
});
