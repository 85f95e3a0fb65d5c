import {
  catalogSummaryRequestSchema,
  changeSearchRequestSchema,
  scraperCreateRequestSchema,
  scraperIdParamsSchema,
  scraperUpdateRequestSchema,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SecretBox } from '../../platform/secrets.js';
import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { errorMessage } from '../../platform/jobs/support.js';
import type { Logger } from '../../platform/logger.js';
import { requirePermission } from '../auth/index.js';
import { createCatalogService } from './catalog-service.js';
import { createScraper, updateScraper } from './scraper-editor.js';
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

  // Every route's request is checked by its contract schema before the handler (a bad value is a
  // 400 naming the field, from the one error handler); the handlers read the typed values.
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/catalog/summary',
    { preHandler: readCatalog, schema: { body: catalogSummaryRequestSchema.optional() } },
    async (request) => {
      return await service.summary(request.body ?? {});
    },
  );

  // The parameters may come in the query string, the body, or both (the body's win).
  typed.post(
    '/api/catalog/changes',
    {
      preHandler: readCatalog,
      schema: { querystring: changeSearchRequestSchema, body: changeSearchRequestSchema.optional() },
    },
    async (request) => {
      return await service.changes({ ...request.query, ...request.body });
    },
  );

  // The scraper editor saves here rather than through /api/db so that every JSONPath and
  // expression of the spec is checked first (a broken one is refused with its field path).
  typed.post(
    '/api/catalog/scrapers',
    { preHandler: createScrapers, schema: { body: scraperCreateRequestSchema } },
    async (request, reply) => {
      const saved = await createScraper(options.pool, request.body, request.auth?.person.id, options.secrets);
      return await reply.status(201).send(saved);
    },
  );

  typed.put(
    '/api/catalog/scrapers/:id',
    {
      preHandler: updateScrapers,
      schema: { params: scraperIdParamsSchema, body: scraperUpdateRequestSchema },
    },
    async (request) => {
      return await updateScraper(options.pool, request.params.id, request.body, options.secrets);
    },
  );

  typed.post(
    '/api/catalog/scrapers/:id/run',
    { preHandler: runScrapers, schema: { params: scraperIdParamsSchema } },
    async (request, reply) => {
      const { id } = request.params;
      const scraper = await loadScraper(options.pool, id);
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
    },
  );
}
