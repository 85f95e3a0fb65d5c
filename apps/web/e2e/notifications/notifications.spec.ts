import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { chooseOption, selectMenu } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

/** Replaces the CodeMirror document (labelled 'Spec') with the given text. */
async function replaceCode(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Spec' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('a rule is created on the YAML editor and listed with its counts', async ({ page }) => {
  // Slow shared CI machines: the save, the refetch and the editor's reopening take their time.
  test.setTimeout(180_000);
  const name = `oncall-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/notifications/rules');
  await page.getByRole('link', { name: 'Add Rule' }).click();
  await expect(page).toHaveURL(/\/notifications\/rules\?id=new$/);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await replaceCode(page, 'title: no events here\n');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('events: list at least one event, such as check.failed')).toBeVisible();
  await replaceCode(page, 'events:\n  - check.failed\nto:\n  email: oncall@example.com\n');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Notification updated successfully')).toBeVisible();
  const row = page
    .getByRole('table', { name: 'Notification rules' })
    .getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('check.failed');
  // The list refetches after the save; a click landing during that re-render is tried again.
  await expect(async () => {
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(/\/notifications\/rules\?id=[0-9a-f-]{36}$/, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: 'Spec' })).toContainText('oncall@example.com');
});

test('a failed delivery shows in the history with its error and attempts, and in the bell', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // A webhook peer that always refuses.
  const server = http.createServer((_request, response) => {
    response.writeHead(500, { 'Content-Type': 'text/plain' });
    response.end('upstream exploded');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
    const headers = await csrfHeader(admin);
    const name = `incident-hook-${Date.now()}`;
    const rule = await admin.post('/api/notification/rules', {
      headers,
      data: { name, spec: { events: ['incident.created'], to: { url: `http://127.0.0.1:${port}/hook` } } },
    });
    expect(rule.status(), await rule.text()).toBe(201);
    const title = `Payments down ${Date.now()}`;
    const incident = await admin.post('/api/db/incidents', {
      headers,
      data: { title, type: 'availability', severity: 'high' },
    });
    expect(incident.status(), await incident.text()).toBeLessThan(300);
    // Four attempts with backoff, then failed.
    await expect
      .poll(
        async () => {
          const response = await admin.post('/api/notification/summary', {
            headers,
            data: { status: 'failed', search: name },
          });
          return ((await response.json()) as { total: number }).total;
        },
        { timeout: 90_000, intervals: [1000] },
      )
      .toBe(1);
    await admin.dispose();

    await signIn(page, ADMIN.email, ADMIN.password, '/');
    await page.locator('header').getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications\?status=failed/);
    await page.goto('/notifications');
    await chooseOption(page, 'Status', 'failed');
    await expect(selectMenu(page, 'Status')).toHaveText('failed');
    await page.getByRole('textbox', { name: 'Search' }).fill(name);
    await page.getByRole('button', { name: 'Search' }).click();
    const history = page.getByRole('table', { name: 'Notification history' });
    const row = history.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('incident.created');
    await expect(row).toContainText('webhook: HTTP 500: upstream exploded');
    await row.click();
    const dialog = page.getByRole('dialog', { name: `Incident created: ${title}` });
    await expect(dialog.getByRole('region', { name: 'Message' })).toContainText(title);
    const attempts = dialog.getByRole('region', { name: 'Attempts' }).getByRole('row');
    await expect(attempts).toHaveCount(5);
    await expect(attempts.last()).toContainText('failed');
    await expect(attempts.last()).toContainText('upstream exploded');

    // The rules list shows the rule's failed count and the error its failed sends carried most often.
    await page.keyboard.press('Escape');
    await page.goto('/notifications/rules');
    const rules = page.getByRole('table', { name: 'Notification rules' });
    // The list loads after the page on a loaded machine.
    await expect(rules.getByRole('columnheader', { name: 'Most common error' })).toBeVisible({
      timeout: 30_000,
    });
    const ruleRow = rules.getByRole('row', { name: new RegExp(name) });
    const mostCommon = await rules
      .getByRole('columnheader')
      .evaluateAll((headers) => headers.findIndex((header) => header.textContent === 'Most common error'));
    const failed = await rules
      .getByRole('columnheader')
      .evaluateAll((headers) => headers.findIndex((header) => header.textContent === 'Failed'));
    await expect(ruleRow.getByRole('cell').nth(failed)).toHaveText('1');
    await expect(ruleRow.getByRole('cell').nth(mostCommon)).toHaveText(
      'webhook: HTTP 500: upstream exploded',
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a writer adds a silence indefinitely', async ({ page }) => {
  test.setTimeout(90_000);
  const description = `maintenance ${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password, '/notifications/silences');
  await page.getByRole('link', { name: 'Add Silence' }).click();
  await expect(page).toHaveURL(/\/notifications\/silences\/add$/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Pick a resource, a selector or write a filter')).toBeVisible();
  await expect(selectMenu(page, 'Resource type')).toHaveText('Check');
  await chooseOption(page, 'Resource type', 'Component');
  await expect(selectMenu(page, 'Resource type')).toHaveText('Component');
  await page.getByRole('textbox', { name: 'Filter' }).fill("check.name.startsWith('staging')");
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Pick an end, or Indefinitely')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Indefinitely' }).check();
  await page.getByRole('checkbox', { name: /Recursive/ }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Silence added successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/notifications\/silences$/);
  const row = page
    .getByRole('table', { name: 'Silences' })
    .getByRole('row', { name: new RegExp(description) });
  await expect(row).toContainText('Indefinitely');
  await expect(row).toContainText("check.name.startsWith('staging')");
  await expect(row).toContainText('Yes');
});

test('the silence preview shows what a filter would have matched; a silence saves its selector', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/plain' });
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
    const headers = await csrfHeader(admin);
    const name = `preview-hook-${Date.now()}`;
    const rule = await admin.post('/api/notification/rules', {
      headers,
      data: { name, spec: { events: ['incident.created'], to: { url: `http://127.0.0.1:${port}/hook` } } },
    });
    expect(rule.status(), await rule.text()).toBe(201);
    const title = `Preview outage ${Date.now()}`;
    const incident = await admin.post('/api/db/incidents', {
      headers,
      data: { title, type: 'availability', severity: 'high' },
    });
    expect(incident.status(), await incident.text()).toBeLessThan(300);
    await expect
      .poll(
        async () => {
          const response = await admin.post('/api/notification/summary', {
            headers,
            data: { status: 'sent', search: name },
          });
          return ((await response.json()) as { total: number }).total;
        },
        { timeout: 30_000, intervals: [500] },
      )
      .toBe(1);
    await admin.dispose();

    await signIn(page, ADMIN.email, ADMIN.password, '/notifications/silences/add');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Preview' }).click();
    await expect(preview).toContainText('Pick a resource, a selector or write a filter to preview');
    await page.getByRole('textbox', { name: 'Filter' }).fill(`incident.title == '${title}'`);
    await preview.getByRole('button', { name: 'Preview' }).click();
    // The earlier test's rule on incident.created may have notified about it too: one resource, the incident.
    await expect(preview).toContainText(
      /Would have matched \d+ notifications? about 1 resource in the last 7 days/,
    );
    await expect(preview.getByRole('list', { name: 'Matched resources' })).toContainText(title);
    await expect(preview.getByRole('table', { name: 'Matched notifications' })).toContainText(
      `Incident created: ${title}`,
    );
    await page.getByRole('textbox', { name: 'Filter' }).fill(`incident.title == 'not ${title}'`);
    await preview.getByRole('button', { name: 'Preview' }).click();
    await expect(preview).toContainText('Would have matched no notifications in the last 7 days');

    const selector = `e2e-none-${Date.now()}-*`;
    await page.getByRole('textbox', { name: 'Filter' }).fill('');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(selector);
    await page.getByRole('textbox', { name: 'Labels' }).fill('env=e2e');
    await page.getByRole('checkbox', { name: 'Indefinitely' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Silence added successfully')).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Silences' })
        .getByRole('row', { name: new RegExp(selector.replace('*', '\\*')) }),
    ).toContainText(`name=${selector} labelSelector=env=e2e`, { timeout: 30_000 });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function post<T>(api: APIRequestContext, table: string, data: unknown): Promise<T> {
  const response = await api.post(`/api/db/${table}`, {
    headers: { ...(await csrfHeader(api)), Prefer: 'return=representation' },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as T[])[0]!;
}

// The canary has replicas: 0 (no schedule): only this test's Run Now requests run its check.
test('a notification with a playbook recipient starts a run when its check fails; the history row opens it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const checkName = `e2e-heal-check-${stamp}`;
  const playbookName = `heal-${stamp}`;
  const ruleName = `heal-rule-${stamp}`;
  const status = { code: 200 };
  const target = http.createServer((_request, response) => {
    response.writeHead(status.code, { 'content-type': 'text/plain' }).end(`status ${status.code}`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  let canaryId = '';
  try {
    const playbook = await post<{ id: string }>(admin, 'playbooks', {
      name: playbookName,
      namespace: 'default',
      source: 'UI',
      spec: {
        title: `Heal ${stamp}`,
        checks: [{ types: ['http'] }],
        actions: [{ name: 'note', exec: { script: 'echo "healing {{.check.name}}"' } }],
      },
    });
    const canary = await post<{ id: string }>(admin, 'canaries', {
      name: `e2e-heal-canary-${stamp}`,
      namespace: 'e2e',
      spec: {
        replicas: 0,
        http: [{ name: checkName, url: `http://127.0.0.1:${port}/health`, responseCodes: [200] }],
      },
    });
    canaryId = canary.id;

    // The rule, made on its editor: the playbook is picked from the playbooks, into the YAML.
    await signIn(page, ADMIN.email, ADMIN.password, '/notifications/rules?id=new');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(ruleName);
    await replaceCode(page, `events:\n  - check.failed\nfilter: check.name == '${checkName}'\n`);
    await chooseOption(page, 'Playbook recipient', `default/${playbookName}`);
    await expect(page.getByRole('textbox', { name: 'Spec' })).toContainText(
      `playbook: default/${playbookName}`,
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Notification updated successfully')).toBeVisible();

    // The notification, as a permission subject, may run that playbook.
    const rules = (await (
      await admin.get(`/api/db/notifications?select=id&name=eq.${ruleName}&deleted_at=is.null`)
    ).json()) as { id: string }[];
    expect(rules).toHaveLength(1);
    await post(admin, 'permissions', {
      subject_type: 'notification',
      notification_id: rules[0]!.id,
      playbook_id: playbook.id,
      action: 'playbook:run',
    });

    let checkId = '';
    await expect(async () => {
      const rows = (await (
        await admin.get(`/api/db/checks?select=id&name=eq.${checkName}&deleted_at=is.null`)
      ).json()) as { id: string }[];
      expect(rows).toHaveLength(1);
      checkId = rows[0]!.id;
    }).toPass({ timeout: 60_000 });
    const run = async (failed: number) => {
      const response = await admin.post(`/api/canary/run/check/${checkId}`, {
        headers: await csrfHeader(admin),
      });
      expect(response.status(), await response.text()).toBe(200);
      expect(await response.json()).toMatchObject({ total: 1, failed });
    };
    await run(0); // the first result is no transition
    status.code = 500;
    await run(1); // healthy → unhealthy: check.failed → the notification → the playbook

    await page.goto('/notifications');
    await page.getByRole('textbox', { name: 'Search' }).fill(ruleName);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page
      .getByRole('table', { name: 'Notification history' })
      .getByRole('row', { name: new RegExp(ruleName) });
    // The history refetches on its own only when asked: search again until the row is there.
    await expect(async () => {
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(row).toContainText('sent', { timeout: 2000 });
    }).toPass({ timeout: 90_000 });
    await expect(row).toContainText(`playbook default/${playbookName}`);
    await expect(row).toContainText('check.failed');
    await row.getByRole('link', { name: 'View run' }).click();
    await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
    await expect(page.getByText('by notification')).toBeVisible({ timeout: 30_000 });
    const note = page.getByRole('list', { name: 'Actions' }).getByRole('listitem', { name: 'note' });
    await expect(note.getByText('completed')).toBeVisible({ timeout: 60_000 });
  } finally {
    if (canaryId) {
      await admin.patch(`/api/db/canaries?id=eq.${canaryId}`, {
        headers: await csrfHeader(admin),
        data: { deleted_at: 'now()' },
      });
    }
    await admin.dispose();
    target.closeAllConnections();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  }
});
