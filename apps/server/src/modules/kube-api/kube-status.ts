/**
 * The `status` of objects: what Opsdeck knows about a resource beyond its spec, read through the
 * owning module's service (a canary's health from the health module), or the owning module's
 * status view (a scraper's last run from config_scrapers_with_status).
 */
import type { Pool } from '../../platform/db/pool.js';
import type { ResourceKind } from '../../resource-kinds/index.js';
import { loadCanaryStatuses } from '../health/index.js';
import type { Json } from './json-patch.js';
import type { KubeRow, RowStatuses } from './kube-objects.js';

type StatusLoader = (pool: Pool, rows: readonly KubeRow[]) => Promise<RowStatuses>;

const loaders: Readonly<Partial<Record<string, StatusLoader>>> = {
  ScrapeConfig: scraperStatuses,
  async Canary(pool, rows) {
    const statuses = await loadCanaryStatuses(
      pool,
      rows.map((row) => row.id),
    );
    return new Map(
      [...statuses].map(([id, status]) => [
        id,
        {
          status: status.status,
          checks: status.checks,
          lastCheck: status.lastCheck?.toISOString() ?? null,
          lastTransitionedTime: status.lastTransitionedTime?.toISOString() ?? null,
          uptime1h: status.uptime1h,
          latency1h: status.latency1h,
          message: status.message,
        } satisfies Record<string, Json>,
      ]),
    );
  },
};

interface ScraperRunRow {
  id: string;
  job_status: string | null;
  job_time_start: Date | null;
  job_time_end: Date | null;
  job_duration_millis: number | null;
  job_success_count: number | null;
  job_error_count: number | null;
  job_details: { errors?: unknown } | null;
  job_last_failed: Date | null;
}

/** A scraper's last finished run and its last failure (config_scrapers_with_status, as the catalog shows them). */
async function scraperStatuses(pool: Pool, rows: readonly KubeRow[]): Promise<RowStatuses> {
  const { rows: runs } = await pool.query<ScraperRunRow>(
    `SELECT id, job_status, job_time_start, job_time_end, job_duration_millis, job_success_count,
            job_error_count, job_details, job_last_failed
       FROM config_scrapers_with_status WHERE id = ANY($1::uuid[])`,
    [rows.map((row) => row.id)],
  );
  return new Map(
    runs.map((run) => {
      const errors = Array.isArray(run.job_details?.errors)
        ? run.job_details.errors.filter((error): error is string => typeof error === 'string').slice(0, 5)
        : [];
      const lastRun: Json = run.job_status
        ? {
            status: run.job_status,
            startedAt: run.job_time_start?.toISOString() ?? null,
            finishedAt: run.job_time_end?.toISOString() ?? null,
            durationMillis: run.job_duration_millis,
            successCount: run.job_success_count ?? 0,
            errorCount: run.job_error_count ?? 0,
            errors,
          }
        : null;
      return [run.id, { lastRun, lastFailed: run.job_last_failed?.toISOString() ?? null }];
    }),
  );
}

export async function loadStatuses(
  pool: Pool,
  kind: ResourceKind,
  rows: readonly KubeRow[],
): Promise<RowStatuses | undefined> {
  const loader = loaders[kind.kind];
  return loader && rows.length > 0 ? loader(pool, rows) : undefined;
}
