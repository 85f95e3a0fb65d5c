import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

const run = promisify(execFile);

test.describe.configure({ timeout: 180_000 });

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
  // The command shown with the token is a real one: run as shown, the server names the agent's user.
  const command = await created.getByLabel('Command').inputValue();
  expect(command).toContain(`Authorization: Bearer ${token}`);
  const { stdout } = await run('sh', ['-c', `${command} --silent --fail`]);
  expect((JSON.parse(stdout) as { payload: { user: { name: string } } }).payload.user.name).toBe(
    `agent-${name}`,
  );
  await created.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('runs checks at the edge');
  await expect(row).toContainText('region=eu-west');
  await expect(row).toContainText('Never');
  // Shown once: not on the page any more.
  expect(await page.content()).not.toContain(token);

  // The counts of what it owns: two live config items and the one check of a canary it runs (the
  // canary declares the check, so the server's own sync of canaries keeps the row).
  const spec = { http: [{ name: 'edge-http', url: new URL('/readyz', page.url()).href }] };
  await sql(
    `WITH agent AS (SELECT id FROM agents WHERE name = $1 AND deleted_at IS NULL),
          items AS (INSERT INTO config_items (name, type, agent_id)
                    SELECT n, 'Kubernetes::Pod', agent.id FROM agent, unnest(ARRAY['pod-a', 'pod-b']) n),
          canary AS (INSERT INTO canaries (name, spec, agent_id) SELECT $1, $2, id FROM agent RETURNING id, agent_id)
     INSERT INTO checks (canary_id, agent_id, type, name) SELECT id, agent_id, 'http', 'edge-http' FROM canary`,
    [name, spec],
  );
  await page.reload();
  const headers = page.getByRole('table', { name: 'Agents' }).getByRole('columnheader');
  await expect(headers.first()).toBeVisible({ timeout: 60_000 });
  const texts = (await headers.allInnerTexts()).map((text) => text.trim());
  const cells = row.getByRole('cell');
  await expect(cells.nth(texts.indexOf('Checks'))).toHaveText('1', { timeout: 30_000 });
  await expect(cells.nth(texts.indexOf('Configs'))).toHaveText('2');

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
