import { z } from 'zod';
// Known exception, left for issue 19 §2: this kind moves into its module, which registers it.
import { scrapeConfigSpecIssues } from './spec-validation.js';
import { defineResourceKind, durationField, scheduleField } from '../../resource-kinds/index.js';

/** How long scraped changes and items are kept (settings spec §3, "Retention settings"). */
export const retentionSpec = z.looseObject({
  changes: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        age: durationField.optional(),
        count: z.number().int().min(0).optional(),
      }),
    )
    .optional(),
  types: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        createdAge: durationField.optional(),
        updatedAge: durationField.optional(),
        deletedAge: durationField.optional(),
      }),
    )
    .optional(),
  staleItemAge: durationField.optional(),
});

/**
 * ScrapeConfig (`configs.flanksource.com/v1`): catalog scrapers. The scraper lists (`file`,
 * `sql`, `kubernetes`, ...) are kept as written; `specIssues` checks their JSONPaths and
 * expressions (catalog/spec-validation.ts).
 */
export const scrapeConfigSpec = z.looseObject({
  schedule: scheduleField.optional(),
  retention: retentionSpec.optional(),
  full: z.boolean().optional(),
});

export const scrapeConfigKind = defineResourceKind({
  kind: 'ScrapeConfig',
  apiVersions: ['configs.flanksource.com/v1'],
  plural: 'scrapeconfigs',
  table: 'config_scrapers',
  spec: scrapeConfigSpec,
  // Migration 0043 derives the same column in the database, whichever way the spec arrives.
  columns: (spec) => ({ schedule: spec.schedule ?? null }),
  derivedColumns: ['schedule'],
  // Every JSONPath and expression of the scrapers must parse, however the spec arrives.
  specIssues: scrapeConfigSpecIssues,
});
