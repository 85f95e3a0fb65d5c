import { z } from 'zod';
import { jobStatusSchema, latestJobColumnsSchema } from './jobs.js';
import { timeParameterSchema } from './time.js';

/**
 * Severities of a config change, a config analysis (insight) and a health check's spec, lowest
 * first: the ecosystem's five. The spec names these fields without listing their values; these
 * are the values the change feed and insights filters offer and the Canary kind accepts.
 */
export const RESOURCE_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export const resourceSeveritySchema = z.enum(RESOURCE_SEVERITIES);
export type ResourceSeverity = z.infer<typeof resourceSeveritySchema>;

// ---------------------------------------------------------------------------------------------
// The catalog API (API.md §2): POST /api/catalog/summary, POST /api/catalog/changes, the scraper
// editor's saves and Run Now. Request schemas are the routes' Fastify schemas; a value they
// refuse is a 400 naming the field, with the messages below.
// ---------------------------------------------------------------------------------------------

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A whole number from `min` to `max`, as JSON or as query text (`?page=2`). */
function wholeNumberSchema(min: number, max: number, message: string) {
  return z.union([z.number(), z.string()], { error: message }).refine((value) => {
    const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
    return Number.isInteger(number) && number >= min && number <= max;
  }, message);
}

/** `true`, or `'true'` from a query string. */
const flagSchema = z.union([z.boolean(), z.enum(['true', 'false'])]);

/**
 * A tri-state filter: `a,!b` or the UI's `a:1,b:-1` (included values OR-ed, excluded ones AND-ed
 * as NOT), or a list of such values.
 */
function tristateSchema(field: string) {
  return z.union([z.string(), z.array(z.string())], { error: `${field} must be a string` }).nullish();
}

const TAG_SELECTOR_PART = /^\s*([^=!]+?)\s*(!=|==|=)\s*(.*?)\s*$/;

/** `key=value,key2!=value2`, a list of such, or a map of key to value. */
const tagSelectorSchema = z
  .union(
    [z.string(), z.array(z.string()), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))],
    {
      error: 'tags must be key=value text or a map',
    },
  )
  .nullish()
  .superRefine((value, context) => {
    if (value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value))) return;
    for (const part of Array.isArray(value) ? value : value.split(',')) {
      if (part.trim() !== '' && !TAG_SELECTOR_PART.test(part))
        context.addIssue({ code: 'custom', message: `tags: "${part}" is not key=value` });
    }
  });

/** Columns a catalog summary can be grouped by (besides `tag:<key>`, `label:<key>` or a bare tag key). */
export const CATALOG_SUMMARY_GROUP_COLUMNS = [
  'type',
  'config_class',
  'namespace',
  'agent_id',
  'status',
  'health',
] as const;
/** A tag or label key to group by: letters, digits and `_ . / : -`. */
export const CATALOG_TAG_KEY_PATTERN = /^[A-Za-z0-9_./:-]{1,253}$/;

/** True for a groupBy entry the summary answers: a column, `tag:<key>`, `label:<key>` or a tag key. */
export function isCatalogSummaryGroup(name: string): boolean {
  if ((CATALOG_SUMMARY_GROUP_COLUMNS as readonly string[]).includes(name)) return true;
  const prefixed = /^(tag|label):(.+)$/.exec(name);
  return CATALOG_TAG_KEY_PATTERN.test(prefixed ? prefixed[2] : name);
}

const summaryGroupSchema = z.string().superRefine((name, context) => {
  if (!isCatalogSummaryGroup(name))
    context.addIssue({
      code: 'custom',
      message: `groupBy: "${name}" is not a column (${CATALOG_SUMMARY_GROUP_COLUMNS.join(', ')}), tag:<key>, label:<key> or a tag key`,
    });
});

/**
 * The body of `POST /api/catalog/summary`: items grouped by `groupBy` (default config_class and
 * type), filtered by labels (`filter`), tags, status, health and type; `changes.since` and
 * `analysis.since` add change counts and open insights per analysis type.
 */
export const catalogSummaryRequestSchema = z.object({
  groupBy: z.array(summaryGroupSchema, { error: 'groupBy must be a list of names' }).optional(),
  deleted: flagSchema.optional(),
  filter: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: 'filter must be an object' })
    .nullish(),
  tags: tagSelectorSchema,
  status: tristateSchema('status'),
  health: tristateSchema('health'),
  type: tristateSchema('type'),
  changes: z.object({ since: timeParameterSchema('changes.since') }).optional(),
  analysis: z.object({ since: timeParameterSchema('analysis.since') }).optional(),
});
export type CatalogSummaryRequest = z.input<typeof catalogSummaryRequestSchema>;

