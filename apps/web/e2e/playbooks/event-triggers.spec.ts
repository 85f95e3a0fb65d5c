import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

async function post<T>(api: APIRequestContext, table: string, data: unknown): Promise<T> {
  const response = await api.post(`/api/db/${table}`, {
    headers: { ...(await csrfHeader(api)), Prefer: 'return=representation' },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as T[])[0]!;
}

/** A local HTTP target the check probes; the test flips its answer. */
async function startToggleTarget() {
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

// The canary has replicas: 0 (no schedule): only this test's Run Now requests run its check.
test('a playbook with on.canary failed runs when its check starts failing, bound to the check', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const checkName = `e2e-trigger-${stamp}`;
  const target = await startToggleTarget();
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  let canaryId = '';
  try {
    const playbook = await post<{ id: string }>(admin, 'playbooks', {
      name: `on-failed-${stamp}`,
      namespace: 'default',
      title: `On failure ${stamp}`,
      source: 'UI',
      spec: {
        title: `On failure ${stamp}`,
        category: 'Triggers',
        on: { canary: [{ event: 'failed', filter: `check.name == '${checkName}'` }] },
        actions: [{ name: 'note', exec: { script: 'echo "{{.check.name}} went {{.check.status}}"' } }],
      },
    });
    const canary = await post<{ id: string }>(admin, 'canaries', {
      name: `e2e-trigger-canary-${stamp}`,
      namespace: 'e2e',
      spec: { replicas: 0, http: [{ name: checkName, url: target.url, responseCodes: [200] }] },
    });
    canaryId = canary.id;
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
    target.status.code = 500;
    await run(1); // healthy → unhealthy: check.failed → the playbook's trigger

    let runId = '';
    await expect(async () => {
      const rows = (await (
        await admin.get(`/api/db/playbook_runs?select=id,status,check_id&playbook_id=eq.${playbook.id}`)
      ).json()) as { id: string; status: string; check_id: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.check_id).toBe(checkId);
      expect(rows[0]!.status).toBe('completed');
      runId = rows[0]!.id;
    }).toPass({ timeout: 60_000 });

    await signIn(page, ADMIN.email, ADMIN.password, `/playbooks/runs?playbook=${playbook.id}`);
    await expect(page.getByRole('table', { name: 'Playbook runs' }).getByText(checkName)).toBeVisible();
    await page.goto(`/playbooks/runs/${runId}`);
    const note = page.getByRole('list', { name: 'Actions' }).getByRole('listitem', { name: 'note' });
    await expect(note.getByText('completed')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('by event check.failed')).toBeVisible();
  } finally {
    if (canaryId) {
      await admin.patch(`/api/db/canaries?id=eq.${canaryId}`, {
        headers: await csrfHeader(admin),
        data: { deleted_at: 'now()' },
      });
    }
    await admin.dispose();
    await target.close();
  }
});
