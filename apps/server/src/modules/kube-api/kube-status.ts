/**
 * The `status` of objects: what Opsdeck knows about a resource beyond its spec, read through the
 * owning module's service (a canary's health from the health module).
 */
import type { Pool } from '../../platform/db/pool.js';
import type { ResourceKind } from '../../resource-kinds/index.js';
import { loadCanaryStatuses } from '../health/index.js';
import type { Json } from './json-patch.js';
import type { KubeRow, RowStatuses } from './kube-objects.js';

type StatusLoader = (pool: Pool, rows: readonly KubeRow[]) => Promise<RowStatuses>;

const loaders: Readonly<Partial<Record<string, StatusLoader>>> = {
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

export async function loadStatuses(
  pool: Pool,
  kind: ResourceKind,
  rows: readonly KubeRow[],
): Promise<RowStatuses | undefined> {
  const loader = loaders[kind.kind];
  return loader && rows.length > 0 ? loader(pool, rows) : undefined;
}
