/**
 * A separate replica for the SIGKILL tests: runs the jobs service and the health workers against
 * DATABASE_URL (canary ticks time out after RUN_TIMEOUT_MS, checks after CHECK_TIMEOUT_MS, schedule
 * claims are leased for LEASE_MS and renewed every RENEW_INTERVAL_MS), prints "started" and runs
 * until killed.
 */
import { pino } from 'pino';
import { createPool } from '../../../platform/db/pool.js';
import { createJobsService } from '../../../platform/jobs/index.js';
import { startHealthWorkers } from '../index.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = createPool(databaseUrl, { max: 4 });
const logger = pino({ level: 'silent' });
const jobs = createJobsService({
  pool,
  logger,
  heartbeatIntervalMs: 200,
  staleWorkerAfterMs: 1000,
  schedules: {
    pollIntervalMs: 100,
    leaseMs: Number(process.env.LEASE_MS ?? 1000),
    renewIntervalMs: Number(process.env.RENEW_INTERVAL_MS ?? 200),
  },
});
await startHealthWorkers({
  pool,
  jobs,
  logger,
  pollIntervalMs: 200,
  runTimeoutMs: Number(process.env.RUN_TIMEOUT_MS ?? 3000),
  runner: { checkTimeoutMs: Number(process.env.CHECK_TIMEOUT_MS ?? 60_000) },
});
await jobs.start();
process.stdout.write('started\n');
await new Promise<void>(() => undefined);