/**
 * One group of the summary: the grouped columns under their names (`config_class`, `type`,
 * `tag:cluster`, ...; null for items without the value), the item count, health and status
 * breakdowns and cost sums; `changes` and `analysis` when asked for. Grouped by `health` or
 * `status`, that field is the breakdown.
 */
export const catalogSummaryRowSchema = z
  .object({
    count: z.number(),
    health: z.record(z.string(), z.number()),
    status: z.record(z.string(), z.number()),
    changes: z.number().optional(),
    analysis: z.record(z.string(), z.number()).optional(),
    cost_per_minute: z.number().nullable(),
    cost_total_1d: z.number().nullable(),
    cost_total_7d: z.number().nullable(),
    cost_total_30d: z.number().nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  // The group's values, under the groupBy names.
  .catchall(z.unknown());
export type CatalogSummaryRow = z.infer<typeof catalogSummaryRowSchema>;
export const catalogSummaryResponseSchema = z.array(catalogSummaryRowSchema);

/** Spec core §9: catalog change recursion depth 5. */
export const DEFAULT_CHANGE_DEPTH = 5;
export const MAX_CHANGE_DEPTH = 100;
export const DEFAULT_CHANGES_PAGE_SIZE = 50;
export const MAX_CHANGES_PAGE_SIZE = 1000;
/** Keeps `(page - 1) * page_size` within PostgreSQL's integers. */
export const MAX_CHANGES_PAGE = 1_000_000;

/** Which related items a change search follows from `id`. */
export const CHANGE_SEARCH_DIRECTIONS = ['upstream', 'downstream', 'all', 'none'] as const;

/** Columns a change search sorts by (`sort_by`, `-` before one for descending). */
export const CHANGE_SORT_FIELDS = [
  'created_at',
  'first_observed',
  'change_type',
  'severity',
  'source',
  'summary',
  'count',
  'config_id',
  'name',
  'type',
  'config_class',
  'created_by',
  'external_created_by',
] as const;
export type ChangeSortField = (typeof CHANGE_SORT_FIELDS)[number];

/**
 * The parameters of `POST /api/catalog/changes`, in the body or the query string (the body
 * wins): item `id` (with its related items when `recursive` is upstream, downstream or all, to
 * `depth`), config_type, type (or change_type), severity and created_by as tri-state filters,
 * tags, a time range (`from`, `to`), deleted items, `sort_by`, `page` (from 1) and `page_size`.
 */
export const changeSearchRequestSchema = z.object({
  id: z
    .string({ error: 'id must be a config item id' })
    .refine((value) => value === '' || UUID_TEXT.test(value), 'id must be a config item id')
    .nullish(),
  recursive: z
    .enum([...CHANGE_SEARCH_DIRECTIONS, ''], {
      error: `recursive must be one of ${CHANGE_SEARCH_DIRECTIONS.join(', ')}`,
    })
    .optional(),
  depth: z
    .union([
      z.literal(''),
      wholeNumberSchema(0, MAX_CHANGE_DEPTH, `depth must be a whole number from 0 to ${MAX_CHANGE_DEPTH}`),
    ])
    .nullish(),
  include_deleted_configs: flagSchema.optional(),
  config_type: tristateSchema('config_type'),
  type: tristateSchema('type'),
  change_type: tristateSchema('change_type'),
  severity: tristateSchema('severity'),
  created_by: tristateSchema('created_by'),
  tags: tagSelectorSchema,
  from: timeParameterSchema('from'),
  to: timeParameterSchema('to'),
  sort_by: z
    .string({ error: 'sort_by must be a change column' })
    .superRefine((value, context) => {
      const name = value.startsWith('-') ? value.slice(1) : value;
      if (value !== '' && !(CHANGE_SORT_FIELDS as readonly string[]).includes(name))
        context.addIssue({ code: 'custom', message: `sort_by: "${value}" is not a change column` });
    })
    .optional(),
  page: wholeNumberSchema(
    1,
    MAX_CHANGES_PAGE,
    `page must be a whole number from 1 to ${MAX_CHANGES_PAGE.toLocaleString('en')}`,
  ).optional(),
  page_size: wholeNumberSchema(
    1,
    MAX_CHANGES_PAGE_SIZE,
    `page_size must be between 1 and ${MAX_CHANGES_PAGE_SIZE}`,
  ).optional(),
});
export type ChangeSearchRequest = z.input<typeof changeSearchRequestSchema>;

/** One change of a change search, with the columns of its item it is shown with. */
export const changeSearchRowSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  name: z.string().nullable(),
  deleted_at: z.string().nullable(),
  type: z.string(),
  config_class: z.string().nullable(),
  tags: z.record(z.string(), z.string()).nullable(),
  external_created_by: z.string().nullable(),
  created_at: z.string(),
  severity: z.string().nullable(),
  change_type: z.string().nullable(),
  source: z.string().nullable(),
  summary: z.string().nullable(),
  created_by: z.string().nullable(),
  count: z.number(),
  first_observed: z.string().nullable(),
  agent_id: z.string(),
});
export type ChangeSearchRow = z.infer<typeof changeSearchRowSchema>;

