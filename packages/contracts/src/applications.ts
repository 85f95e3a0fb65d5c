import { z } from 'zod';

/** A resource selector of an Application (the ecosystem's ResourceSelector, the parts we match). */
export const applicationSelectorSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string({ error: 'must be a string' }).optional(),
  namespace: z.string({ error: 'must be a string' }).optional(),
  types: z.array(z.string(), { error: 'must be a list of strings' }).optional(),
  type: z.string().optional(),
  labelSelector: z.string({ error: 'must be a string' }).optional(),
  tagSelector: z.string({ error: 'must be a string' }).optional(),
});
export type ApplicationSelector = z.infer<typeof applicationSelectorSchema>;

const selectors = z.array(applicationSelectorSchema, { error: 'must be a list of selectors' });

/**
 * Application (`mission-control.flanksource.com/v1`): config items, components and checks chosen
 * by selectors (and the mapping's environments and datasources, which are config selectors),
 * with sections for the report.
 */
export const applicationSpecSchema = z.looseObject({
  description: z.string().optional(),
  schedule: z.string().optional(),
  configs: selectors.optional(),
  components: selectors.optional(),
  checks: selectors.optional(),
  mapping: z
    .looseObject({
      environments: z.record(z.string(), selectors).optional(),
      datasources: selectors.optional(),
      accessReviews: selectors.optional(),
      logins: selectors.optional(),
    })
    .optional(),
  sections: z
    .array(
      z.looseObject({ title: z.string({ error: 'a section needs a title' }), icon: z.string().optional() }),
    )
    .optional(),
});
export type ApplicationSpec = z.infer<typeof applicationSpecSchema>;

/** `GET /api/application/{namespace}/{name}?range=`: the report's check uptime window. */
export const APPLICATION_REPORT_RANGES = ['1h', '6h', '1d', '7d', '30d', '90d'] as const;
export const applicationReportQuerySchema = z.object({
  range: z
    .enum(APPLICATION_REPORT_RANGES, { error: 'range must be one of 1h, 6h, 1d, 7d, 30d, 90d' })
    .default('7d'),
});
export const applicationParamsSchema = z.object({
  namespace: z.string().min(1, { error: 'namespace is required' }),
  name: z.string().min(1, { error: 'name is required' }),
});

const resource = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  health: z.string().nullable(),
  status: z.string().nullable(),
});

export const applicationCheckSchema = resource.extend({
  passed: z.number().int(),
  failed: z.number().int(),
  /** passed / (passed + failed) × 100, null without runs in range. */
  uptime: z.number().nullable(),
});

export const applicationChangeSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  config_name: z.string().nullable(),
  change_type: z.string().nullable(),
  severity: z.string().nullable(),
  summary: z.string().nullable(),
  created_at: z.string(),
});

export const applicationReportSchema = z.object({
  application: z.object({
    id: z.string(),
    name: z.string(),
    namespace: z.string(),
    description: z.string().nullable(),
    labels: z.record(z.string(), z.string()).nullable(),
    sections: z.array(z.object({ title: z.string(), icon: z.string().nullable() })),
  }),
  range: z.object({ name: z.string(), from: z.string(), to: z.string() }),
  generatedAt: z.string(),
  health: z.string(),
  configs: z.array(resource.extend({ environment: z.string().nullable() })),
  components: z.array(resource),
  checks: z.array(applicationCheckSchema),
  changes: z.array(applicationChangeSchema),
  insights: z.array(
    z.object({
      id: z.string(),
      config_id: z.string(),
      config_name: z.string().nullable(),
      analyzer: z.string(),
      analysis_type: z.string().nullable(),
      severity: z.string().nullable(),
      status: z.string().nullable(),
      summary: z.string().nullable(),
      last_observed: z.string().nullable(),
    }),
  ),
  incidents: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.string().nullable(),
      severity: z.string().nullable(),
      type: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  access: z.object({
    /** Roles and what they may do with the application's resources (core §6). */
    roles: z.array(z.object({ role: z.string(), read: z.boolean(), write: z.boolean() })),
    /** Permission rows that name the application or one of its resources. */
    permissions: z.array(
      z.object({
        id: z.string(),
        subject: z.string().nullable(),
        subject_type: z.string().nullable(),
        action: z.string(),
        deny: z.boolean(),
        object: z.string().nullable(),
        resource: z.string().nullable(),
        description: z.string().nullable(),
      }),
    ),
  }),
  /** Changes recording backups and restores (change types with Backup or Restore in them). */
  backups: z.array(applicationChangeSchema),
});
export type ApplicationReport = z.infer<typeof applicationReportSchema>;

/** `GET /api/application`: every application with its health and counts. */
export const applicationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  health: z.string(),
  configs: z.number().int(),
  components: z.number().int(),
  checks: z.number().int(),
  incidents: z.number().int(),
  updated_at: z.string(),
});
export const applicationListSchema = z.array(applicationSummarySchema);
export type ApplicationSummary = z.infer<typeof applicationSummarySchema>;
