import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';

test.describe.configure({ timeout: 90_000 });

test('an agent is added with its token shown once, listed, and deleted (its token ends)', async ({
  page,
}) => {
  const name = `edge-${Date.now().toString(36)}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/agents');
  await page.getByRole('button', { name: 'Add Agent' }).click();
  const form = page.getByRole('dialog', { name: 'Add Agent' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description').fill('runs checks at the edge');
  await form.getByLabel('Properties').fill('region=eu-west');
  await form.getByRole('button', { name: 'Save' }).click();

  const created = page.getByRole('dialog', { name: 'Agent Created' });
  const token = await created.getByLabel('Access token').inputValue();
  expect(token).toMatch(/^opsdeck_/);
  await expect(created.getByLabel('Command')).toHaveValue(new RegExp(`Authorization: Bearer ${token}`));
  const whoami = await page.request.get('/api/auth/whoami', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(whoami.status()).toBe(200);
  expect(((await whoami.json()) as { payload: { user: { name: string } } }).payload.user.name).toBe(
    `agent-${name}`,
  );
  await created.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('runs checks at the edge');
  await expect(row).toContainText('region=eu-west');
  await expect(row).toContainText('Never');
  // Shown once: not on the page any more.
  expect(await page.content()).not.toContain(token);

  await row.getByRole('button', { name: `Delete agent ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Are you sure you want to delete the agent '${name}'?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} deleted successfully`)).toBeVisible();
  await expect(row).toHaveCount(0);
  const revoked = await page.request.get('/api/auth/whoami', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(revoked.status()).toBe(401);
});
