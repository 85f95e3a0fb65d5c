import { z } from 'zod';

/** Column types of a View (spec core §3 entity View; the ecosystem's View `columns[].type`). */
export const VIEW_COLUMN_TYPES = [
  'string',
  'number',
  'boolean',
  'datetime',
  'duration',
  'health',
  'status',
  'bytes',
  'decimal',
  'gauge',
  'url',
  'badge',
] as const;
export type ViewColumnType = (typeof VIEW_COLUMN_TYPES)[number];

/** Panel types of a View. */
export const VIEW_PANEL_TYPES = ['piechart', 'number', 'gauge', 'table', 'text', 'timeseries'] as const;
export type ViewPanelType = (typeof VIEW_PANEL_TYPES)[number];

/** Rows of a view page: 50 per page (spec core, constants: default page sizes). */
export const VIEW_PAGE_SIZE = 50;
/** The sidebar's list of views is cached 5 min (spec core, constants). */
export const SIDEBAR_VIEWS_STALE_TIME_MS = 300_000;

export const viewColumnSchema = z.object({
  name: z.string(),
  type: z.enum(VIEW_COLUMN_TYPES),
  description: z.string().nullish(),
  hidden: z.boolean().nullish(),
  primaryKey: z.boolean().nullish(),
  filterable: z.boolean().nullish(),
  unit: z.string().nullish(),
  gauge: z.object({ min: z.number().nullish(), max: z.number().nullish() }).nullish(),
});
export type ViewColumn = z.infer<typeof viewColumnSchema>;

export const viewPanelSchema = z.object({
  name: z.string(),
  description: z.string().nullish(),
  type: z.enum(VIEW_PANEL_TYPES),
  /** Rows the panel's SQL returned. */
  rows: z.array(z.record(z.string(), z.unknown())),
  /** What the panel's query failed with, when it failed. */
  error: z.string().nullish(),
  unit: z.string().nullish(),
  gauge: z.object({ min: z.number().nullish(), max: z.number().nullish() }).nullish(),
});
export type ViewPanel = z.infer<typeof viewPanelSchema>;

export const viewVariableSchema = z.object({
  key: z.string(),
  label: z.string(),
  options: z.array(z.string()),
  default: z.string().nullish(),
  value: z.string().nullish(),
});
export type ViewVariable = z.infer<typeof viewVariableSchema>;

/** `POST /api/view/{id}` (API.md §2). */
export const viewResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullish(),
  icon: z.string().nullish(),
  columns: z.array(viewColumnSchema),
  rows: z.array(z.array(z.unknown())),
  panels: z.array(viewPanelSchema),
  /** For each filterable column, the distinct values of this request's rows. */
  columnOptions: z.record(z.string(), z.array(z.string())),
  variables: z.array(viewVariableSchema),
  requestFingerprint: z.string(),
  lastRefreshedAt: z.string().nullish(),
  /**
   * The rows this fingerprint held at its last refresh: the unfiltered table's total, so its
   * pages need not count the rows again.
   */
  rowCount: z.number().int().nonnegative().nullish(),
  /** The data-API relation holding the rows (`view_<namespace>_<name>`). */
  table: z.string(),
});
export type ViewResult = z.infer<typeof viewResultSchema>;

export const viewRequestSchema = z.object({
  variables: z.record(z.string(), z.string()).optional(),
  /** Refresh now unless the rows are younger than the view's minAge. */
  refresh: z.boolean().optional(),
});
export type ViewRequest = z.infer<typeof viewRequestSchema>;

/** A row of `views_summary` (spec core §3: id, name, namespace, title, icon, ordinal, sidebar). */
export const viewSummaryRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullable(),
  icon: z.string().nullable(),
  ordinal: z.number().nullable(),
  sidebar: z.boolean(),
  labels: z.record(z.string(), z.unknown()).nullable().optional(),
  source: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  last_ran: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  deleted_at: z.string().nullable().optional(),
});
export type ViewSummaryRow = z.infer<typeof viewSummaryRowSchema>;

/** `GET /api/view/list?config_id=`: views attached to a config item's type. */
export const viewListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullable(),
  icon: z.string().nullable(),
  ordinal: z.number().nullable(),
});
export const viewListSchema = z.array(viewListItemSchema);
export type ViewListItem = z.infer<typeof viewListItemSchema>;

/** The data-API relation of a view's rows: `view_<namespace>_<name>`, dashes become underscores. */
export function viewTableName(namespace: string, name: string): string {
  return `view_${namespace}_${name}`.replace(/-/g, '_').toLowerCase();
}

/** The most rows one `POST /api/view/{id}/rows` page holds. */
export const VIEW_ROWS_MAX_LIMIT = 1000;

/**
 * `POST /api/view/{id}/rows`: one page of a fingerprint's rows, in the table's order (the first
 * column descending with nulls last unless `sortBy` names another). `after` is the `next` cursor
 * of the previous page (keyset paging: the page is read from the sort-order index, however deep);
 * without it, `offset` skips rows as the data API's `offset` does.
 */
export const viewRowsRequestSchema = z.object({
  requestFingerprint: z.string({ error: 'must be the requestFingerprint of the view answer' }).min(1, {
    error: 'must be the requestFingerprint of the view answer',
  }),
  sortBy: z.string().optional(),
  sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  limit: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(VIEW_ROWS_MAX_LIMIT, { error: `must be at most ${VIEW_ROWS_MAX_LIMIT}` })
    .optional(),
  offset: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be 0 or more' })
    .optional(),
  after: z.string().optional(),
  /** Column → the values it must hold (one of). */
  filters: z.record(z.string(), z.array(z.string())).optional(),
});
export type ViewRowsRequest = z.infer<typeof viewRowsRequestSchema>;

export const viewRowsPageSchema = z.object({
  rows: z.array(z.record(z.string(), z.unknown())),
  /** Rows matching the filters: exact when `totalExact`, else the planner's estimate. */
  total: z.number().int().nonnegative(),
  totalExact: z.boolean(),
  /** The cursor of the next page (`after`), null on the last page. */
  next: z.string().nullable(),
});
export type ViewRowsPage = z.infer<typeof viewRowsPageSchema>;
