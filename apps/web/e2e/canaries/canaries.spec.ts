import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

const list = (page: Page) => page.getByRole('table', { name: 'Health checks' });
const specTab = (page: Page) => page.getByRole('tabpanel', { name: 'Spec' });
const saveFailed = (page: Page) => page.getByRole('alert', { name: 'Save failed' });

/** Replaces the CodeMirror document (labelled 'Spec') with the given text. */
async function replaceCode(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Spec' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function canaryId(api: APIRequestContext, name: string): Promise<string | undefined> {
  const response = await api.get(
    `/api/db/canaries?select=id&name=eq.${encodeURIComponent(name)}&deleted_at=is.null`,
  );
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }[])[0]?.id;
}

async function getCanary(api: APIRequestContext, id: string) {
  const response = await api.get(`/api/canaries/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { name: string; source: string; spec: Record<string, unknown> };
}

test.describe.configure({ mode: 'serial' });

test('an admin creates an HTTP check with the form, edits it as YAML, sees validation and server errors, and deletes it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const name = `e2e-http-${Date.now()}`;
  const target = `${baseURL}/healthz`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  // The Settings entry leads to the list.
  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Health Checks' })
    .click();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  await expect(page.getByRole('heading', { name: 'Health Checks', level: 2 })).toBeVisible();
  await expect(list(page).getByRole('link', { name: 'opsdeck-self', exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Add Health Check' }).click();
  await expect(page).toHaveURL(/\/settings\/canaries\/new$/);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('default');
  await page
    .getByRole('group', { name: 'Check type' })
    .getByRole('button', { name: 'HTTP', exact: true })
    .click();
  await expect(page.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');

  // Save with the required fields empty: the form says what is missing and nothing is sent.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const url = specTab(page).getByLabel('URL', { exact: true });
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(specTab(page).getByText('This field is required')).toHaveCount(2);
  await expect(page).toHaveURL(/\/settings\/canaries\/new$/);
  expect(await canaryId(page.request, name)).toBeUndefined();

  await specTab(page).getByLabel('Check name').fill('healthz');
  await url.fill(target);
  await specTab(page).getByRole('checkbox', { name: '200', exact: true }).check();
  await specTab(page).getByLabel('Threshold (ms)').fill('soon');
  await expect(specTab(page).getByText('This field must be a number')).toBeVisible();
  await specTab(page).getByLabel('Threshold (ms)').fill('2000');
  await expect(specTab(page).getByText('This field is required')).toHaveCount(0);

  // The Code tab shows what the form wrote.
  await page.getByRole('tab', { name: 'Code' }).click();
  const code = page.getByRole('textbox', { name: 'Spec' });
  await expect(code).toContainText(`url: ${target}`);
  await expect(code).toContainText('thresholdMillis: 2000');
  await expect(code).toContainText('- 200');
  await page.getByRole('tab', { name: 'Form' }).click();
  await expect(url).toHaveValue(target);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  const row = list(page).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('http');
  await expect(row).toContainText('UI');
  const id = await canaryId(page.request, name);
  expect(id).toBeDefined();

  // Open it again: the HTTP form, name and namespace fixed.
  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/canaries/${id}$`));
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Namespace', { exact: true })).toBeDisabled();
  await expect(specTab(page).getByLabel('URL', { exact: true })).toHaveValue(target);

  // A spec the server refuses: its message and field path show next to the form.
  await page.getByRole('tab', { name: 'Code' }).click();
  await replaceCode(
    page,
    `schedule: every now and then\nhttp:\n  - name: healthz\n    url: ${target}\n    responseCodes: [200]\n`,
  );
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(saveFailed(page)).toContainText('spec.schedule');
  await expect(page).toHaveURL(new RegExp(`/settings/canaries/${id}$`));

  await replaceCode(
    page,
    `schedule: '@every 30s'\nhttp:\n  - name: healthz\n    url: ${target}\n    responseCodes: [200]\n    description: edited as YAML\n`,
  );
  // The form follows the code.
  await page.getByRole('tab', { name: 'Form' }).click();
  await expect(specTab(page).getByLabel('Description')).toHaveValue('edited as YAML');
  await expect(selectMenu(specTab(page), 'Schedule')).toHaveText('@every 30s');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  // The first update's toast may still show (toasts last 5 s); the list page below proves this one.
  await expect(page.getByText(`${name} updated successfully`).last()).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  const stored = await getCanary(page.request, id!);
  expect(stored.spec).toEqual({
    schedule: '@every 30s',
    http: [{ name: 'healthz', url: target, responseCodes: [200], description: 'edited as YAML' }],
  });

  // Run its check now (a canary run writes job history), then read the editor's Job History tab.
  const checks = await page.request.get(`/api/db/checks?select=id&canary_id=eq.${id}&deleted_at=is.null`);
  const [check] = (await checks.json()) as { id: string }[];
  expect(check, 'the saved canary has its check').toBeDefined();
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'opsdeck_csrf')?.value;
  const run = await page.request.post(`/api/canary/run/check/${check!.id}`, {
    headers: { 'X-CSRF-Token': csrf ?? '' },
  });
  expect(run.status(), await run.text()).toBe(200);
  await page.reload();
  await expect(list(page).getByRole('row').filter({ hasText: name })).toContainText('1 healthy');
  await page.goto(`/settings/canaries/${id}?tab=job-history`);
  await expect(page.getByRole('tab', { name: 'Job History' })).toHaveAttribute('aria-selected', 'true');
  const history = page.getByRole('table', { name: 'Job History' });
  await expect(history.locator('tbody tr').first()).toContainText('SUCCESS');

  await page.getByRole('tab', { name: 'Spec' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete ${name}?`);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`${name} deleted successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  await expect(list(page).getByRole('link', { name: 'opsdeck-self', exact: true })).toBeVisible();
  await expect(list(page).getByText(name)).toHaveCount(0);
  expect(await canaryId(page.request, name)).toBeUndefined();
});

