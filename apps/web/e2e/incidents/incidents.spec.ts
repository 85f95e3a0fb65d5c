import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

async function personName(api: APIRequestContext): Promise<{ id: string; name: string }> {
  const whoami = (await (await api.get('/api/auth/whoami')).json()) as { payload: { user: { id: string } } };
  const id = whoami.payload.user.id;
  const rows = (await (await api.get(`/api/db/people?select=id,name&id=eq.${id}`)).json()) as {
    id: string;
    name: string;
  }[];
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const changelog = (page: Page) => page.getByRole('list', { name: 'Changelog' });

test('a writer creates an incident, adds a responder, builds hypotheses, comments and resolves it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const me = await personName(admin);
  await admin.dispose();
  const title = `Checkout latency ${Date.now()}`;

  await signIn(page, ADMIN.email, ADMIN.password, '/incidents');
  await page.getByRole('button', { name: 'Create Incident' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Incident' });
  // A blank title is refused before anything is sent.
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await dialog.getByLabel('Title').fill(title);
  await chooseOption(dialog, 'Severity', 'high');
  await chooseOption(dialog, 'Type', 'performance');
  await dialog.getByLabel('Description').fill('p99 above 2s');
  await dialog.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/incidents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  // Spec core §4/§6: a new incident is open and its creator is commander and communicator.
  await expect(selectMenu(page, 'Status')).toHaveText('open');
  await expect(selectMenu(page, 'Commander')).toHaveText(me.name);
  await expect(selectMenu(page, 'Communicator')).toHaveText(me.name);
  await expect(changelog(page)).toContainText('incident.created');
  await expect(changelog(page).locator('li', { hasText: 'incident.created' })).toContainText(me.name);

  await chooseOption(page, 'New responder', me.name);
  await page.getByRole('button', { name: 'Add responder' }).click();
  await expect(page.getByRole('list', { name: 'Responders' })).toContainText(me.name);
  await expect(changelog(page).locator('li', { hasText: 'responder.created' })).toContainText(me.name);

  await page.getByLabel('New root hypothesis').fill('Database saturated');
  await page.getByRole('button', { name: 'Add root hypothesis' }).click();
  const root = page.getByRole('listitem', { name: 'root hypothesis Database saturated' });
  await expect(root).toBeVisible();
  await expect(selectMenu(page, 'Status of Database saturated')).toHaveText('possible');

  await page.getByLabel('New factor under Database saturated').fill('Missing index');
  await page.getByRole('button', { name: 'Add factor' }).click();
  const factor = root.getByRole('listitem', { name: 'factor hypothesis Missing index' });
  await expect(factor).toBeVisible();

  await page.getByLabel('New solution under Missing index').fill('Add the index');
  await page.getByRole('button', { name: 'Add solution' }).click();
  await expect(factor.getByRole('listitem', { name: 'solution hypothesis Add the index' })).toBeVisible();
  for (const idea of ['Database saturated', 'Missing index', 'Add the index']) {
    await expect(
      changelog(page).locator('li', { hasText: 'hypothesis.created' }).filter({ hasText: idea }),
    ).toContainText(me.name);
  }

  const patched = page.waitForResponse(
    (response) => response.url().includes('/api/db/hypotheses') && response.request().method() === 'PATCH',
  );
  await chooseOption(page, 'Status of Missing index', 'likely');
  const patch = await patched;
  expect(patch.status(), await patch.text()).toBeLessThan(300);
  await expect(selectMenu(page, 'Status of Missing index')).toHaveText('likely');
  await expect(changelog(page)).toContainText('hypothesis.status_updated');

  const factorComments = factor.getByRole('list', { name: 'Comments' }).first();
  await factor.getByLabel('New comment').first().fill('Seq scans on orders');
  await factor.getByRole('button', { name: 'Comment' }).first().click();
  await expect(factorComments).toContainText('Seq scans on orders');
  await expect(factorComments).toContainText(me.name);
  await expect(
    changelog(page)
      .locator('li', { hasText: 'responder.commented' })
      .filter({ hasText: 'Seq scans on orders' }),
  ).toContainText(me.name);

  const solution = factor.getByRole('listitem', { name: 'solution hypothesis Add the index' });
  await solution.getByLabel('New evidence').fill('Query plan uses the index');
  await solution.getByLabel('Definition of done').check();
  await solution.getByRole('button', { name: 'Add evidence' }).click();
  const evidence = solution
    .getByRole('list', { name: 'Evidence' })
    .locator('li', { hasText: 'Query plan uses the index' });
  await expect(evidence).toContainText('Definition of done');
  for (const type of ['evidence.created', 'evidence.done_definition_added']) {
    await expect(
      changelog(page).locator('li', { hasText: type }).filter({ hasText: 'Query plan uses the index' }),
    ).toContainText(me.name);
  }
  await evidence.getByLabel('Done').click();
  await expect(evidence.getByLabel('Done')).toBeChecked();
  await page.reload();
  await expect(
    page
      .getByRole('list', { name: 'Evidence' })
      .locator('li', { hasText: 'Query plan uses the index' })
      .getByLabel('Done'),
  ).toBeChecked();

  for (const status of ['investigating', 'mitigated', 'resolved'] as const) {
    await chooseOption(page, 'Status', status);
    const entry = changelog(page)
      .locator('li', { hasText: 'incident.status_updated' })
      .filter({ hasText: status });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(me.name);
  }
  // The durations come from the status changes just made.
  await expect(page.getByText('Time to resolve').locator('..')).not.toContainText('-');

  // Title, severity and type stay editable; a responder can be removed.
  await page.getByRole('button', { name: 'Edit title' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill(`${title} (db)`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: `${title} (db)`, level: 1 })).toBeVisible();
  await chooseOption(page, 'Severity', 'critical');
  await expect(selectMenu(page, 'Severity')).toHaveText('critical');
  await chooseOption(page, 'Type', 'availability');
  await expect(selectMenu(page, 'Type')).toHaveText('availability');
  await page.getByRole('button', { name: `Remove ${me.name}` }).click();
  await expect(page.getByText('No responders')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: `${title} (db)`, level: 1 })).toBeVisible();
  await expect(selectMenu(page, 'Severity')).toHaveText('critical');
  await expect(selectMenu(page, 'Type')).toHaveText('availability');
  await expect(page.getByText('No responders')).toBeVisible();

  await page.goto(`/incidents?status=resolved&severity=critical`);
  await page.getByRole('searchbox', { name: 'Search incidents' }).fill(title);
  await page.getByRole('searchbox', { name: 'Search incidents' }).press('Enter');
  await expect(
    page.getByRole('table', { name: 'Incidents' }).getByRole('link', { name: title }),
  ).toBeVisible();
  await chooseOption(page, 'Severity', 'low');
  await expect(page).toHaveURL(/severity=low/);
  await expect(page.getByText('No data available')).toBeVisible();
});

