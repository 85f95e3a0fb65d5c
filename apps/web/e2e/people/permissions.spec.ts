import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

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
  await chooseOption(modal, 'Person', name);
  await modal.getByRole('tab', { name: 'Global' }).click();
  await chooseOption(modal, 'Object', 'canaries');
  await chooseOption(modal, 'Action', 'create,read,update,delete');
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
  await expect(selectMenu(edit, 'Person')).toHaveText(name);
  await edit.getByLabel('Description').fill('Gina reads health checks');
  await chooseOption(edit, 'Action', 'read');
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

test('the Notification and Playbook subject tabs save rules that the list shows, a notification linking to its rule', async ({
  page,
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const create = async (relation: string, data: Record<string, unknown>) => {
    const response = await admin.post(`/api/db/${relation}`, {
      headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
      data,
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { id: string }[])[0]!.id;
  };
  const playbook = `restart-${stamp}`;
  const playbookId = await create('playbooks', {
    name: playbook,
    namespace: 'default',
    spec: { actions: [{ name: 'say', exec: { script: 'echo restarting' } }] },
    source: 'UI',
  });
  const notification = `page-${stamp}`;
  const notificationId = await create('notifications', {
    name: notification,
    namespace: 'default',
    title: 'Check failed',
    events: ['check.failed'],
    spec: { events: ['check.failed'], to: { playbook: `default/${playbook}` } },
    source: 'UI',
  });
  const connection = `warehouse-${stamp}`;
  await create('connections', {
    name: connection,
    namespace: 'default',
    type: 'postgres',
    url: 'postgres://127.0.0.1:5432/postgres',
  });

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/permissions');
  await page.getByRole('button', { name: 'Add Permission' }).click();
  let modal = page.getByRole('dialog', { name: 'Add Permission' });
  await modal.getByRole('tab', { name: 'Notification' }).click();
  await chooseOption(modal, 'Notification', notification);
  await modal.getByRole('tablist', { name: 'Resource' }).getByRole('tab', { name: 'Playbook' }).click();
  await chooseOption(modal, 'Playbook', playbook);
  // Playbook resources offer the playbook verbs (settings §3).
  await chooseOption(modal, 'Action', 'playbook:run');
  await modal.getByLabel('Description').fill(`${notification} may run ${playbook}`);
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permission added')).toBeVisible();
  const notificationRow = page.getByRole('row').filter({ hasText: `${notification} may run ${playbook}` });
  await expect(notificationRow).toContainText('playbook:run');
  await expect(notificationRow.getByRole('link', { name: notification })).toHaveAttribute(
    'href',
    `/notifications/rules?id=${notificationId}`,
  );

  await page.getByRole('button', { name: 'Add Permission' }).click();
  modal = page.getByRole('dialog', { name: 'Add Permission' });
  // The subject tabs come first: the second 'Playbook' tab is the resource's.
  await modal.getByRole('tablist', { name: 'Subject' }).getByRole('tab', { name: 'Playbook' }).click();
  await chooseOption(modal, 'Playbook', playbook);
  await modal.getByRole('tab', { name: 'Connection' }).click();
  await chooseOption(modal, 'Connection', connection);
  await expect(modal.getByText('playbook:run')).toHaveCount(0);
  await chooseOption(modal, 'Action', 'read');
  await modal.getByLabel('Description').fill(`${playbook} may use ${connection}`);
  await modal.getByRole('button', { name: 'Save' }).click();
  // The first rule's toast can still be showing: the row below is what proves this save.
  await expect(page.getByText('Permission added').last()).toBeVisible();
  const playbookRow = page.getByRole('row').filter({ hasText: `${playbook} may use ${connection}` });
  await expect(playbookRow).toContainText(playbook);
  await expect(playbookRow).toContainText(`Connection: ${connection}`);

  // Saved as the ecosystem's subjects: the notification and the playbook by id.
  const saved = (await (
    await admin.get(
      `/api/db/permissions?select=subject_type,notification_id,playbook_id,subject,connection_id,action&or=(notification_id.eq.${notificationId},subject.eq.${playbookId})`,
    )
  ).json()) as Record<string, unknown>[];
  expect(saved).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        subject_type: 'notification',
        notification_id: notificationId,
        action: 'playbook:run',
      }),
      expect.objectContaining({ subject_type: 'playbook', subject: playbookId, action: 'read' }),
    ]),
  );
  await admin.dispose();
});
