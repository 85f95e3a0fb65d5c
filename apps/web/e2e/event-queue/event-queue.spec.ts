import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

// A dead-lettered `playbook.execute` event (its attempts spent by a worker that kept dying) for a
// run that no longer exists: retried, the real consumer takes it and it leaves the queue.
test('the Event Queue page shows a failed event with its error, and Retry requeues it to be handled', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const runId = randomUUID();
  const error = `e2e: the process handling run ${runId.slice(0, 8)} stopped`;
  await sql(
    `INSERT INTO event_queue (name, properties, status, attempts, error, last_attempt)
     VALUES ('playbook.execute', $1, 'failed', 20, $2, now())`,
    [{ run_id: runId }, error],
  );

  await signIn(page, ADMIN.email, ADMIN.password, '/health');
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
  await sidebar.getByRole('button', { name: 'Settings' }).click();
  await sidebar.getByRole('link', { name: 'Event Queue' }).click();
  await expect(page).toHaveURL(/\/settings\/event-queue-status$/);
  const summary = page.getByRole('table', { name: 'Event queue' });
  const row = summary.getByRole('row').filter({ hasText: 'playbook.execute' });
  // The first answer can take a while on a loaded machine.
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText(error)).toBeVisible();

  await row.click();
  await expect(page).toHaveURL(/\?name=playbook\.execute$/);
  const failed = page.getByRole('table', { name: 'Failed events' });
  const event = failed.getByRole('row').filter({ hasText: runId });
  await expect(event.getByText(error)).toBeVisible();
  await event.getByRole('button', { name: /^Retry event / }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Retry failed events' });
  await expect(
    dialog.getByText('Retry 1 failed event? They go back to the queue with a fresh attempt budget.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('1 event requeued')).toBeVisible();
  await expect(failed.getByRole('row').filter({ hasText: runId })).toHaveCount(0);
  // Handled by the worker: gone from the queue, so the summary no longer counts it failed.
  await expect(async () => {
    await page.reload();
    const current = page
      .getByRole('table', { name: 'Event queue' })
      .getByRole('row')
      .filter({ hasText: error });
    await expect(current).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
});

// Discard of all failed events of one name, from the summary row: Cancel leaves them, Discard
// deletes them (never the pending one of the same name).
test('Discard asks first; Cancel keeps the failed events, Discard deletes them and leaves pending ones', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const name = `e2e.discard.${Date.now().toString(36)}`;
  await sql(
    `INSERT INTO event_queue (name, properties, status, attempts, error, last_attempt)
     VALUES ($1, '{"n":1}', 'failed', 3, 'e2e: endpoint answered 500', now()),
            ($1, '{"n":2}', 'failed', 3, 'e2e: endpoint answered 500', now())`,
    [name],
  );
  // A pending event of the same name, not yet due: it must survive the discard.
  await sql(
    `INSERT INTO event_queue (name, properties, status, attempts, available_at) VALUES ($1, '{"n":3}', 'pending', 0, now() + interval '1 day')`,
    [name],
  );

  await signIn(page, ADMIN.email, ADMIN.password, '/settings/event-queue-status');
  const row = page.getByRole('table', { name: 'Event queue' }).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible({ timeout: 60_000 });
  await row.getByRole('button', { name: `Discard all failed ${name} events` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Discard failed events' });
  await expect(
    dialog.getByText(`Discard 2 failed events of ${name}? They are deleted and will not be handled.`),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const failed = async () =>
    (
      (await (await page.request.get(`/api/event-queue/failed?name=${encodeURIComponent(name)}`)).json()) as {
        total: number;
      }
    ).total;
  expect(await failed()).toBe(2);

  await row.getByRole('button', { name: `Discard all failed ${name} events` }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('2 events discarded')).toBeVisible();
  expect(await failed()).toBe(0);
  const summary = (await (await page.request.get('/api/event-queue/summary')).json()) as {
    names: { name: string; pending: number; failed: number }[];
  };
  expect(summary.names.find((entry) => entry.name === name)).toMatchObject({ pending: 1, failed: 0 });
});
