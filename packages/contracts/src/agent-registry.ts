import { z } from 'zod';

/**
 * The agent registry (issue 27 "Agents", spec core §3 Agent): POST /api/agent/generate, DELETE
 * /api/agent/{id} and the `agents_summary` rows the agents page lists.
 */

const isoTime = z.iso.datetime({ offset: true });

export const generateAgentRequestSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Name may use letters, digits, dot, dash and underscore'),
  description: z.string().trim().max(2000).optional(),
  properties: z.record(z.string(), z.string()).default({}),
});
export type GenerateAgentRequest = z.input<typeof generateAgentRequestSchema>;
export type GenerateAgent = z.output<typeof generateAgentRequestSchema>;

/** The agent's token is in this answer only (shown once). */
export const generateAgentResponseSchema = z.object({
  id: z.string(),
  username: z.string(),
  access_token: z.string(),
});
export type GenerateAgentResponse = z.infer<typeof generateAgentResponseSchema>;

export const agentIdParamsSchema = z.object({ id: z.guid({ error: 'id must be an agent id' }) });

export const deleteAgentResponseSchema = z.object({ message: z.string() });

/** `agents_summary` (migration 0090): an agent with the counts of what it owns. */
export const agentSummaryRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  hostname: z.string().nullable(),
  description: z.string().nullable(),
  ip: z.string().nullable(),
  version: z.string().nullable(),
  username: z.string().nullable(),
  person_id: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()).nullable(),
  cleanup: z.boolean(),
  last_seen: isoTime.nullable(),
  last_received: isoTime.nullable(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
  config_count: z.number(),
  checks_count: z.number(),
  config_scrapers_count: z.number(),
  playbook_runs_count: z.number(),
});
export type AgentSummaryRow = z.infer<typeof agentSummaryRowSchema>;
