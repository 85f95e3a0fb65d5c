import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { applyJobsRetention } from './maintenance.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe('jobs retention', () => {
  it('deletes finished job history and unhandled events past their age, and nothing else', async () => {
    await db.pool.query(
      `INSERT INTO job_history (name, status, time_start, time_end) VALUES
         ('old-done', 'SUCCESS', now() - interval '40 days', now() - interval '40 days'),
         ('old-failed', 'FAILED', now() - interval '31 days', now() - interval '31 days'),
         ('old-running', 'RUNNING', now() - interval '40 days', NULL),
         ('recent', 'SUCCESS', now() - interval '2 days', now() - interval '2 days')`,
    );
    await db.pool.query(
      `INSERT INTO event_queue (name, created_at, status, locked_by) VALUES
         ('incident.created', now() - interval '8 days', 'pending', NULL),
         ('check.failed', now() - interval '10 days', 'failed', NULL),
         ('check.passed', now() - interval '9 days', 'pending', 'worker-1'),
         ('check.failed', now() - interval '1 day', 'pending', NULL)`,
    );

    const removed = await applyJobsRetention(db.pool, { jobHistoryDays: 30, eventDays: 7 });
    expect(removed).toEqual({ jobHistory: 2, events: 2 });
    const jobs = await db.pool.query<{ name: string }>('SELECT name FROM job_history ORDER BY name');
    expect(jobs.rows.map((row) => row.name)).toEqual(['old-running', 'recent']);
    const events = await db.pool.query<{ name: string; locked_by: string | null }>(
      'SELECT name, locked_by FROM event_queue ORDER BY created_at',
    );
    expect(events.rows).toEqual([
      { name: 'check.passed', locked_by: 'worker-1' },
      { name: 'check.failed', locked_by: null },
    ]);

    // A second pass finds nothing more to do.
    expect(await applyJobsRetention(db.pool, { jobHistoryDays: 30, eventDays: 7 })).toEqual({
      jobHistory: 0,
      events: 0,
    });
  });
});
