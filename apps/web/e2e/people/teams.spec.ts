import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer } from '../shell/api';

test.describe.configure({ timeout: 90_000 });

test('a team is added on the resource editor; members are added and removed on its Members tab', async ({
  page,
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const person = {
    email: `member-${stamp}@example.com`,
    password: 'member-password-123',
    first: 'Mina',
    last: `Member${stamp}`,
  };
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  await createViewer(baseURL!, admin, person);
  await admin.dispose();
  const memberName = `${person.first} ${person.last}`;
  const team = `e2e-team-${stamp}`;

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/teams');
  await page.getByRole('link', { name: 'Add Team' }).click();
  await page.getByLabel('Name').fill(team);
  // Settings §3: a team's icon defaults to 'group'.
  await expect(page.getByLabel('Icon')).toHaveValue('group');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${team} updated successfully`)).toBeVisible();
  const saved = await page.request.get(`/api/db/teams?select=icon&name=eq.${team}`);
  expect(await saved.json()).toEqual([{ icon: 'group' }]);
  await expect(page).toHaveURL(/\/settings\/teams$/);
  await page.getByRole('link', { name: team }).click();

  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page.getByText('Add team members')).toBeVisible();
  await page.getByRole('button', { name: 'Add Members' }).click();
  const modal = page.getByRole('dialog', { name: 'Add users to the team' });
  await expect(modal.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
  await modal.getByRole('checkbox', { name: new RegExp(memberName) }).check();
  await modal.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(`${memberName} added to the team successfully`)).toBeVisible();
  const members = page.getByRole('list', { name: 'Team members' });
  await expect(members).toContainText(memberName);

  // A member is not offered again.
  await page.getByRole('button', { name: 'Add Members' }).click();
  await expect(modal.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(modal.getByRole('checkbox', { name: new RegExp(memberName) })).toHaveCount(0);
  await modal.getByRole('button', { name: 'Cancel' }).click();

  await members.getByRole('button', { name: `Remove user ${memberName}` }).click();
  await expect(page.getByText(`${memberName} removed from team successfully`)).toBeVisible();
  await expect(page.getByText('Add team members')).toBeVisible();
});
