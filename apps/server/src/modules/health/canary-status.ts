import type { Pool, PoolClient } from '../../platform/db/pool.js';

/** What Opsdeck knows of a canary's health, as the ecosystem's Canary `status` carries it. */
export interface CanaryStatus {
  /** healthy, unhealthy or unknown (any unhealthy check makes it unhealthy). */
  status: string;
  checks: { healthy: number; unhealthy: number; unknown: number };
  lastCheck: Date | null;
  lastTransitionedTime: Date | null;
  /** `3/4` passed runs of the last hour, or '' when none ran. */
  uptime1h: string;
  /** Mean duration of the last hour's runs in ms, or null. */
  latency1h: number | null;
  /** The latest run's message or error. */
  message: string | null;
}

/** The statuses of these canaries (ids without a live canary are absent). */
export async function loadCanaryStatuses(
  db: Pool | PoolClient,
  canaryIds: readonly string[],
): Promise<Map<string, CanaryStatus>> {
  if (canaryIds.length === 0) return new Map();
  const { rows } = await db.query<{
    id: string;
    status: string;
    checks: CanaryStatus['checks'];
    last_runtime: Date | null;
    last_transition_time: Date | null;
    passed: number;
    runs: number;
    latency: number | null;
    message: string | null;
  }>(
    `SELECT cws.id, cws.status, cws.checks, cws.last_runtime,
            t.last_transition_time, h.passed, h.runs, h.latency, m.message
       FROM canaries_with_status cws
       LEFT JOIN LATERAL (
         SELECT max(ch.last_transition_time) AS last_transition_time
           FROM checks ch WHERE ch.canary_id = cws.id AND ch.deleted_at IS NULL
       ) t ON true
       LEFT JOIN LATERAL (
         SELECT count(*) FILTER (WHERE cs.status)::int AS passed, count(*)::int AS runs,
                round(avg(cs.duration))::int AS latency
           FROM checks ch JOIN check_statuses cs ON cs.check_id = ch.id
          WHERE ch.canary_id = cws.id AND ch.deleted_at IS NULL AND cs.time > now() - interval '1 hour'
       ) h ON true
       LEFT JOIN LATERAL (
         SELECT COALESCE(NULLIF(cs.error, ''), cs.message) AS message
           FROM checks ch JOIN check_statuses cs ON cs.check_id = ch.id
          WHERE ch.canary_id = cws.id AND ch.deleted_at IS NULL
          ORDER BY cs.time DESC LIMIT 1
       ) m ON true
      WHERE cws.id = ANY($1::uuid[]) AND cws.deleted_at IS NULL`,
    [canaryIds],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        status: row.status,
        checks: row.checks,
        lastCheck: row.last_runtime,
        lastTransitionedTime: row.last_transition_time,
        uptime1h: row.runs > 0 ? `${row.passed}/${row.runs}` : '',
        latency1h: row.latency,
        message: row.message,
      },
    ]),
  );
}