test('the Folder form edits an SFTP folder: host, port 22 by default, username round trip, the password kept and shown masked', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `e2e-sftp-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/canaries/new');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page
    .getByRole('group', { name: 'Check type' })
    .getByRole('button', { name: 'Folder', exact: true })
    .click();
  await expect(page.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');
  const form = specTab(page);
  await expect(form.getByRole('heading', { name: 'SFTP' })).toBeVisible();
  await form.getByLabel('Check name').fill('uploads');
  await form.getByLabel('Path', { exact: true }).fill('/upload');

  // Only the host given: the other SFTP fields become required, the port shows its default.
  await form.getByLabel('Host', { exact: true }).fill('sftp.example.com');
  await expect(form.getByLabel('Port', { exact: true })).toHaveValue('22');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/settings\/canaries\/new$/);

  await form.getByLabel('Username', { exact: true }).fill('backup');
  const password = form.getByLabel('Password', { exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  await password.fill('p4ss word');
  await form.getByLabel('Min count').fill('1');
  await page.getByRole('tab', { name: 'Code' }).click();
  const code = page.getByRole('textbox', { name: 'Spec' });
  await expect(code).toContainText('sftpConnection:');
  await expect(code).toContainText('port: 22');
  await page.getByRole('tab', { name: 'Form' }).click();
  await form.getByLabel('Port', { exact: true }).fill('2222');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`${name} updated successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  const id = await canaryId(page.request, name);
  expect(id).toBeDefined();
  const stored = await getCanary(page.request, id!);
  // The password is stored sealed and reads back masked, even for the admin who wrote it.
  expect(stored.spec).toEqual({
    schedule: '@every 5m',
    folder: [
      {
        name: 'uploads',
        path: '/upload',
        minCount: 1,
        sftpConnection: { host: 'sftp.example.com', port: 2222, username: 'backup', password: '********' },
      },
    ],
  });
  expect(JSON.stringify(stored)).not.toContain('p4ss word');

  // Reopened, the Folder form shows what was saved.
  await list(page).getByRole('row').filter({ hasText: name }).getByRole('link', { name }).click();
  await expect(page.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');
  await expect(form.getByLabel('Path', { exact: true })).toHaveValue('/upload');
  await expect(form.getByLabel('Host', { exact: true })).toHaveValue('sftp.example.com');
  await expect(form.getByLabel('Port', { exact: true })).toHaveValue('2222');
  await expect(form.getByLabel('Username', { exact: true })).toHaveValue('backup');
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue('********');

  // Clearing the SFTP fields makes it a local folder again.
  for (const label of ['Host', 'Port', 'Username', 'Password'])
    await form.getByLabel(label, { exact: true }).fill('');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/canaries$/);
  expect((await getCanary(page.request, id!)).spec).toEqual({
    schedule: '@every 5m',
    folder: [{ name: 'uploads', path: '/upload', minCount: 1 }],
  });
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'opsdeck_csrf')?.value;
  const removed = await page.request.delete(`/api/canaries/${id}`, {
    headers: { 'X-CSRF-Token': csrf ?? '' },
  });
  expect(removed.status()).toBe(204);
});

