// The application list's cost (issue 28): GET /api/application used to build a full audit report
// per application (9 queries each: the row, configs, components, checks with uptime, changes,
// backups, insights, incidents, permissions); it now counts every application of a batch of 100
// in one statement. Both are timed here on the same database in the same run, so the ratio holds
// on a loaded machine even where absolute times do not.
// Sizes: APPLICATIONS_BENCH_APPS (default 200), APPLICATIONS_BENCH_ITEMS (default 20,000),
// APPLICATIONS_BENCH_ITERATIONS (default 5).
import os from 'node:os';
import {
  applicationReport,
  listApplications,
} from '../apps/server/src/modules/applications/application-service.js';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import type { BenchContext } from './run.js';

const APPS = Number(process.env.APPLICATIONS_BENCH_APPS ?? 200);
const ITEMS = Number(process.env.APPLICATIONS_BENCH_ITEMS ?? 20_000);
const ITERATIONS = Number(process.env.APPLICATIONS_BENCH_ITERATIONS ?? 5);

const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function bench({ databaseUrl, log }: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(databaseUrl);
  try {
    await pool.query(
      `INSERT INTO config_items (type, config_class, name, labels, tags, health)
       SELECT (ARRAY['Kubernetes::Deployment', 'Kubernetes::Pod', 'AWS::RDS::DBInstance'])[1 + i % 3],
              'Bench', 'svc-' || (i % $2::int) || '-' || i,
              jsonb_build_object('app', 'app-' || (i % $2::int)),
              jsonb_build_object('env', (ARRAY['prod', 'staging'])[1 + i % 2]),
              (ARRAY['healthy', 'healthy', 'warning', 'unhealthy'])[1 + i % 4]
         FROM generate_series(1, $1::int) AS i`,
      [ITEMS, APPS],
    );
    await pool.query(
      `INSERT INTO components (name, type, health, labels)
       SELECT 'component-' || i, 'Service', 'healthy', jsonb_build_object('app', 'app-' || i)
         FROM generate_series(0, $1::int - 1) AS i`,
      [APPS],
    );
    await pool.query(
      `INSERT INTO applications (name, namespace, spec)
       SELECT 'app-' || i, 'bench', jsonb_build_object(
                'mapping', jsonb_build_object('environments', jsonb_build_object('prod', jsonb_build_array(
                  jsonb_build_object('labelSelector', 'app=app-' || i, 'tagSelector', 'env=prod')))),
                'configs', jsonb_build_array(jsonb_build_object('types', jsonb_build_array('AWS::RDS::DBInstance'),
                  'labelSelector', 'app=app-' || i)),
                'components', jsonb_build_array(jsonb_build_object('labelSelector', 'app=app-' || i)))
         FROM generate_series(0, $1::int - 1) AS i`,
      [APPS],
    );
    await pool.query('ANALYZE config_items; ANALYZE components; ANALYZE applications');
    log(`seeded ${ITEMS} config items, ${APPS} components and ${APPS} applications`);

    // What the list did before: one full report per application, all at once.
    const reportPerApplication = async () => {
      const { rows } = await pool.query<{ name: string; namespace: string }>(
        `SELECT name, namespace FROM applications WHERE deleted_at IS NULL ORDER BY namespace, name LIMIT 1000`,
      );
      const now = new Date();
      return Promise.all(
        rows.map((row) => applicationReport(pool, row.namespace, row.name, '1d', false, now)),
      );
    };
    const time = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    await time(reportPerApplication);
    await time(() => listApplications(pool));
    const before: number[] = [];
    const after: number[] = [];
    for (let index = 0; index < ITERATIONS; index++) {
      // Alternated, so load on the machine falls on both alike.
      before.push(await time(reportPerApplication));
      after.push(await time(() => listApplications(pool)));
    }
    const result = {
      applications: APPS,
      configItems: ITEMS,
      iterations: ITERATIONS,
      loadAverage: os.loadavg().map(round),
      reportPerApplicationMedianMs: round(median(before)),
      batchedListMedianMs: round(median(after)),
      ratio: round(median(before) / median(after)),
      queries: { reportPerApplication: 1 + APPS * 8, batchedList: 1 + Math.ceil(APPS / 100) },
    };
    log(JSON.stringify(result));
    return result;
  } finally {
    await pool.end();
  }
}
