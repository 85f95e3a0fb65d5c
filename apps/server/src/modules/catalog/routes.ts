import type { SecretBox } from '../../platform/secrets.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { errorMessage } from '../../platform/jobs/support.js';
import type { Logger } from '../../platform/logger.js';
import { requirePermission } from '../auth/index.js';
import { CatalogRequestError, createCatalogService, isUuid } from './catalog-service.js';
import { createScraper, ScrapeConfigInvalidError, updateScraper } from './scraper-editor.js';
import { loadScraper, runScrapeJob, SCRAPER_JOB_NAME, SCRAPER_RESOURCE_TYPE } from './scraper-scheduler.js';

export interface CatalogRoutesOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  logger: Logger;
  /** Relative file paths and exec scripts of Run Now resolve here. Default process.cwd(). */
  baseDir?: string;
  /** Seals the secret-shaped fields of scraper specs the editor saves. */
  secrets?: SecretBox;
  /** Opens the sealed secrets of a stored spec (platform/secret-fields.ts) for a run; as is without it. */
  openSecrets?: (spec: unknown) => unknown;
}

type Parameters = Record<string, unknown>;

function parameters(value: unknown): Parameters {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Parameters) : {};
}

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof ScrapeConfigInvalidError)
    return reply
      .status(error.statusCode)
      .send({ error: error.message, field: error.issues[0].path, issues: error.issues });
  if (error instanceof CatalogRequestError)
    return reply
      .status(error.statusCode)
      .send({ error: error.message, ...(error.field ? { field: error.field } : {}) });
  throw error;
}

/** The catalog API of API.md §2 (summary, change search) and Run Now for scrapers. */
export async function catalogRoutes(app: FastifyInstance, options: CatalogRoutesOptions): Promise<void> {
  const service = createCatalogService({ pool: options.pool });
  // Contracts map the catalog relations to `database` under the `catalog` object and the
  // `config` feature. Saving a scraper asks for the verb /api/db/config_scrapers asks for
  // (create, update), so one token scope gives the same answer on both doors; running a scraper
  // creates, updates and deletes config items, so it needs all three (`write`).
  const readCatalog = requirePermission('database', 'read', { object: 'catalog', feature: 'config' });
  const createScrapers = requirePermission('config_scrapers', 'create', { object: 'catalog' });
  const updateScrapers = requirePermission('config_scrapers', 'update', { object: 'catalog' });
  const runScrapers = requirePermission('config_scrapers', 'write', { object: 'catalog' });

  app.post('/api/catalog/summary', { preHandler: readCatalog }, async (request, reply) => {
    try {
      return await service.summary(parameters(request.body));
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.post('/api/catalog/changes', { preHandler: readCatalog }, async (request, reply) => {
    try {
      return await service.changes({ ...parameters(request.query), ...parameters(request.body) });
    } catch (error) {
      return sendError(reply, error);
    }
  });

  // The scraper editor saves here rather than through /api/db so that every JSONPath and
  // expression of the spec is checked first (a broken one is refused with its field path).
  app.post('/api/catalog/scrapers', { preHandler: createScrapers }, async (request, reply) => {
    try {
      const saved = await createScraper(
        options.pool,
        parameters(request.body),
        request.auth?.person.id,
        options.secrets,
      );
      return await reply.status(201).send(saved);
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.put('/api/catalog/scrapers/:id', { preHandler: updateScrapers }, async (request, reply) => {
    const { id } = request.params as { id: string };
    try {
      return await updateScraper(options.pool, id, parameters(request.body), options.secrets);
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.post('/api/catalog/scrapers/:id/run', { preHandler: runScrapers }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const scraper = isUuid(id) ? await loadScraper(options.pool, id) : undefined;
    if (!scraper || scraper.deleted_at !== null)
      return reply.status(404).send({ error: 'Scraper not found' });
    const job = await options.jobs.startJob({
      name: SCRAPER_JOB_NAME,
      resourceType: SCRAPER_RESOURCE_TYPE,
      resourceId: scraper.id,
      agentId: scraper.agent_id,
    });
    try {
      const outcome = await runScrapeJob(options.pool, scraper, job, {
        baseDir: options.baseDir,
        openSecrets: options.openSecrets,
      });
      const status = await job.success();
      return {
        job_id: job.id,
        status,
        scrape_summary: outcome.scrapeSummary,
        summary: outcome.summary,
        errors: [],
      };
    } catch (error) {
      const message = errorMessage(error);
      options.logger.warn({ scraper: scraper.id, err: message }, 'scraper run failed');
      const status = await job.failure(message);
      return { job_id: job.id, status, errors: [message] };
    }
  });
}
