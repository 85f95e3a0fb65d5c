import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { csrfHeader } from '../shell/api';

// Each test signs in, creates a token and calls the API several times: slow on a loaded machine.
test.describe.configure({ timeout: 60_000 });

/** The JSON-RPC initialize request an MCP client sends first. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
};

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

function successDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Token Created Successfully' });
}

async function deleteTokenNamed(api: APIRequestContext, name: string): Promise<void> {
  const list = (await (await api.get('/api/auth/tokens')).json()) as {
    payload: { id: string; name: string }[];
  };
  for (const token of list.payload.filter((row) => row.name === name)) {
    const response = await api.delete(`/api/auth/token/${token.id}`, { headers: await csrfHeader(api) });
    expect(response.status()).toBe(200);
  }
}

test('create a token on /settings/tokens, see it once, find it listed, delete it', async ({ page }) => {
  const name = unique('e2e-token');
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/tokens');
  await page.getByRole('button', { name: 'Create new token' }).click();
  const form = page.getByRole('dialog', { name: 'Create new token' });
  await expect(form.getByRole('button', { name: 'Create' })).toBeDisabled();
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox', { name: 'catalog:read' }).check();
  await form.getByRole('button', { name: 'Create' }).click();

  const success = successDialog(page);
  await expect(success.getByRole('heading', { name: 'Token Created Successfully' })).toBeVisible();
  await expect(page.getByText('Token created successfully', { exact: true })).toBeVisible();
  const shown = success.getByLabel('Token', { exact: true });
  await expect(shown).toHaveText(/^•+$/);
  await success.getByRole('button', { name: 'Show token' }).click();
  await expect(shown).toHaveText(/^opsdeck_/);
  const token = (await shown.textContent()) ?? '';

  // The token works on its own (Bearer), within its scope.
  const whoami = await page.request.get('/api/auth/whoami', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(whoami.status()).toBe(200);

  await success.getByRole('button', { name: 'Done' }).click();
  await expect(success).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('catalog:read');
  await expect(row).toContainText('Never');
  // Shown only once: nowhere on the page any more, nor after a reload.
  expect(await page.content()).not.toContain(token);
  await page.reload();
  // The reload loads the shell, the feature flags and the page again: slow on a loaded machine.
  await expect(row).toBeVisible({ timeout: 20_000 });
  expect(await page.content()).not.toContain(token);

  await row.getByRole('button', { name: `Delete token ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Are you sure you want to delete the token '${name}'?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} deleted successfully`)).toBeVisible();
  await expect(row).toHaveCount(0);
  const revoked = await page.request.get('/api/auth/whoami', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(revoked.status()).toBe(401);
});

test('Setup MCP from the user menu: the Direct HTTP curl token initializes at /mcp', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const name = unique('e2e-mcp');
  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Setup MCP' }).click();

  const form = page.getByRole('dialog', { name: 'Create new token' });
  await expect(form.getByLabel('Name')).toHaveValue('MCP');
  await expect(form.getByRole('checkbox', { name: 'mcp:*' })).toBeChecked();
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Create' }).click();

  const success = successDialog(page);
  await expect(success.getByRole('heading', { name: 'Token Created Successfully' })).toBeVisible();
  await expect(success.getByRole('tab')).toHaveText([
    'Claude Desktop',
    'Claude Code',
    'VS Code Copilot',
    'Cline',
    'Continue.dev',
    'Zed Editor',
    'Direct HTTP',
  ]);
  await success.getByRole('tab', { name: 'Direct HTTP' }).click();
  const curl = success.getByLabel('Direct HTTP configuration', { exact: true });
  await expect(curl).toContainText(`curl -X POST '${baseURL}/mcp'`);
  await expect(curl).toContainText('"protocolVersion":"2024-11-05"');
  await success.getByRole('button', { name: 'Copy Direct HTTP configuration' }).click();
  await expect(page.getByText('Copied to clipboard', { exact: true })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const token = /Authorization: Bearer (opsdeck_[\w-]+)'/.exec(copied)?.[1];
  expect(token, copied).toBeTruthy();

  const answer = await page.request.post('/mcp', {
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    data: INITIALIZE,
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const body = (await answer.json()) as {
    id: number;
    result: { protocolVersion: string; serverInfo: { name: string; version: string }; capabilities: unknown };
  };
  expect(body.id).toBe(1);
  expect(body.result.protocolVersion).toBe('2024-11-05');
  expect(body.result.serverInfo.name).toBe('opsdeck');
  expect(body.result.capabilities).toEqual({ tools: {}, resources: {}, prompts: {} });

  const tools = await page.request.post('/mcp', {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    data: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'list_health_checks', arguments: {} },
    },
  });
  const called = (await tools.json()) as {
    result: { isError: boolean; structuredContent: { checks: unknown[] } };
  };
  expect(called.result.isError).toBe(false);
  expect(Array.isArray(called.result.structuredContent.checks)).toBe(true);

  await success.getByRole('button', { name: 'Done' }).click();
  await expect(success).toBeHidden();
  await deleteTokenNamed(page.request, name);
});

test('a token without the mcp scope is refused at /mcp', async ({ page }) => {
  const name = unique('e2e-no-mcp');
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/tokens');
  const created = await page.request.post('/api/auth/create_token', {
    headers: await csrfHeader(page.request),
    data: { name, expiry: 'never', scope: [{ subject: '', object: 'catalog', action: 'read' }] },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { payload } = (await created.json()) as { payload: { token: string } };

  const answer = await page.request.post('/mcp', {
    headers: { Authorization: `Bearer ${payload.token}`, 'Content-Type': 'application/json' },
    data: INITIALIZE,
  });
  expect(answer.status()).toBe(403);
  const body = (await answer.json()) as { id: number; error: { code: number; message: string } };
  expect(body.id).toBe(1);
  expect(body.error.code).toBe(-32001);
  expect(body.error.message).toContain('mcp:*');
  await deleteTokenNamed(page.request, name);
});
