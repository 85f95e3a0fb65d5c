import type { Pool } from '../../platform/db/pool.js';
import {
  createResourceScheduleSync,
  type JobRun,
  type JobsLogger,
  type JobsService,
  type ResourceScheduleSync,
} from '../../platform/jobs/index.js';
import { runScrape, type ScrapeOutcome, type ScraperRow } from './scrape-engine.js';

/** The job history name of scrapes (scheduled and Run Now). */
export const SCRAPER_JOB_NAME = 'Scraper';
export const SCRAPER_RESOURCE_TYPE = 'config_scraper';
/** A scraper without a schedule runs hourly. */
export const DEFAULT_SCRAPER_SCHEDULE = '@every 60m';
export const DEFAULT_SCRAPER_POLL_INTERVAL_MS = 10_000;

export function scraperScheduleName(scraperId: string): string {
  return `config_scraper:${scraperId}`;
}

interface ScraperRecord extends ScraperRow {
  schedule: string | null;
  updated_at: Date;
}

const SCRAPER_COLUMNS = 'id, name, namespace, spec, agent_id, schedule, updated_at, deleted_at';

export async function loadScraper(pool: Pool, id: string): Promise<ScraperRecord | undefined> {
  const { rows } = await pool.query<ScraperRecord>(
    `SELECT ${SCRAPER_COLUMNS} FROM config_scrapers WHERE id = $1`,
    [id],
  );
  return rows[0];
}

export function scheduleOf(scraper: Pick<ScraperRecord, 'schedule' | 'spec'>): string {
  const fromSpec = scraper.spec?.schedule;
  if (typeof scraper.schedule === 'string' && scraper.schedule.trim() !== '') return scraper.schedule;
  if (typeof fromSpec === 'string' && fromSpec.trim() !== '') return fromSpec;
  return DEFAULT_SCRAPER_SCHEDULE;
}

export interface ScrapeJobOptions {
  signal?: AbortSignal;
  baseDir?: string;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

/**
 * One scrape recorded on a job: successes count the items read, details carry the per-type
 * scrape summary and the reconcile summary. A failure throws (the caller ends the job FAILED).
 */
export async function runScrapeJob(
  pool: Pool,
  scraper: ScraperRow,
  job: Pick<JobRun, 'incrementSuccess' | 'setDetail'>,
  options: ScrapeJobOptions = {},
): Promise<ScrapeOutcome> {
  const opened = options.openSecrets
    ? { ...scraper, spec: options.openSecrets(scraper.spec) as ScraperRow['spec'] }
    : scraper;
  const outcome = await runScrape(pool, opened, options);
  job.setDetail('scrape_summary', outcome.scrapeSummary);
  job.setDetail('summary', outcome.summary);
  if (outcome.summary.scraped > 0) job.incrementSuccess(outcome.summary.scraped);
  return outcome;
}

export interface ScraperSchedulerOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: JobsLogger;
  pollIntervalMs?: number;
  /** A scrape still running after this is recorded FAILED. Default 5 minutes. */
  runTimeoutMs?: number;
  baseDir?: string;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

export type ScraperScheduler = ResourceScheduleSync;

/**
 * One schedule per live scraper (`config_scraper:<id>`), kept in step with config_scrapers by
 * polling updated_at; deleted scrapers are unregistered and their items marked deleted.
 */
export function createScraperScheduler(options: ScraperSchedulerOptions): ScraperScheduler {
  const { pool } = options;
  return createResourceScheduleSync<ScraperRecord>({
    jobs: options.jobs,
    logger: options.logger,
    kind: 'scraper',
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_SCRAPER_POLL_INTERVAL_MS,
    load: async (knownIds) =>
      (
        await pool.query<ScraperRecord>(
          `SELECT ${SCRAPER_COLUMNS} FROM config_scrapers
           WHERE deleted_at IS NULL OR id = ANY($1::uuid[])
              OR EXISTS (SELECT 1 FROM config_items i WHERE i.scraper_id = config_scrapers.id AND i.deleted_at IS NULL)`,
          [knownIds],
        )
      ).rows,
    idOf: (scraper) => scraper.id,
    updatedAtOf: (scraper) => scraper.updated_at,
    scheduleName: scraperScheduleName,
    decide: async (scraper) => {
      if (scraper.deleted_at === null) return { schedule: scheduleOf(scraper) };
      // The scraper's own soft delete marks its items deleted (0004 config_items comment).
      await pool.query(
        `UPDATE config_items SET deleted_at = now(), delete_reason = 'scraper deleted'
         WHERE scraper_id = $1 AND deleted_at IS NULL`,
        [scraper.id],
      );
      return { schedule: null, forget: true };
    },
    definition: (scraper) => ({
      jobName: SCRAPER_JOB_NAME,
      timeoutMs: options.runTimeoutMs,
      resource: { type: SCRAPER_RESOURCE_TYPE, id: scraper.id },
      agentId: scraper.agent_id,
      handler: async ({ signal, job }) => {
        const current = await loadScraper(pool, scraper.id);
        if (!current || current.deleted_at !== null) return;
        await runScrapeJob(pool, current, job, {
          signal,
          baseDir: options.baseDir,
          openSecrets: options.openSecrets,
        });
      },
    }),
  });
}
