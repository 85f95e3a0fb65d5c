import { READ, READ_UPDATE, READ_UPDATE_DELETE } from '../../data-api/index.js';
import { openSealedStrings } from '../../platform/secret-fields.js';
import type { ServerModule } from '../../server-module.js';
import { configDetailSource } from './read-sources.js';
import { catalogRoutes } from './routes.js';
import { scrapeConfigKind } from './scrape-config-kind.js';
import { startCatalogWorkers } from './workers.js';

/** Config items, their changes, analysis and relationships, and the ScrapeConfig scrapers. */
export const catalogModule: ServerModule = {
  name: 'catalog',
  kinds: [scrapeConfigKind],
  dataApi: {
    tables: {
      config_items: { actions: READ_UPDATE_DELETE },
      config_changes: { actions: READ },
      config_analysis: { actions: READ_UPDATE },
      config_relationships: { actions: READ },
      config_component_relationships: {},
      config_scrapers: {},
    },
    views: {
      configs: {},
      // Its counts and scraper cover only the rows the caller may read.
      config_detail: { readSource: configDetailSource },
      config_names: {},
      config_types: {},
      config_statuses: {},
      config_tags: {},
      config_labels: {},
      config_tags_labels_keys: {},
      config_analysis_items: {},
      config_analysis_analyzers: {},
      analysis_types: {},
      change_types: {},
      config_scrapers_with_status: {},
    },
    functions: ['related_configs_recursive'],
  },
  async routes(app, { pool, jobs, logger, secrets }) {
    // Specs' sealed secrets are opened only for the run that uses them.
    const openSecrets = (spec: unknown): unknown => openSealedStrings(spec, secrets);
    await app.register(catalogRoutes, { pool, jobs, logger, openSecrets, secrets });
  },
  async startWorkers({ pool, jobs, logger, secrets }) {
    const openSecrets = (spec: unknown): unknown => openSealedStrings(spec, secrets);
    return startCatalogWorkers({ pool, jobs, logger, openSecrets });
  },
};