test('the list filters by type, sorts by a column and pages on the server', async ({ page, baseURL }) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const stamp = `Paging ${Date.now()}`;
  // Created one after another: the default order (newest first) is 6 … 1.
  for (const n of [1, 2, 3, 4, 5, 6]) {
    const created = await admin.post('/api/db/incidents', {
      headers: await csrfHeader(admin),
      data: { title: `${stamp} ${n}`, severity: 'low', type: n <= 2 ? 'security' : 'cost', description: '' },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await admin.dispose();

  await signIn(
    page,
    ADMIN.email,
    ADMIN.password,
    `/incidents?search=${encodeURIComponent(stamp)}&pageSize=5`,
  );
  const table = page.getByRole('table', { name: 'Incidents' });
  const titles = table.getByRole('link', { name: new RegExp(`^${stamp} `) });
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(titles).toHaveText([6, 5, 4, 3, 2].map((n) => `${stamp} ${n}`));
  await expect(pagination).toContainText('1–5 of 6');
  await pagination.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/pageIndex=1/);
  await expect(titles).toHaveText([`${stamp} 1`]);
  await expect(pagination).toContainText('6–6 of 6');

  await pagination.getByRole('button', { name: 'First page' }).click();
  await table.getByRole('button', { name: 'Title' }).click();
  await expect(page).toHaveURL(/sortBy=title/);
  await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(titles).toHaveText([1, 2, 3, 4, 5].map((n) => `${stamp} ${n}`));
  await table.getByRole('button', { name: 'Title' }).click();
  await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'descending');
  await expect(titles).toHaveText([6, 5, 4, 3, 2].map((n) => `${stamp} ${n}`));

  await chooseOption(page, 'Type', 'security');
  await expect(page).toHaveURL(/type=security/);
  await expect(titles).toHaveText([`${stamp} 2`, `${stamp} 1`]);
  await expect(pagination).toContainText('1–2 of 2');
});

test('the list and the detail header show the short incident id the database gives', async ({
  page,
  baseURL,
}) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const title = `Short id ${Date.now()}`;
  const created = await admin.post('/api/db/incidents', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: { title, severity: 'low', type: 'cost', description: '' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [incident] = (await created.json()) as { id: string; incident_id: string }[];
  await admin.dispose();
  expect(incident!.incident_id).toMatch(/^INC\d{7}$/);

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents?search=${incident!.incident_id}`);
  const row = page.getByRole('table', { name: 'Incidents' }).getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(incident!.incident_id);
  await row.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.locator('header').getByText(incident!.incident_id, { exact: true })).toBeVisible();
});

test('deleting a hypothesis asks first and removes its sub-hypotheses', async ({ page, baseURL }) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const created = await admin.post('/api/db/incidents', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: { title: `Delete tree ${Date.now()}`, severity: 'low', type: 'cost', description: '' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [incident] = (await created.json()) as { id: string }[];
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents/${incident!.id}`);
  await page.getByLabel('New root hypothesis').fill('Noisy neighbour');
  await page.getByRole('button', { name: 'Add root hypothesis' }).click();
  await page.getByLabel('New factor under Noisy neighbour').fill('Shared disk');
  await page.getByRole('button', { name: 'Add factor' }).click();
  await expect(page.getByRole('listitem', { name: 'factor hypothesis Shared disk' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Noisy neighbour' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('listitem', { name: 'root hypothesis Noisy neighbour' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Noisy neighbour' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('listitem', { name: 'root hypothesis Noisy neighbour' })).toHaveCount(0);
  await expect(page.getByRole('listitem', { name: 'factor hypothesis Shared disk' })).toHaveCount(0);
  await expect(page.getByText('No hypotheses yet')).toBeVisible();
});

test('a viewer sees no Create Incident button and the API refuses its incident write', async ({
  page,
  baseURL,
}) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const viewer = {
    email: `incident-viewer-${Date.now()}@example.com`,
    password: 'viewer-password-123',
    first: 'Ivy',
    last: 'Viewer',
  };
  await createViewer(baseURL!, admin, viewer);
  await admin.dispose();

  await signIn(page, viewer.email, viewer.password, '/incidents');
  await expect(page.getByRole('table', { name: 'Incidents' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Incident' })).toHaveCount(0);

  const write = await page.request.post('/api/db/incidents', {
    headers: await csrfHeader(page.request),
    data: { title: 'viewer attempt', severity: 'low', type: 'cost', description: '' },
  });
  expect(write.status()).toBe(403);
});
