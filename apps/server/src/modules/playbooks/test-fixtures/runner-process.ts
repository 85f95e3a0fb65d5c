/**
 * A separate replica for the crash test and the benchmark: a jobs service running the playbook
 * runner against DATABASE_URL, with the server's pool size. Short leases by default (the crash
 * test kills it with SIGKILL mid-run); LEASE_MS, POOL_MAX and RUN_CONCURRENCY set others.
 */
import pg from 'pg';
import { pino } from 'pino';
import { createJobsService } from '../../../platform/jobs/index.js';
import { startPlaybookWorkers } from '../workers.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
// The benchmark compares settings through POOL_MAX and RUN_CONCURRENCY.
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.POOL_MAX ?? 20) });
const leaseMs = Number(process.env.LEASE_MS ?? 1000);
const runConcurrency = process.env.RUN_CONCURRENCY ? Number(process.env.RUN_CONCURRENCY) : undefined;
const logger = pino({ level: 'silent' });
const jobs = createJobsService({
  pool,
  logger,
  heartbeatIntervalMs: 200,
  staleWorkerAfterMs: 1000,
  events: { pollIntervalMs: 100, leaseMs, renewIntervalMs: Math.round(leaseMs / 5) },
});
await startPlaybookWorkers({
  pool,
  jobs,
  logger,
  metrics: undefined as never,
  cancelPollMs: 100,
  runConcurrency,
});
await jobs.start();
process.stdout.write('started\n');
