import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption, selectMenu } from '../design/select-menu';
import { apiSession, createViewer, csrfHeader } from '../shell/api';

async function post<T>(api: APIRequestContext, table: string, data: unknown): Promise<T> {
  const response = await api.post(`/api/db/${table}`, {
    headers: { ...(await csrfHeader(api)), Prefer: 'return=representation' },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as T[])[0]!;
}

async function me(api: APIRequestContext): Promise<{ id: string; name: string }> {
  const whoami = (await (await api.get('/api/auth/whoami')).json()) as { payload: { user: { id: string } } };
  const rows = (await (
    await api.get(`/api/db/people?select=id,name&id=eq.${whoami.payload.user.id}`)
  ).json()) as { id: string; name: string }[];
  return rows[0]!;
}

/** The id of a check by name, once the canary sync has created its row. */
async function checkId(api: APIRequestContext, name: string): Promise<string> {
  let id = '';
  await expect(async () => {
    const rows = (await (
      await api.get(`/api/db/checks?select=id&name=eq.${encodeURIComponent(name)}&deleted_at=is.null`)
    ).json()) as { id: string }[];
    expect(rows).toHaveLength(1);
    id = rows[0]!.id;
  }).toPass({ timeout: 60_000 });
  return id;
}

const changelog = (page: Page) => page.getByRole('list', { name: 'Changelog' });

/**
 * A local HTTP target the check probes; the test flips its answer (health's
 * test-fixtures/targets.ts does the same for the server tests).
 */
async function startToggleTarget(): Promise<{
  url: string;
  status: { code: number };
  close(): Promise<void>;
}> {
  const status = { code: 200 };
  const server = http.createServer((_request, response) => {
    response.writeHead(status.code, { 'content-type': 'text/plain' }).end(`status ${status.code}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/health`,
    status,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Repeatable on one server: every name carries a stamp, nothing assumes an empty rule list.
// The canary has replicas: 0 (no schedule), so only this test's Run Now requests run its check
// and each transition is the one the test caused; the server's state is awaited through the API
// before the page is (re)loaded once, since a page reload on a loaded machine can take seconds.
test('incident rules: the editor validates and saves a rule; a failing check opens an incident and its recovery resolves it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const checkName = `e2e-toggle-${stamp}`;
  const ruleName = `e2e-rule-${stamp}`;
  const target = await startToggleTarget();
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  let canaryId = '';
  try {
    await signIn(page, ADMIN.email, ADMIN.password, '/settings/incident_rules');
    await page.getByRole('link', { name: 'Add Rule' }).click();
    await expect(page).toHaveURL(/\/settings\/incident_rules\/new$/);
    await expect(page.getByRole('tab', { name: 'Job History' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(ruleName);
    const spec = page.getByRole('textbox', { name: 'Spec' });
    await spec.fill('priority: -1\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('priority must be a non-negative integer')).toBeVisible();
    await spec.fill(
      [
        'priority: 1',
        'breakOnMatch: true',
        'checks:',
        `  - name: ${checkName}`,
        'template:',
        "  title: '{{ .check.name }} is failing'",
        '  severity: high',
        'autoResolve: {}',
        '',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${ruleName} updated successfully`)).toBeVisible();
    await expect(page).toHaveURL(/\/settings\/incident_rules$/);
    await page.getByRole('link', { name: ruleName }).click();
    await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
    await expect(page.getByLabel('Namespace')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Update' })).toBeVisible();
    const ruleUrl = page.url();
    await page.getByRole('tab', { name: 'Job History' }).click();
    // Nothing has run the rule yet.
    await expect(page.getByRole('table', { name: 'Job History' }).getByText('IncidentRule')).toHaveCount(0);

    // An HTTP check against the local target: healthy while it answers 200.
    const canary = await post<{ id: string }>(admin, 'canaries', {
      name: `e2e-toggle-canary-${stamp}`,
      namespace: 'e2e',
      spec: { replicas: 0, http: [{ name: checkName, url: target.url, responseCodes: [200] }] },
    });
    canaryId = canary.id;
    const id = await checkId(admin, checkName);
    const run = async (expected: { failed: number }) => {
      const response = await admin.post(`/api/canary/run/check/${id}`, { headers: await csrfHeader(admin) });
      expect(response.status(), await response.text()).toBe(200);
      expect(await response.json()).toMatchObject({ total: 1, ...expected });
    };
    const incidentStatus = async (incidentId: string) => {
      const rows = (await (
        await admin.get(`/api/db/incidents?select=status&id=eq.${incidentId}`)
      ).json()) as { status: string }[];
      return rows[0]?.status;
    };
    await run({ failed: 0 }); // the first result is no transition
    target.status.code = 500;
    await run({ failed: 1 }); // healthy → unhealthy: check.failed
    const title = `${checkName} is failing`;
    let incidentId = '';
    await expect(async () => {
      const rows = (await (
        await admin.get(`/api/db/incidents?select=id,status&title=eq.${encodeURIComponent(title)}`)
      ).json()) as { id: string; status: string }[];
      expect(rows).toHaveLength(1);
      incidentId = rows[0]!.id;
    }).toPass({ timeout: 60_000 });

    await page.goto(`/incidents/${incidentId}`);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(selectMenu(page, 'Status')).toHaveText('open');
    await expect(selectMenu(page, 'Severity')).toHaveText('high');
    const evidence = page.getByRole('list', { name: 'Evidence' });
    await expect(evidence.locator(`a[href="/health?checkId=${id}&timeRange=1h"]`)).toBeVisible();
    await expect(evidence.getByLabel('Done')).not.toBeChecked();

    target.status.code = 200;
    await run({ failed: 0 }); // unhealthy → healthy: check.passed
    await expect.poll(() => incidentStatus(incidentId), { timeout: 60_000 }).toBe('resolved');
    await page.reload();
    await expect(selectMenu(page, 'Status')).toHaveText('resolved', { timeout: 15_000 });
    const resolved = changelog(page)
      .locator('li', { hasText: 'incident.status_updated' })
      .filter({ hasText: 'resolved' });
    await expect(resolved).toHaveCount(1);
    // The rule engine acted, not a person.
    await expect(resolved).toContainText('System');
    await expect(evidence.getByLabel('Done')).toBeChecked();

    // Both evaluations are in the rule's Job History.
    await page.goto(ruleUrl);
    await page.getByRole('tab', { name: 'Job History' }).click();
    const jobs = page.getByRole('table', { name: 'Job History' });
    await expect(jobs.getByRole('row').filter({ hasText: 'IncidentRule' })).toHaveCount(2);
    await expect(jobs.getByRole('row').filter({ hasText: 'SUCCESS' })).toHaveCount(2);
    await expect(jobs.getByRole('columnheader', { name: 'Resource' })).toHaveCount(0);
    await jobs.getByRole('row').filter({ hasText: 'IncidentRule' }).first().click();
    const details = page.getByRole('dialog', { name: 'Details for job IncidentRule' });
    await expect(details.getByRole('tab', { name: 'Reconcile Summary' })).toBeVisible();
    await expect(details).toContainText('"event": "check.passed"');
    await expect(details).toContainText('"result": "resolved"');
  } finally {
    if (canaryId) {
      await admin.patch(`/api/db/canaries?id=eq.${canaryId}`, {
        headers: await csrfHeader(admin),
        data: { deleted_at: new Date().toISOString() },
      });
    }
    await admin.dispose();
    await target.close();
  }
});

test('attach a failing check as evidence from the health panel, with each validation message', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const title = `Port one ${Date.now()}`;
  const incident = await post<{ id: string }>(admin, 'incidents', {
    title,
    severity: 'medium',
    type: 'availability',
    description: '',
  });
  for (const idea of ['Firewall', 'Nothing listens']) {
    await post(admin, 'hypotheses', {
      incident_id: incident.id,
      title: idea,
      status: 'possible',
      type: 'root',
    });
  }
  const check = await checkId(admin, 'closed-port');
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/health?checkId=${check}&timeRange=1h`);
  const panel = page.getByRole('dialog', { name: 'closed-port' });
  await panel.getByRole('button', { name: 'Attach as Evidence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link to incident' });
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog.getByText('Must select or create an incident')).toBeVisible();

  await chooseOption(dialog, 'Incident', 'Create new incident');
  await expect(selectMenu(dialog, 'Severity')).toHaveText('Low');
  await expect(selectMenu(dialog, 'Type')).toHaveText('availability');
  // A new incident without its title is refused at the title field.
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog.getByText('Must select or create an incident')).toBeVisible();

  await dialog.getByLabel('Find incident').fill(title);
  await chooseOption(dialog, 'Incident', `${title} (open)`);
  await expect(selectMenu(dialog, 'Severity')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog.getByText('Must select or create a hypothesis')).toBeVisible();
  await chooseOption(dialog, 'Hypothesis', 'Nothing listens');
  await dialog.getByLabel('Description').fill('Port 1 refuses connections');

  // Hold the evidence write a moment to see the button while it saves.
  await page.route('**/api/db/evidences', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(dialog.getByRole('button', { name: 'Linking..' })).toBeVisible();
  await expect(page.getByText('Linked to incident successfully').first()).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('link', { name: 'View incident' }).click();
  await expect(page).toHaveURL(new RegExp(`/incidents/${incident.id}$`));
  const hypothesis = page.getByRole('listitem', { name: 'root hypothesis Nothing listens' });
  const evidence = hypothesis.getByRole('list', { name: 'Evidence' });
  await expect(evidence.getByRole('link', { name: 'Port 1 refuses connections' })).toHaveAttribute(
    'href',
    `/health?checkId=${check}&timeRange=1h`,
  );
  await expect(changelog(page).locator('li', { hasText: 'evidence.created' })).toContainText(
    'Port 1 refuses connections',
  );
});

test('an incident with one hypothesis has it selected; a new incident is created from the dialog', async ({
  page,
  baseURL,
}) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const title = `Single idea ${Date.now()}`;
  const incident = await post<{ id: string }>(admin, 'incidents', {
    title,
    severity: 'low',
    type: 'cost',
    description: '',
  });
  await post(admin, 'hypotheses', {
    incident_id: incident.id,
    title: 'The one',
    status: 'possible',
    type: 'root',
  });
  const check = await checkId(admin, 'closed-port');
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/health?checkId=${check}&timeRange=1h`);
  await page.getByRole('button', { name: 'Attach as Evidence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link to incident' });
  await dialog.getByLabel('Find incident').fill(title);
  await chooseOption(dialog, 'Incident', `${title} (open)`);
  await expect(selectMenu(dialog, 'Hypothesis')).toHaveText('The one');

  const newTitle = `Created from the panel ${Date.now()}`;
  await chooseOption(dialog, 'Incident', 'Create new incident');
  await dialog.getByLabel('New incident title').fill(newTitle);
  await chooseOption(dialog, 'Severity', 'Critical');
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByText('Linked to incident successfully').first()).toBeVisible();
  await page.getByRole('link', { name: 'View incident' }).click();
  await expect(page.getByRole('heading', { name: newTitle, level: 1 })).toBeVisible();
  await expect(selectMenu(page, 'Severity')).toHaveText('critical');
  await expect(page.getByRole('listitem', { name: `root hypothesis ${newTitle}` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'closed-port' })).toBeVisible();
});

test('comments mention people, status updates move the incident, and the changelog shows both', async ({
  page,
  baseURL,
}) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const person = await me(admin);
  const incident = await post<{ id: string }>(admin, 'incidents', {
    title: `Mentions ${Date.now()}`,
    severity: 'high',
    type: 'performance',
    description: '',
  });
  await post(admin, 'hypotheses', {
    incident_id: incident.id,
    title: 'Slow disk',
    status: 'possible',
    type: 'root',
  });
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/incidents/${incident.id}`);
  const root = page.getByRole('listitem', { name: 'root hypothesis Slow disk' });
  const input = root.getByLabel('New comment');
  await input.fill(`Can you look, @${person.name.slice(0, 3)}`);
  await page
    .getByRole('listbox', { name: 'Mention a person' })
    .getByRole('option', { name: person.name })
    .click();
  await expect(input).toHaveValue(`Can you look, @[${person.name}](${person.id}) `);
  await root.getByRole('button', { name: 'Comment' }).click();
  const comments = root.getByRole('list', { name: 'Comments' });
  await expect(comments.locator(`[data-mention="${person.id}"]`)).toHaveText(`@${person.name}`);

  await chooseOption(page, 'New status', 'mitigated');
  await page.getByRole('textbox', { name: 'Status update' }).fill('Moved the volume to a faster disk');
  await page.getByRole('button', { name: 'Post update' }).click();
  await expect(selectMenu(page, 'Status')).toHaveText('mitigated');
  await expect(page.getByRole('list', { name: 'Status updates' })).toContainText(
    'Moved the volume to a faster disk',
  );
  await chooseOption(page, 'New status', 'resolved');
  await page.getByRole('textbox', { name: 'Status update' }).fill('Latency back to normal');
  await page.getByRole('button', { name: 'Post update' }).click();
  await expect(selectMenu(page, 'Status')).toHaveText('resolved');
  await expect(changelog(page).locator('li', { hasText: 'status update (resolved)' })).toContainText(
    person.name,
  );
  for (const status of ['mitigated', 'resolved']) {
    await expect(
      changelog(page).locator('li', { hasText: 'incident.status_updated' }).filter({ hasText: status }),
    ).toHaveCount(1);
  }
  await expect(page.getByText('Time to resolve').locator('..')).not.toContainText('-');

  // The list filters by owner (the commander) and by time to resolve.
  await page.goto(`/incidents?owner=${person.id}&ttr=lt1h`);
  await expect(
    page.getByRole('table', { name: 'Incidents' }).getByRole('link', { name: /^Mentions / }),
  ).toBeVisible();
  await chooseOption(page, 'Time to resolve', 'over 1 week');
  await expect(
    page.getByRole('table', { name: 'Incidents' }).getByRole('link', { name: /^Mentions / }),
  ).toHaveCount(0);
});

test('a viewer has no Attach as Evidence and the server refuses its evidence', async ({ page, baseURL }) => {
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const viewer = {
    email: `link-viewer-${Date.now()}@example.com`,
    password: 'viewer-password-123',
    first: 'Vic',
    last: 'Viewer',
  };
  await createViewer(baseURL!, admin, viewer);
  const check = await checkId(admin, 'closed-port');
  await admin.dispose();

  await signIn(page, viewer.email, viewer.password, `/health?checkId=${check}&timeRange=1h`);
  await expect(page.getByRole('tab', { name: 'History' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Attach as Evidence' })).toHaveCount(0);
  const write = await page.request.post('/api/db/evidences', {
    headers: await csrfHeader(page.request),
    data: { type: 'check', check_id: check, description: 'viewer attempt' },
  });
  expect(write.status()).toBe(403);
});
