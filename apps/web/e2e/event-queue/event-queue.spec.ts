import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';

// A dead-lettered `playbook.execute` event (its attempts spent by a worker that kept dying) for a
// run that no longer exists: retried, the real consumer takes it and it leaves the queue.
test('the Event Queue page shows a failed event with its error, and Retry requeues it to be handled', async ({
  page,
}) => {
  test.setTimeout(90_000);
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
  await expect(row).toBeVisible();
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