test("the health panel's Edit link opens the check's canary in the editor", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/canaries');
  const response = await page.request.get('/api/db/checks?select=id,canary_id&name=eq.closed-port');
  expect(response.status(), await response.text()).toBe(200);
  const [check] = (await response.json()) as { id: string; canary_id: string }[];
  expect(check).toBeDefined();

  await page.goto(`/health?checkId=${check!.id}&timeRange=1h`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'closed-port' })).toBeVisible();
  await dialog.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/canaries/${check!.canary_id}\\?`));
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('opsdeck-self');
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('demo');
  // The canary holds http and tcp checks: the Edit link opens it on the clicked check's type.
  await expect(page).toHaveURL(/\?type=tcp$/);
  await expect(page.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');
  await expect(specTab(page).getByLabel('Endpoint')).toHaveValue('localhost:1');
  // Back returns to the picker; choosing HTTP shows the canary's HTTP check.
  await page.getByRole('button', { name: 'Back' }).click();
  await page
    .getByRole('group', { name: 'Check type' })
    .getByRole('button', { name: 'HTTP', exact: true })
    .click();
  await expect(specTab(page).getByLabel('URL', { exact: true })).toHaveValue(/\/healthz$/);
});

test('a file-owned health check is read-only, in the page and at the API', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  if (!baseURL) throw new Error('no baseURL');
  const admin = await apiSession(baseURL, ADMIN.email, ADMIN.password);
  const name = `e2e-file-${Date.now()}`;
  const created = await admin.post('/api/canaries', {
    headers: await csrfHeader(admin),
    data: { name, spec: { schedule: '@every 1h', tcp: [{ name: 'port', endpoint: 'localhost:1' }] } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // As if `opsdeck apply` or the watched directory had stored it.
  const owned = await admin.patch(`/api/db/canaries?id=eq.${id}`, {
    headers: await csrfHeader(admin),
    data: { source: 'resources/e2e-file.yaml' },
  });
  expect(owned.ok(), await owned.text()).toBe(true);

  try {
    await signIn(page, ADMIN.email, ADMIN.password, `/settings/canaries/${id}`);
    await expect(page.getByRole('note')).toContainText('managed by resources/e2e-file.yaml');
    await expect(specTab(page).getByLabel('Endpoint')).toHaveValue('localhost:1');
    await expect(specTab(page).getByLabel('Endpoint')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Update', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();

    const refused = await admin.put(`/api/canaries/${id}`, {
      headers: await csrfHeader(admin),
      data: { spec: { tcp: [{ name: 'port', endpoint: 'localhost:2' }] } },
    });
    expect(refused.status()).toBe(409);
  } finally {
    await admin.patch(`/api/db/canaries?id=eq.${id}`, {
      headers: await csrfHeader(admin),
      data: { source: 'UI' },
    });
    await admin.delete(`/api/canaries/${id}`, { headers: await csrfHeader(admin) });
    await admin.dispose();
  }
});

test('a viewer sees the health checks without Save or Delete, and the API refuses their write', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  if (!baseURL) throw new Error('no baseURL');
  const admin = await apiSession(baseURL, ADMIN.email, ADMIN.password);
  const viewer = {
    email: 'canary-viewer@example.com',
    password: 'canary-viewer-password-1',
    first: 'Can',
    last: 'Ary',
  };
  await createViewer(baseURL, admin, viewer);
  await admin.dispose();

  await signIn(page, viewer.email, viewer.password, '/settings/canaries');
  await expect(list(page).getByRole('link', { name: 'opsdeck-self', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Health Check' })).toHaveCount(0);

  await list(page).getByRole('link', { name: 'opsdeck-self', exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('opsdeck-self');
  // Written http first; stored as jsonb (tcp first): it still opens on HTTP.
  await expect(specTab(page).getByLabel('URL', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  const id = page.url().split('/').pop()!;
  const session = await apiSession(baseURL, viewer.email, viewer.password);
  const write = await session.put(`/api/canaries/${id}`, {
    headers: await csrfHeader(session),
    data: { spec: { schedule: '@every 1m' } },
  });
  expect(write.status()).toBe(403);
  const create = await session.post('/api/canaries', {
    headers: await csrfHeader(session),
    data: { name: 'viewer-made', spec: { schedule: '@every 1m' } },
  });
  expect(create.status()).toBe(403);
  await session.dispose();
});