/** The body of `POST /api/catalog/changes`: counts per change type, one page, and the total. */
export const changeSearchResponseSchema = z.object({
  summary: z.record(z.string(), z.number()),
  changes: z.array(changeSearchRowSchema),
  total: z.number(),
});
export type ChangeSearchResponse = z.infer<typeof changeSearchResponseSchema>;

/** `:id` of the scraper routes. */
export const scraperIdParamsSchema = z.object({ id: z.guid({ error: 'id must be a scraper id' }) });

const stringLabelsSchema = z.record(z.string(), z.string(), {
  error: 'labels: must be a JSON object of strings',
});
/** A ScrapeConfig spec is a mapping; its scrapers, JSONPaths and expressions are checked on save. */
const scrapeConfigSpecSchema = z.record(z.string(), z.unknown(), { error: 'spec: must be a mapping' });

/** `POST /api/catalog/scrapers`: a new scraper from the editor (source `UI`, namespace default). */
export const scraperCreateRequestSchema = z.object({
  name: z.string({ error: 'name: This field is required' }).trim().min(1, 'name: This field is required'),
  namespace: z.string({ error: 'namespace must be a string' }).optional(),
  labels: stringLabelsSchema.nullish(),
  spec: scrapeConfigSpecSchema,
});
export type ScraperCreateRequest = z.input<typeof scraperCreateRequestSchema>;

/** `PUT /api/catalog/scrapers/:id`: the editor's spec and labels; name, namespace and source stay. */
export const scraperUpdateRequestSchema = z.object({
  labels: stringLabelsSchema.nullish(),
  spec: scrapeConfigSpecSchema,
});
export type ScraperUpdateRequest = z.input<typeof scraperUpdateRequestSchema>;

/** A scraper as the editor's saves answer it (secret-shaped spec values masked). */
export const savedScraperSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  schedule: z.string().nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string(),
  updated_at: z.string(),
});
export type SavedScraper = z.infer<typeof savedScraperSchema>;

/** What a run did to one config type. */
export const scrapeTypeSummarySchema = z.object({
  added: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  deleted: z.number(),
  changes: z.number(),
});

/** The "Reconcile Summary" of a run: its counts (and the retention it applied). */
export const reconcileSummarySchema = z
  .object({
    scraped: z.number(),
    added: z.number(),
    updated: z.number(),
    unchanged: z.number(),
    deleted: z.number(),
    changes: z.number(),
  })
  .catchall(z.unknown());

/** The body of `POST /api/catalog/scrapers/:id/run`: the job, its status, and what it did or why it failed. */
export const scraperRunResponseSchema = z.object({
  job_id: z.string(),
  status: jobStatusSchema,
  errors: z.array(z.string()),
  scrape_summary: z.record(z.string(), scrapeTypeSummarySchema).optional(),
  summary: reconcileSummarySchema.optional(),
});
export type ScraperRunResponse = z.infer<typeof scraperRunResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rows of the catalog relations the web app reads through the data API (`/api/db/...`), listed
// in rows.ts `relationRowSchemas`. Times are the data API's timestamp text; numeric(16,4) costs
// arrive as numbers or as text.
// ---------------------------------------------------------------------------------------------

const stringMap = z.record(z.string(), z.string());
const cost = z.union([z.number(), z.string()]).nullable();

/** `config_items` (core §3 "Config item"). */
export const configItemRowSchema = z.object({
  id: z.string(),
  scraper_id: z.string().nullable(),
  agent_id: z.string(),
  parent_id: z.string().nullable(),
  path: z.string().nullable(),
  external_id: z.union([z.array(z.string()), z.string()]).nullable(),
  type: z.string(),
  config_class: z.string().nullable(),
  name: z.string().nullable(),
  namespace: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string().nullable(),
  health: z.string().nullable(),
  ready: z.boolean().nullable(),
  labels: stringMap.nullable(),
  tags: stringMap.nullable(),
  properties: z.unknown(),
  config: z.unknown(),
  source: z.string().nullable(),
  cost_per_minute: cost,
  cost_total_1d: cost,
  cost_total_7d: cost,
  cost_total_30d: cost,
  delete_reason: z.string().nullable(),
  last_scraped_time: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type ConfigItemRow = z.infer<typeof configItemRowSchema>;

/** `configs`: the items without their `config` document, for lists. */
export const configsRowSchema = configItemRowSchema.omit({ config: true }).extend({
  /** Counts of the item's changes per change_type and severity (migration 0260); null when none. */
  changes: z
    .array(
      z.object({
        change_type: z.string().nullable(),
        severity: z.string().nullable(),
        total: z.number().int(),
      }),
    )
    .nullable(),
  /** The item's open analyses (migration 0260); null when none. */
  analysis: z
    .array(
      z.object({
        analyzer: z.string(),
        analysis_type: z.string().nullable(),
        severity: z.string().nullable(),
      }),
    )
    .nullable(),
});

/** `config_changes` (core §3 "Config change"). */
export const configChangeRowSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  external_change_id: z.string().nullable(),
  external_created_by: z.string().nullable(),
  change_type: z.string().nullable(),
  severity: z.string().nullable(),
  source: z.string().nullable(),
  summary: z.string().nullable(),
  diff: z.string().nullable(),
  details: z.unknown(),
  patches: z.unknown(),
  count: z.number(),
  first_observed: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  config_type: z.string().nullable(),
});
export type ConfigChangeRow = z.infer<typeof configChangeRowSchema>;

