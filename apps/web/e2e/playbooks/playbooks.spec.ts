import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { chooseOption } from '../design/select-menu';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

test.describe.configure({ mode: 'serial' });

let admin: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
});

test.afterAll(async () => {
  await admin?.dispose();
});

/** A playbook row through the data API, as the editor saves it. */
async function createPlaybook(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await admin.post('/api/db/playbooks', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: {
      name,
      namespace: 'default',
      title: spec.title,
      description: spec.description ?? null,
      spec,
      source: 'UI',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const [row] = (await response.json()) as { id: string }[];
  return row.id;
}

/** The demo's closed-port check (its canary is synced at start-up). */
async function closedPortId(): Promise<string> {
  let id: string | undefined;
  await expect(async () => {
    const response = await admin.get('/api/db/checks?select=id,name&name=eq.closed-port&deleted_at=is.null');
    const rows = (await response.json()) as { id: string }[];
    id = rows[0]?.id;
    expect(id).toBeTruthy();
  }).toPass({ timeout: 60_000 });
  return id!;
}

const timeline = (page: Page) => page.getByRole('list', { name: 'Actions' });

test('runs a playbook from a check menu with parameters and follows the run to completion', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const checkId = await closedPortId();
  await createPlaybook('diagnose-port', {
    title: 'Diagnose port',
    description: 'Looks at a failing port check',
    category: 'Diagnostics',
    icon: 'http',
    checks: [{ name: 'closed-port' }],
    parameters: [
      { name: 'reason', label: 'Reason', required: true },
      { name: 'memory', label: 'Memory', properties: { format: 'bytes' } },
    ],
    actions: [
      {
        name: 'inspect',
        exec: {
          script: 'echo "checking {{.check.name}} because {{.params.reason}} with {{.params.memory}}"',
        },
      },
      { name: 'wrap-up', exec: { script: 'sleep 1; echo done' } },
    ],
  });

  await signIn(page, ADMIN.email, ADMIN.password, '/playbooks');
  // The list groups by category; a playbook with resource selectors asks for a resource first.
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await expect(diagnostics.getByText('Diagnose port')).toBeVisible();
  await expect(diagnostics.getByText('Looks at a failing port check')).toBeVisible();
  await diagnostics.getByRole('button', { name: 'Run' }).click();
  const fromList = page.getByRole('dialog', { name: 'Diagnose port' });
  await expect(fromList.getByText('Please select a resource to see the parameters.')).toBeVisible();
  // The resource is found through POST /api/resources/search as it is typed.
  await fromList.getByRole('combobox', { name: 'Check' }).fill('closed-port');
  await page
    .getByRole('option', { name: /closed-port/ })
    .first()
    .click();
  await expect(fromList.getByLabel('Reason')).toBeVisible();
  await fromList.getByRole('button', { name: 'Close' }).first().click();

  await page.goto(`/health?checkId=${checkId}&timeRange=1h`);
  await page.getByRole('button', { name: 'Playbooks' }).click();
  await page.getByRole('menuitem', { name: 'Diagnose port' }).click();
  const dialog = page.getByRole('dialog', { name: 'Diagnose port' });
  await expect(dialog.getByText('closed-port')).toBeVisible();
  const reason = dialog.getByLabel('Reason');
  await reason.focus();
  await reason.blur();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await reason.fill('on call');
  await dialog.getByLabel('Memory', { exact: true }).fill('512');
  await chooseOption(dialog, 'Memory unit', 'Gi');
  await dialog.getByRole('button', { name: 'Run' }).click();

  await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Diagnose port' })).toBeVisible();
  const inspect = timeline(page).getByRole('listitem', { name: 'inspect' });
  await expect(inspect.getByText('completed')).toBeVisible({ timeout: 30_000 });
  await expect(inspect.getByLabel('inspect output')).toContainText(
    'checking closed-port because on call with 512Gi',
  );
  await expect(inspect.getByRole('link', { name: /^stdout/ })).toBeVisible();
  // Live: the page follows the run until its last action and the run complete.
  await expect(timeline(page).getByRole('listitem', { name: 'wrap-up' }).getByText('completed')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('completed', { exact: true }).first()).toBeVisible();

  await page.getByRole('link', { name: 'All runs' }).click();
  await expect(page).toHaveURL(/\/playbooks\/runs\?playbook=/);
  await expect(page.getByRole('table', { name: 'Playbook runs' }).getByText('closed-port')).toBeVisible();
});

test('a run that needs approval waits until an approver approves it', async ({ page }) => {
  test.setTimeout(90_000);
  // The admin approves a run they started: allowed only by this property (default: refused).
  const allow = await admin.post('/api/db/properties?on_conflict=name', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'resolution=merge-duplicates,return=minimal' },
    data: { name: 'playbooks.approval.allow_self_approval', value: 'true' },
  });
  expect(allow.status(), await allow.text()).toBeLessThan(300);
  await createPlaybook('approved-restart', {
    title: 'Approved restart',
    category: 'Operations',
    approval: { type: 'any', approvers: { people: [ADMIN.email] } },
    actions: [{ name: 'restart', exec: { script: 'echo restarted' } }],
  });
  await signIn(page, ADMIN.email, ADMIN.password, '/playbooks');
  const operations = page.getByRole('region', { name: 'Operations' });
  await operations.getByRole('button', { name: 'Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approved restart' });
  await expect(dialog.getByText('No parameters for this playbook.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Run' }).click();
  await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByText('pending approval')).toBeVisible();
  await expect(page.getByText('Waiting for approval.')).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  const restart = timeline(page).getByRole('listitem', { name: 'restart' });
  await expect(restart.getByText('completed')).toBeVisible({ timeout: 30_000 });
  await expect(restart.getByLabel('restart output')).toContainText('restarted');
  await expect(page.getByText(/Approved by/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
});
