import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { apiSession, csrfHeader } from '../shell/api';

let admin: APIRequestContext;
let dir = '';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.test', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  }).trim();

test.beforeAll(async ({ baseURL }) => {
  admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  dir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-e2e-gitops-'));
});

test.afterAll(async () => {
  await admin?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a playbook checks out a repository for its script, then pushes a change and the run page shows both', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A real bare repository on this machine, with main holding a values file and a script.
  const bare = path.join(dir, 'deploy.git');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const seed = path.join(dir, 'seed');
  execFileSync('git', ['clone', '--quiet', bare, seed]);
  git(seed, 'checkout', '--quiet', '-b', 'main');
  writeFileSync(path.join(seed, 'values.yaml'), '# deployed by playbooks\ntag: v1\n');
  writeFileSync(path.join(seed, 'current.sh'), 'grep tag values.yaml\n');
  git(seed, 'add', '--all');
  git(seed, 'commit', '--quiet', '-m', 'seed');
  git(seed, 'push', '--quiet', 'origin', 'main');

  const created = await admin.post('/api/db/playbooks', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: {
      name: 'bump-tag',
      namespace: 'default',
      title: 'Bump tag',
      description: 'Shows the deployed tag and bumps it on a branch',
      source: 'UI',
      spec: {
        title: 'Bump tag',
        description: 'Shows the deployed tag and bumps it on a branch',
        category: 'Deployments',
        actions: [
          { name: 'current', exec: { script: 'bash current.sh', checkout: { url: bare } } },
          {
            name: 'bump',
            gitops: {
              repo: { url: bare, base: 'main', branch: 'bump-v2' },
              commit: { author: 'Opsdeck E2E', email: 'e2e@example.test', message: 'Bump tag to v2' },
              patches: [{ path: 'values.yaml', yq: '.tag = "v2"' }],
              files: [{ path: 'CHANGELOG.md', content: 'v2 by run {{.run.id}}\n' }],
            },
          },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page, ADMIN.email, ADMIN.password, '/playbooks');
  await page.getByRole('region', { name: 'Deployments' }).getByRole('button', { name: 'Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bump tag' });
  await expect(dialog.getByText('No parameters for this playbook.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Run' }).click();
  await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split('/').pop()!;

  const timeline = page.getByRole('list', { name: 'Actions' });
  const current = timeline.getByRole('listitem', { name: 'current' });
  await expect(current.getByText('completed')).toBeVisible({ timeout: 30_000 });
  await expect(current.getByText(`Checked out ${bare} at`)).toBeVisible();
  await expect(current.getByLabel('current output')).toContainText('tag: v1');

  const bump = timeline.getByRole('listitem', { name: 'bump' });
  await expect(bump.getByText('completed')).toBeVisible({ timeout: 30_000 });
  const output = bump.getByLabel('bump output');
  await expect(output).toContainText('bump-v2 (from main)');
  await expect(output).toContainText('CHANGELOG.md, values.yaml');
  const pushed = git(bare, 'rev-parse', 'bump-v2');
  await expect(output).toContainText(`${pushed.slice(0, 12)} pushed`);
  // What the page says was pushed is in the repository.
  expect(git(bare, 'show', 'bump-v2:values.yaml')).toBe('# deployed by playbooks\ntag: v2');
  expect(git(bare, 'show', 'bump-v2:CHANGELOG.md')).toBe(`v2 by run ${runId}`);
  expect(git(bare, 'log', '-1', '--format=%an|%s', 'bump-v2')).toBe('Opsdeck E2E|Bump tag to v2');
});
