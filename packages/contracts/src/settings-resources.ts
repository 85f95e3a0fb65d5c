import { z } from 'zod';
import type { Feature } from './permissions.js';

/**
 * The generic settings resources (spec core §2: `/settings/{table}` and `/settings/{table}/{id}`):
 * the managed-resource tables of spec settings §3/§7 (teams, incident rules, topologies, health
 * checks, logging backends) less config scrapers, which core §2 excludes. The server lists them
 * through `GET /api/settings/resources/{table}` (at most 100 rows, newest first) and edits them
 * through `PATCH /api/settings/resources/{table}/{id}`; only the columns below may change.
 */
export const SETTINGS_RESOURCE_TABLES = [
  'canaries',
  'incident_rules',
  'logging_backends',
  'teams',
  'topologies',
] as const;
export const settingsResourceTableSchema = z.enum(SETTINGS_RESOURCE_TABLES);
export type SettingsResourceTable = z.infer<typeof settingsResourceTableSchema>;

/** Spec core §9: "Settings lists capped at 100 rows ordered by created_at descending". */
export const SETTINGS_RESOURCE_LIST_LIMIT = 100;

/** What each table's list and editor call the resource (the breadcrumb's link text). */
export const SETTINGS_RESOURCE_TITLES: Readonly<Record<SettingsResourceTable, string>> = {
  canaries: 'Health Checks',
  incident_rules: 'Incident Rules',
  logging_backends: 'Logging Backends',
  teams: 'Teams',
  topologies: 'Topologies',
};

const isoTime = z.iso.datetime({ offset: true });
const labelsSchema = z.record(z.string(), z.string());
const specSchema = z.record(z.string(), z.unknown());

/** A row of the list. */
export const settingsResourceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullable(),
  labels: labelsSchema.nullable(),
  source: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime.nullable(),
});
export type SettingsResourceSummary = z.infer<typeof settingsResourceSummarySchema>;

export const settingsResourceListSchema = z.object({
  table: settingsResourceTableSchema,
  rows: z.array(settingsResourceSummarySchema).max(SETTINGS_RESOURCE_LIST_LIMIT),
});
export type SettingsResourceList = z.infer<typeof settingsResourceListSchema>;

/** One resource as the editor reads it: `icon` and `schedule` only where the table has them. */
export const settingsResourceSchema = settingsResourceSummarySchema.extend({
  spec: specSchema.nullable(),
  icon: z.string().nullable().optional(),
  schedule: z.string().nullable().optional(),
});
export type SettingsResource = z.infer<typeof settingsResourceSchema>;

const baseUpdate = { labels: labelsSchema, spec: specSchema };
const iconUpdate = { icon: z.string().trim().max(100) };
const scheduleUpdate = { schedule: z.string().trim().max(100) };

/**
 * The columns the generic editor may change, per table (name and namespace are fixed once the
 * resource exists, spec settings §5). A key not listed is refused with 400 naming it.
 */
export const SETTINGS_RESOURCE_UPDATES = {
  canaries: z.strictObject({ ...baseUpdate, ...iconUpdate, ...scheduleUpdate }).partial(),
  incident_rules: z.strictObject(baseUpdate).partial(),
  logging_backends: z.strictObject(baseUpdate).partial(),
  teams: z.strictObject({ ...baseUpdate, ...iconUpdate }).partial(),
  topologies: z.strictObject({ ...baseUpdate, ...iconUpdate, ...scheduleUpdate }).partial(),
} as const satisfies Record<SettingsResourceTable, z.ZodType>;
export type SettingsResourceUpdate = Partial<{
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  icon: string;
  schedule: string;
}>;

/** The editable columns of a table, in the editor's order. */
export function settingsResourceEditableColumns(table: SettingsResourceTable): string[] {
  return Object.keys(SETTINGS_RESOURCE_UPDATES[table].shape);
}

/** The area flag each table follows (spec core §6 feature flags); a disabled area hides the page. */
export const SETTINGS_RESOURCE_FEATURES = {
  canaries: 'settings.health',
  incident_rules: 'settings.rules',
  logging_backends: 'settings.logging_backends',
  teams: 'settings.teams',
  topologies: 'settings.topology',
} as const satisfies Record<SettingsResourceTable, Feature>;

export function isSettingsResourceTable(value: string): value is SettingsResourceTable {
  return (SETTINGS_RESOURCE_TABLES as readonly string[]).includes(value);
}
