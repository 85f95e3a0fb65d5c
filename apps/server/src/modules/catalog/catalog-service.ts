import type { CatalogSummaryRequest, ChangeSearchRequest } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { searchChanges, type ChangeSearchResult } from './change-search.js';
import { summarizeCatalog, type CatalogSummaryOptions, type ConfigSummaryRow } from './catalog-summary.js';

/**
 * The catalog API's reads on one pool: the summary (catalog-summary.ts) and the change search
 * (change-search.ts). Their shared filters are in catalog-filters.ts, the request error and id
 * check in catalog-request.ts.
 */
export interface CatalogService {
  summary(input: CatalogSummaryRequest): Promise<ConfigSummaryRow[]>;
  changes(input: ChangeSearchRequest): Promise<ChangeSearchResult>;
}

export interface CatalogServiceOptions extends CatalogSummaryOptions {
  pool: Pool;
}

export function createCatalogService(options: CatalogServiceOptions): CatalogService {
  const { pool } = options;
  return {
    summary: (input) => summarizeCatalog(pool, input, options),
    changes: (input) => searchChanges(pool, input),
  };
}
