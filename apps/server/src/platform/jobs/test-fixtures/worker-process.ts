/**
 * A separate replica for the multi-process tests: runs a jobs service against DATABASE_URL.
 *
 *   ticks  registers the `@every 1s` schedule "tick-test", which records each tick it runs in
 *          tick_runs, for RUN_FOR_MS, then stops gracefully.
 *   hang   consumes "hang.event" and runs the schedule "hang-schedule" with handlers that record
 *          that they started (hang_started) and never finish, to be killed with SIGKILL.
 */
import pg from 'pg';
import { createJobsService } from '../jobs-service.js';
import { recordingLogger } from './helpers.js';

const mode = process.argv[2];
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
const logger = recordingLogger();
const never = new Promise<void>(() => undefined);

if (mode === 'ticks') {
  const runForMs = Number(process.env.RUN_FOR_MS ?? 5000);
  const jobs = createJobsService({ pool, logger, schedules: { pollIntervalMs: 250 } });
  await jobs.schedules.register({
    name: 'tick-test',
    schedule: '@every 1s',
    timeoutMs: 5000,
    handler: async ({ scheduledAt, job }) => {
      await pool.query('INSERT INTO tick_runs (tick, pid) VALUES ($1, $2)', [scheduledAt, process.pid]);
      job.incrementSuccess();
    },
  });
  await jobs.start();
  process.stdout.write('started\n');
  await new Promise((resolve) => setTimeout(resolve, runForMs));
  await jobs.stop({ graceMs: 5000 });
  await pool.end();
  process.stdout.write('stopped\n');
} else if (mode === 'hang') {
  const jobs = createJobsService({
    pool,
    logger,
    heartbeatIntervalMs: 200,
    staleWorkerAfterMs: 1000,
    events: { pollIntervalMs: 100, handlerTimeoutMs: 1500, leaseMs: 1000, renewIntervalMs: 200 },
    schedules: { pollIntervalMs: 100, leaseMs: 1000, renewIntervalMs: 200 },
  });
  jobs.events.on('hang.event', async (event) => {
    await pool.query("INSERT INTO hang_started (what, attempts, pid) VALUES ('event', $1, $2)", [
      event.attempts,
      process.pid,
    ]);
    await never;
  });
  await jobs.schedules.register({
    name: 'hang-schedule',
    schedule: '@every 1s',
    timeoutMs: 1500,
    handler: async () => {
      await pool.query("INSERT INTO hang_started (what, attempts, pid) VALUES ('schedule', 1, $1)", [
        process.pid,
      ]);
      await never;
    },
  });
  await jobs.start();
  process.stdout.write('started\n');
} else {
  throw new Error(`Unknown mode ${mode}`);
}
