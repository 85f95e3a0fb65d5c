import { expect, test, type Page } from '@playwright/test';
import { ADMIN, AuthScreens, signIn } from '../fixtures/auth';
import { linkIn, uniqueEmail, waitForMail } from '../fixtures/identity-peer';
import { chooseOption } from '../design/select-menu';

// Invite, email, password, sign-in, role change and deletion in one journey: slow on a loaded machine.
test.describe.configure({ timeout: 240_000 });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

test('an admin invites a user by email; the link sets a password; roles change; deletion ends the session', async ({
  browser,
  page,
}) => {
  const email = uniqueEmail('invited');
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: ADMIN.email })).toContainText('admin');

  await page.getByRole('button', { name: 'Invite User' }).click();
  const form = page.getByRole('dialog', { name: 'Invite User' });
  await form.getByLabel('First Name').fill('Grace');
  await form.getByLabel('Last Name').fill('Hopper');
  await form.getByLabel('Email').fill(email);
  await chooseOption(form, 'Role', 'viewer');
  await form.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await expect(form).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('viewer');
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Never');

  // The invitee, in their own browser, follows the emailed link and chooses a password.
  const mail = await waitForMail(email, 'You have been invited to Opsdeck');
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(linkIn(mail).href);
  await invitee.waitForURL((url) => url.pathname === '/profile-settings');
  const screens = new AuthScreens(invitee);
  await screens.section('Change Password').getByLabel('New password').fill('grace-hopper-password-1');
  await screens.section('Change Password').getByRole('button', { name: 'Save' }).click();
  await expect(invitee.getByText('Your changes have been saved.')).toBeVisible();
  await screens.signOutByApi();
  await signIn(invitee, email, 'grace-hopper-password-1', '/settings/jobs');
  // A viewer: no Settings in the sidebar, and the users page by URL is Unauthorized.
  await expect(invitee.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible({
    timeout: 20_000,
  });
  await expect(sidebar(invitee).getByText('Settings')).toHaveCount(0);
  await invitee.goto('/settings/users');
  await expect(
    invitee.getByText('Unauthorized - You do not have permission to access this page'),
  ).toBeVisible();

  // The admin sees the sign-in, makes Grace an editor: her next request has the new rights.
  await page.reload();
  await expect(row).toContainText('Active', { timeout: 20_000 });
  await row.getByRole('button', { name: 'Change roles of Grace Hopper' }).click();
  const roles = page.getByRole('dialog', { name: 'Roles of Grace Hopper' });
  await roles.getByRole('checkbox', { name: 'viewer' }).uncheck();
  await roles.getByRole('checkbox', { name: 'editor' }).check();
  await roles.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Grace Hopper updated successfully')).toBeVisible();
  await expect(row).toContainText('editor');
  await invitee.goto('/settings/jobs');
  await expect(sidebar(invitee).getByRole('button', { name: 'Settings' })).toBeVisible();

  // Deleting her ends her session at once; the row stays, deactivated.
  await row.getByRole('button', { name: 'Delete user Grace Hopper' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete Grace Hopper?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Grace Hopper deleted successfully')).toBeVisible();
  await expect(row).toContainText('Deactivated');
  expect((await invitee.request.get('/api/auth/whoami')).status()).toBe(401);
  await inviteeContext.close();
});

test('the last admin cannot take away their own admin role', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/users');
  const row = page.getByRole('row').filter({ hasText: ADMIN.email });
  // The e2e server has one admin (ADMIN_EMAIL); no spec makes another.
  await row.getByRole('button', { name: /^Change roles of / }).click();
  const roles = page.getByRole('dialog', { name: /^Roles of / });
  await roles.getByRole('checkbox', { name: 'admin' }).uncheck();
  await roles.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('At least one admin must remain')).toBeVisible();
});
