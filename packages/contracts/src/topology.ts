import { z } from 'zod';
import { jobStatusSchema, latestJobColumnsSchema } from './jobs.js';

/** A component's health, as the topology engine rolls it up. */
export const COMPONENT_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export const componentHealthSchema = z.enum(COMPONENT_HEALTHS);
export type ComponentHealth = z.infer<typeof componentHealthSchema>;

export const TOPOLOGY_SORT_FIELDS = ['name', 'type', 'health', 'status', 'created_at', 'updated_at'] as const;

const yesNo = z
  .enum(['true', 'false', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === 'yes');

/**
 * `GET /api/canary/api/topology`: without `id` the root components; with `id` that component and
 * its subtree to `depth`. Lists are comma-separated; labels are tri-state (`k=v:1`, `k=v:-1`).
 */
export const topologyQuerySchema = z.object({
  id: z.guid({ error: 'id must be a component id' }).optional(),
  topology_id: z.guid({ error: 'topology_id must be a topology id' }).optional(),
  depth: z.coerce
    .number({ error: 'depth must be a number' })
    .int({ error: 'depth must be a whole number' })
    .min(0, { error: 'depth must be 0 or more' })
    .max(10, { error: 'depth must be 10 or less' })
    .optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  owner: z.string().optional(),
  team: z.string().optional(),
  labels: z.string().optional(),
  sortBy: z
    .enum(TOPOLOGY_SORT_FIELDS, { error: `sortBy must be one of ${TOPOLOGY_SORT_FIELDS.join(', ')}` })
    .optional(),
  sortOrder: z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' }).optional(),
  flatten: yesNo.optional(),
  hidden: yesNo.optional(),
  agent_id: z.guid({ error: 'agent_id must be an agent id' }).optional(),
});
export type TopologyQuery = z.input<typeof topologyQuerySchema>;

export const componentPropertySchema = z.looseObject({
  name: z.string().optional(),
  label: z.string().optional(),
  text: z.string().optional(),
  value: z.number().optional(),
  unit: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  color: z.string().optional(),
  headline: z.boolean().optional(),
  icon: z.string().optional(),
  tooltip: z.string().optional(),
});
export type ComponentProperty = z.infer<typeof componentPropertySchema>;

export const componentHealthCountsSchema = z.object({
  healthy: z.number(),
  unhealthy: z.number(),
  warning: z.number(),
  unknown: z.number(),
});

export interface TopologyComponent {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  name: string;
  type: string | null;
  icon: string | null;
  owner: string | null;
  namespace: string | null;
  text: string | null;
  tooltip: string | null;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  health: ComponentHealth;
  status: string | null;
  status_reason: string | null;
  hidden: boolean;
  order: number | null;
  path: string | null;
  created_at: string;
  updated_at: string;
  /** Direct children by health. */
  children: z.infer<typeof componentHealthCountsSchema>;
  checks: { id: string; name: string; status: string | null }[];
  incidents: number;
  configs: { id: string; name: string; type: string | null }[];
  /** The components its `selectors` pulled in (component_relationships). */
  relationships: { id: string; name: string; type: string | null; health: ComponentHealth }[];
  components?: TopologyComponent[];
}

export const topologyComponentSchema: z.ZodType<TopologyComponent> = z.lazy(() =>
  z.object({
    id: z.string(),
    topology_id: z.string().nullable(),
    parent_id: z.string().nullable(),
    name: z.string(),
    type: z.string().nullable(),
    icon: z.string().nullable(),
    owner: z.string().nullable(),
    namespace: z.string().nullable(),
    text: z.string().nullable(),
    tooltip: z.string().nullable(),
    labels: z.record(z.string(), z.string()),
    properties: z.array(componentPropertySchema),
    health: componentHealthSchema,
    status: z.string().nullable(),
    status_reason: z.string().nullable(),
    hidden: z.boolean(),
    order: z.number().nullable(),
    path: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    children: componentHealthCountsSchema,
    checks: z.array(z.object({ id: z.string(), name: z.string(), status: z.string().nullable() })),
    incidents: z.number(),
    configs: z.array(z.object({ id: z.string(), name: z.string(), type: z.string().nullable() })),
    relationships: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.string().nullable(),
        health: componentHealthSchema,
      }),
    ),
    components: z.array(topologyComponentSchema).optional(),
  }),
);

export const topologyResponseSchema = z.object({
  components: z.array(topologyComponentSchema),
  healthStatuses: z.array(z.string()),
  teams: z.array(z.string()),
  tags: z.record(z.string(), z.array(z.string())),
  types: z.array(z.string()),
});
export type TopologyResponse = z.infer<typeof topologyResponseSchema>;

export const topologyIdParamsSchema = z.object({ id: z.guid({ error: 'id must be a topology id' }) });
export const componentIdParamsSchema = z.object({ id: z.guid({ error: 'id must be a component id' }) });

export const topologyRunResponseSchema = z.object({
  job_id: z.string(),
  status: jobStatusSchema,
  errors: z.array(z.string()),
  summary: z
    .object({ components: z.number(), deleted: z.number(), lookups: z.number(), events: z.number() })
    .optional(),
});
export type TopologyRunResponse = z.infer<typeof topologyRunResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rows of `topologies_with_status` (data API), listed in rows.ts `relationRowSchemas`.
const isoTime = z.iso.datetime({ offset: true });

export const topologyWithStatusRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  icon: z.string().nullable(),
  schedule: z.string().nullable(),
  labels: z.object({}).catchall(z.string()).nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string(),
  agent_id: z.string(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
  /** Its live components by health. */
  summary: componentHealthCountsSchema,
  components: z.number().int(),
  status: componentHealthSchema,
  /** Its newest `topology` job (every job_* column), newest failure and agent (migration 0351). */
  ...latestJobColumnsSchema.shape,
});
export type TopologyWithStatusRow = z.infer<typeof topologyWithStatusRowSchema>;

/** A row of `analysis_by_component`: an insight on a config linked to a component (its page's Insights). */
export const componentInsightSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  name: z.string().nullable(),
  analyzer: z.string().nullable(),
  analysis_type: z.string().nullable(),
  severity: z.string().nullable(),
  status: z.string().nullable(),
  summary: z.string().nullable(),
  last_observed: z.string().nullable(),
});
export type ComponentInsight = z.infer<typeof componentInsightSchema>;

/** A row of `changes_by_component`: a change of a config linked to a component (its page's Changes). */
export const componentChangeSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  name: z.string().nullable(),
  change_type: z.string().nullable(),
  severity: z.string().nullable(),
  summary: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type ComponentChange = z.infer<typeof componentChangeSchema>;
