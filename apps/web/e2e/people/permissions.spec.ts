import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

// Each journey signs in and saves through the built app: slow on a loaded machine.
test.describe.configure({ timeout: 180_000 });

/** A new viewer, registered and given the role by the admin session; its full name. */
async function newViewer(
  baseURL: string,
  admin: APIRequestContext,
  first: string,
  last: string,
): Promise<{ email: string; password: string; name: string }> {
  const stamp = Date.now().toString(36);
  const person = {
    email: `${last.toLowerCase()}-${stamp}@example.com`,
    password: `${last.toLowerCase()}-password-123`,
    first,
    last: `${last}${stamp}`,
  };
  await createViewer(baseURL, admin, person);
  return { email: person.email, password: person.password, name: `${person.first} ${person.last}` };
}

test('a permission added on /settings/permissions reaches its subject; it is edited and deleted there', async ({
  page,
  baseURL,
}) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const person = await newViewer(baseURL!, admin, 'Gina', 'Granted');
  await admin.dispose();
  const name = person.name;
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

test('a Global notification permission narrowed by name, made on the page, changes which notifications its subject reads', async ({
  page,
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const person = await newViewer(baseURL!, admin, 'Noor', 'Paged');
  const shown = `ops-pager-${stamp}`;
  const hidden = `exec-pager-${stamp}`;
  for (const name of [shown, hidden]) {
    const response = await admin.post('/api/db/notifications', {
      headers: { ...(await csrfHeader(admin)), Prefer: 'return=minimal' },
      data: {
        name,
        namespace: 'default',
        title: 'Check failed',
        events: ['check.failed'],
        spec: { events: ['check.failed'], to: { email: 'oncall@example.com' } },
        source: 'UI',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await admin.dispose();
  const viewer = await apiSession(baseURL!, person.email, person.password);
  const readable = async () => {
    const response = await viewer.get(
      `/api/db/notifications?select=name&name=in.(${shown},${hidden})&order=name`,
    );
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { name: string }[]).map((row) => row.name);
  };
  // A viewer reads every notification through the role.
  expect(await readable()).toEqual([hidden, shown]);

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/permissions');
  await page.getByRole('button', { name: 'Add Permission' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Permission' });
  await modal.getByRole('tab', { name: 'Person' }).click();
  await chooseOption(modal, 'Person', person.name);
  await modal.getByRole('tab', { name: 'Global' }).click();
  await chooseOption(modal, 'Object', 'notification');
  await modal.getByLabel('Notification name', { exact: true }).fill(`exec-pager-*${stamp}`);
  await modal.getByLabel('Deny').check();
  await modal.getByLabel('Description').fill(`Noor may not see ${hidden}`);
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permission added')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `Noor may not see ${hidden}` });
  await expect(row).toContainText(`Notifications: name=exec-pager-*${stamp}`);
  await expect(row).toContainText('deny');

  // The Deny hides the matching notification from the subject's next request, and only it.
  expect(await readable()).toEqual([shown]);

  await row.click();
  const edit = page.getByRole('dialog', { name: 'Edit Permission' });
  await expect(edit.getByLabel('Notification name', { exact: true })).toHaveValue(`exec-pager-*${stamp}`);
  await edit.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Permission deleted')).toBeVisible();
  expect(await readable()).toEqual([hidden, shown]);
  await viewer.dispose();
});