/** `config_analysis` (core §3 "Config analysis", an insight). */
export const configAnalysisRowSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  scraper_id: z.string().nullable(),
  analyzer: z.string(),
  analysis_type: z.string().nullable(),
  severity: z.string().nullable(),
  status: z.string().nullable(),
  summary: z.string().nullable(),
  message: z.string().nullable(),
  analysis: z.unknown(),
  source: z.string().nullable(),
  first_observed: z.string(),
  last_observed: z.string().nullable(),
  created_by: z.string().nullable(),
});
export type ConfigAnalysisRow = z.infer<typeof configAnalysisRowSchema>;

/** `config_analysis_items`: an insight with its item's type and class. */
export const configAnalysisItemRowSchema = configAnalysisRowSchema.extend({
  config_type: z.string().nullable(),
  config_class: z.string().nullable(),
});

/** `config_scrapers`. */
export const configScraperRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  schedule: z.string().nullable(),
  labels: stringMap.nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string(),
  agent_id: z.string(),
  connection_id: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type ConfigScraperRow = z.infer<typeof configScraperRowSchema>;

/** `config_scrapers_with_status`: a scraper and the outcome of its last run. */
export const configScraperWithStatusRowSchema = configScraperRowSchema.extend({
  spec: z.record(z.string(), z.unknown()).nullable(),
  job_status: z.string().nullable(),
  job_time_start: z.string().nullable(),
  job_details: z.object({ errors: z.unknown().optional() }).loose().nullable(),
  job_success_count: z.number().nullable(),
  job_error_count: z.number().nullable(),
  ...latestJobColumnsSchema.omit({
    job_status: true,
    job_time_start: true,
    job_details: true,
    job_success_count: true,
    job_error_count: true,
  }).shape,
});

/** `check_summary_for_config`: a health check linked to a config item. */
export const checkSummaryForConfigRowSchema = z.object({
  config_id: z.string(),
  id: z.string(),
  canary_id: z.string().nullable(),
  type: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  namespace: z.string().nullable(),
  endpoint: z.string().nullable(),
  severity: z.string().nullable(),
  labels: stringMap.nullable(),
  status: z.string().nullable(),
  last_runtime: z.string().nullable(),
  last_transition_time: z.string().nullable(),
  uptime: z.object({ passed: z.number(), failed: z.number() }).nullable(),
  latency: z
    .object({
      rolling1h: z.number().nullish(),
      p95: z.number().nullish(),
      p97: z.number().nullish(),
      p99: z.number().nullish(),
    })
    .nullable(),
});

/** `rpc/related_configs_recursive`: an item of the walked graph and the ids it points to. */
export const relatedConfigRowSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  related_ids: z.array(z.string()).nullable(),
  tags: stringMap.nullable(),
  changes: z.number().nullable(),
  analysis: z.unknown(),
  cost_per_minute: cost,
  cost_total_1d: cost,
  cost_total_7d: cost,
  cost_total_30d: cost,
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  agent_id: z.string().nullable(),
  health: z.string().nullable(),
  ready: z.boolean().nullable(),
  status: z.string().nullable(),
  path: z.string().nullable(),
});

/** `rpc/get_parents_by_location`: a parent of an item, outermost first. */
export const configParentRowSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
});

/** The catalog's option lists (views of distinct values; a value may be null). */
export const configTagsLabelsKeyRowSchema = z.object({ key: z.string().nullable() });
export const changeTypeRowSchema = z.object({ change_type: z.string().nullable() });
export const configTypeRowSchema = z.object({ type: z.string().nullable() });
export const configTagRowSchema = z.object({ key: z.string().nullable(), value: z.string().nullable() });
export const configAnalysisAnalyzerRowSchema = z.object({ analyzer: z.string().nullable() });
export const analysisTypeRowSchema = z.object({ analysis_type: z.string().nullable() });
