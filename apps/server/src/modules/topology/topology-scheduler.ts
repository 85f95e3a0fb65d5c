import type { Pool } from '../../platform/db/pool.js';
import {
  createResourceScheduleSync,
  parseSchedule,
  type JobRun,
  type JobsLogger,
  type JobsService,
  type ResourceScheduleSync,
} from '../../platform/jobs/index.js';
import {
  runTopology,
  TOPOLOGY_COLUMNS,
  loadTopology,
  type TopologyRow,
  type TopologyRunOptions,
  type TopologyRunSummary,
} from './topology-engine.js';

/** The job history name of topology runs (scheduled and Run Now). */
export const TOPOLOGY_JOB_NAME = 'Topology';
export const TOPOLOGY_RESOURCE_TYPE = 'topology';
/** A topology without a schedule runs every 5 minutes (the ecosystem's default). */
export const DEFAULT_TOPOLOGY_SCHEDULE = '@every 5m';
export const DEFAULT_TOPOLOGY_POLL_INTERVAL_MS = 10_000;

export function topologyScheduleName(topologyId: string): string {
  return `topology:${topologyId}`;
}

export function topologyScheduleOf(topology: Pick<TopologyRow, 'schedule' | 'spec'>): string {
  const fromSpec = topology.spec.schedule;
  if (typeof fromSpec === 'string' && fromSpec.trim() !== '') return fromSpec.trim();
  if (topology.schedule && topology.schedule.trim() !== '') return topology.schedule.trim();
  return DEFAULT_TOPOLOGY_SCHEDULE;
}

/** One run recorded on a job: successes count the components written. Throws on failure. */
export async function runTopologyJob(
  pool: Pool,
  topology: TopologyRow,
  job: Pick<JobRun, 'incrementSuccess' | 'setDetail'>,
  options: TopologyRunOptions,
): Promise<TopologyRunSummary> {
  const summary = await runTopology(pool, topology, options);
  job.setDetail('summary', summary);
  if (summary.components > 0) job.incrementSuccess(summary.components);
  return summary;
}

export interface TopologySchedulerOptions extends TopologyRunOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: TopologyRunOptions['logger'] & JobsLogger;
  pollIntervalMs?: number;
  runTimeoutMs?: number;
}

/**
 * One schedule per live topology (`topology:<id>`), kept in step with `topologies` by polling
 * updated_at; a deleted topology is unregistered and its components marked deleted.
 */
export function createTopologyScheduler(options: TopologySchedulerOptions): ResourceScheduleSync {
  const { pool, jobs, pollIntervalMs, runTimeoutMs, ...runOptions } = options;
  return createResourceScheduleSync<TopologyRow>({
    jobs,
    logger: options.logger,
    kind: 'topology',
    pollIntervalMs: pollIntervalMs ?? DEFAULT_TOPOLOGY_POLL_INTERVAL_MS,
    load: async (knownIds) =>
      (
        await pool.query<TopologyRow>(
          `SELECT ${TOPOLOGY_COLUMNS} FROM topologies
           WHERE deleted_at IS NULL OR id = ANY($1::uuid[])
              OR EXISTS (SELECT 1 FROM components c WHERE c.topology_id = topologies.id AND c.deleted_at IS NULL)`,
          [knownIds],
        )
      ).rows,
    idOf: (topology) => topology.id,
    updatedAtOf: (topology) => topology.updated_at,
    scheduleName: topologyScheduleName,
    decide: async (topology) => {
      if (topology.deleted_at === null) {
        const schedule = topologyScheduleOf(topology);
        try {
          parseSchedule(schedule);
        } catch {
          return { schedule: DEFAULT_TOPOLOGY_SCHEDULE };
        }
        return { schedule };
      }
      await pool.query(
        `UPDATE components SET deleted_at = now() WHERE topology_id = $1 AND deleted_at IS NULL`,
        [topology.id],
      );
      return { schedule: null, forget: true };
    },
    definition: (topology) => ({
      jobName: TOPOLOGY_JOB_NAME,
      timeoutMs: runTimeoutMs,
      resource: { type: TOPOLOGY_RESOURCE_TYPE, id: topology.id },
      agentId: topology.agent_id,
      handler: async ({ signal, job }) => {
        const current = await loadTopology(pool, topology.id);
        if (!current || current.deleted_at !== null) return;
        await runTopologyJob(pool, current, job, { ...runOptions, signal });
      },
    }),
  });
}
