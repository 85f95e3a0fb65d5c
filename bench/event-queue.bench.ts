// Event queue throughput: events handled per second by the jobs service (claim with SKIP LOCKED,
// handler, delete) against a bare SQL loop doing the same claim-and-delete in one statement.
import { performance } from 'node:perf_hooks';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createJobsService, enqueueEvents } from '../apps/server/src/platform/jobs/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import type { BenchContext } from './run.js';

const EVENTS = 10_000;

async function fill(pool: ReturnType<typeof createPool>, name: string): Promise<void> {
  for (let start = 0; start < EVENTS; start += 1000) {
    await enqueueEvents(
      pool,
      Array.from({ length: 1000 }, (_, index) => ({ name, properties: { n: String(start + index) } })),
    );
  }
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 20 });
  try {
    // Baseline: one statement claims and deletes 100 rows at a time, no handler, no bookkeeping.
    await fill(pool, 'bench.raw');
    let started = performance.now();
    let handled = 0;
    while (handled < EVENTS) {
      const { rowCount } = await pool.query(
        `DELETE FROM event_queue WHERE id IN (
           SELECT id FROM event_queue WHERE name = 'bench.raw' ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED)`,
      );
      handled += rowCount ?? 0;
    }
    const rawSeconds = (performance.now() - started) / 1000;
    ctx.log(`raw SQL claim+delete: ${Math.round(EVENTS / rawSeconds)} events/s`);

    // The jobs service: two services (as two replicas would), each with its own pool.
    await fill(pool, 'bench.service');
    let done = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const servicePools = [0, 1].map(() => createPool(ctx.databaseUrl, { max: 12 }));
    const services = servicePools.map((servicePool) =>
      createJobsService({
        pool: servicePool,
        logger: createLogger('warn'),
        events: { concurrency: 10, pollIntervalMs: 50 },
      }),
    );
    for (const service of services) {
      service.events.on('bench.service', async () => {
        done += 1;
        if (done === EVENTS) finish();
      });
    }
    started = performance.now();
    await Promise.all(services.map((service) => service.start()));
    await finished;
    const serviceSeconds = (performance.now() - started) / 1000;
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all(servicePools.map((servicePool) => servicePool.end()));
    ctx.log(`jobs service (2 replicas): ${Math.round(EVENTS / serviceSeconds)} events/s`);
    return {
      events: EVENTS,
      rawSqlEventsPerSecond: Math.round(EVENTS / rawSeconds),
      serviceEventsPerSecond: Math.round(EVENTS / serviceSeconds),
      ratioServiceToRaw: Math.round((rawSeconds / serviceSeconds) * 100) / 100,
    };
  } finally {
    await pool.end();
  }
}
