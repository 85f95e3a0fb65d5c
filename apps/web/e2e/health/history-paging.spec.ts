import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { chooseOption } from '../design/select-menu';
import { apiSession, csrfHeader } from '../shell/api';

/** Results pushed to the webhook check: more than one History page of 50. */
const PUSHES = 55;
const label = (n: number) => `push-${String(n).padStart(2, '0')}`;

/**
 * A canary with one webhook check whose message is the pushed `n` (its display template), so
 * every History row says which push it was. Returns the check's id.
 */
async function webhookCheckWithResults(api: APIRequestContext, stamp: string): Promise<string> {
  const hook = `e2e-history-hook-${stamp}`;
  const token = `e2e-token-${stamp}`;
  const created = await api.post('/api/canaries', {
    headers: await csrfHeader(api),
    data: {
      name: `e2e-history-${stamp}`,
      spec: {
        schedule: '@every 1h',
        webhook: { name: hook, token: { value: token }, display: { template: '{{ .json.n }}' } },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  let checkId = '';
  // One after another: each push is its own run, recorded at its own time (oldest first).
  for (let n = 1; n <= PUSHES; n++) {
    const pushed = await api.post(`/webhook/${encodeURIComponent(hook)}?token=${encodeURIComponent(token)}`, {
      headers: { 'Content-Type': 'application/json' },
      data: JSON.stringify({ n: label(n) }),
    });
    expect(pushed.status(), await pushed.text()).toBe(200);
    const body = (await pushed.json()) as { id: string; pass: boolean };
    expect(body.pass).toBe(true);
    checkId = body.id;
  }
  // The wrong token records nothing.
  const refused = await api.post(`/webhook/${encodeURIComponent(hook)}?token=wrong`, {
    headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ n: 'refused' }),
  });
  expect(refused.status()).toBe(401);
  return checkId;
}

test('the check panel pages its History by 50 and a duration filter change starts again at page 1', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const checkId = await webhookCheckWithResults(admin, `${Date.now()}-${Math.floor(Math.random() * 1e6)}`);
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/health?checkId=${checkId}&timeRange=1h`);
  const dialog = page.getByRole('dialog');
  const history = dialog.getByRole('table', { name: 'Check history' });
  const rows = history.getByTestId('check-history-row');
  const messages = () => rows.locator('td:last-child');
  const next = dialog.getByRole('button', { name: 'Next', exact: true });
  const previous = dialog.getByRole('button', { name: 'Previous', exact: true });
  const pageOne = Array.from({ length: 50 }, (_, i) => label(PUSHES - i));
  const pageTwo = Array.from({ length: PUSHES - 50 }, (_, i) => label(PUSHES - 50 - i));

  // First page: the newest 50 results, time descending.
  await expect(rows).toHaveCount(50, { timeout: 20_000 });
  await expect(messages()).toHaveText(pageOne);
  await expect(dialog.getByText('1 / 2', { exact: true })).toBeVisible();
  await expect(previous).toBeDisabled();

  await next.click();
  await expect(messages()).toHaveText(pageTwo);
  await expect(dialog.getByText('2 / 2', { exact: true })).toBeVisible();
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(messages()).toHaveText(pageOne);

  // Choosing 'custom' (still empty, so every result matches) is a filter change: page 1 of 50.
  await next.click();
  await expect(dialog.getByText('2 / 2', { exact: true })).toBeVisible();
  await chooseOption(dialog, 'Duration', 'custom');
  await expect(dialog.getByText('1 / 2', { exact: true })).toBeVisible();
  await expect(messages()).toHaveText(pageOne);

  // So is a custom duration every pushed result meets (pushes take 0 ms).
  await next.click();
  await expect(dialog.getByText('2 / 2', { exact: true })).toBeVisible();
  await dialog.getByLabel('Custom duration').fill('0ms');
  await expect(dialog.getByText('1 / 2', { exact: true })).toBeVisible();
  await expect(messages()).toHaveText(pageOne);

  // An invalid duration says so; a duration no result meets leaves no rows and no pages.
  await dialog.getByLabel('Custom duration').fill('1m');
  await expect(dialog.getByText('duration is allowed only in milli seconds & seconds')).toBeVisible();
  await chooseOption(dialog, 'Duration', '100ms');
  await expect(dialog.getByText('duration is allowed only in milli seconds & seconds')).toBeHidden();
  await expect(rows).toHaveCount(0);
  await expect(dialog.getByText('No data available')).toBeVisible();
  await expect(next).toHaveCount(0);

  // Back to 'All': every result again, from the first page.
  await chooseOption(dialog, 'Duration', 'All');
  await expect(messages()).toHaveText(pageOne);
  await expect(dialog.getByText('1 / 2', { exact: true })).toBeVisible();
});
