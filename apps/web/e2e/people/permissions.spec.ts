import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer } from '../shell/api';

test.describe.configure({ timeout: 90_000 });

test('a permission added on /settings/permissions reaches its subject; it is edited and deleted there', async ({
  page,
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const person = {
    email: `granted-${stamp}@example.com`,
    password: 'granted-password-123',
    first: 'Gina',
    last: `Granted${stamp}`,
  };
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await createViewer(baseURL!, admin, person);
  await admin.dispose();
  const name = `${person.first} ${person.last}`;
  const viewer = await apiSession(baseURL!, person.email, person.password);
  const granted = async () => {
    const whoami = (await (await viewer.get('/api/auth/whoami')).json()) as {
      payload: { permissions: { subject: string; object: string; action: string; deny: boolean }[] };
    };
    // The rows of the permissions table, not the viewer role's matrix entries.
    return whoami.payload.permissions.filter(
      (entry) => entry.subject !== 'viewer' && entry.object === 'canaries' && !entry.deny,
    );
  };
  expect(await granted()).not.toContainEqual(
    expect.objectContaining({ action: 'create,read,update,delete' }),
  );

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/permissions');
  await page.getByRole('button', { name: 'Add Permission' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Permission' });
  await modal.getByRole('tab', { name: 'Person' }).click();
  await modal.getByLabel('Person').selectOption({ label: name });
  await modal.getByRole('tab', { name: 'Global' }).click();
  await modal.getByLabel('Object').selectOption('canaries');
  await modal.getByLabel('Action').selectOption('create,read,update,delete');
  await modal.getByLabel('Description').fill('Gina manages health checks');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permission added')).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: 'Gina manages health checks' });
  await expect(row).toContainText(name);
  await expect(row).toContainText('canaries');
  await expect(row).toContainText('Admin');
  // The subject holds it on their next request.
  expect(await granted()).toContainEqual(expect.objectContaining({ action: 'create,read,update,delete' }));

  await row.click();
  const edit = page.getByRole('dialog', { name: 'Edit Permission' });
  await expect(edit.getByLabel('Person')).toHaveValue(/.+/);
  await edit.getByLabel('Description').fill('Gina reads health checks');
  await edit.getByLabel('Action').selectOption('read');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permission updated')).toBeVisible();
  const edited = page.getByRole('row').filter({ hasText: 'Gina reads health checks' });
  await expect(edited).toBeVisible();
  expect(await granted()).toContainEqual(expect.objectContaining({ action: 'read' }));

  await edited.click();
  await page.getByRole('dialog', { name: 'Edit Permission' }).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete the permission?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Permission deleted')).toBeVisible();
  await expect(edited).toHaveCount(0);
  expect(await granted()).toEqual([]);
  await viewer.dispose();
});
