/**
 * A separate replica for the crash test: a jobs service with short leases running the playbook
 * runner against DATABASE_URL, to be killed with SIGKILL mid-run.
 */
import pg from 'pg';
import { pino } from 'pino';
import { createJobsService } from '../../../platform/jobs/index.js';
import { startPlaybookWorkers } from '../workers.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
const logger = pino({ level: 'silent' });
const jobs = createJobsService({
  pool,
  logger,
  heartbeatIntervalMs: 200,
  staleWorkerAfterMs: 1000,
  events: { pollIntervalMs: 100, leaseMs: 1000, renewIntervalMs: 200 },
});
await startPlaybookWorkers({ pool, jobs, logger, metrics: undefined as never, cancelPollMs: 100 });
await jobs.start();
process.stdout.write('started\n');
