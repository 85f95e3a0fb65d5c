import { expect as baseExpect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

// Settings §2.4: "after saving an edited topology the user goes to /settings/integrations"; a new
// one has no Cancel or Delete, an existing one has both.
test('updating an existing topology returns to the integrations page', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const name = `e2e-edit-${Date.now()}`;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const created = await admin.post('/api/db/topologies', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: { name, spec: { type: 'E2EEdit', components: [{ name: 'one', type: 'Service' }] } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [{ id }] = (await created.json()) as { id: string }[];
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/topologies/new');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  await page.goto(`/settings/topologies/${id}`);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/integrations$/);
});
