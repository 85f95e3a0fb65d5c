import type { z } from 'zod';
import {
  accessTokenRowSchema,
  personRolesRowSchema,
  personRowSchema,
  teamMemberRowSchema,
  teamRowSchema,
} from './auth.js';
import { propertyRowSchema } from './settings.js';
import { canaryWithStatusRowSchema } from './canaries.js';
import {
  checkComponentRelationshipRowSchema,
  checkConfigRelationshipRowSchema,
  checkRowSchema,
} from './health.js';
import { jobHistoryNameRowSchema, jobHistoryRowSchema } from './jobs.js';

/**
 * The row shape of every data-API relation the web app reads (`/api/db/<relation>`), in one map:
 * the schemas themselves live in their area's file (`health.ts`, `catalog.ts`, ...) beside the
 * area's other shapes, and are listed here under the relation's name. A page that selects fewer
 * columns parses with `relationRowSchemas.<relation>.pick({...})`; an embed extends the pick.
 * Web features pass them to `fetchRows`/`fetchCounted`/`fetchEveryRow` (apps/web/src/lib/data-api.ts)
 * and derive their row types with `RelationRow<'relation'>`, never declaring a row interface.
 */
export const relationRowSchemas = {
  people: personRowSchema,
  people_roles: personRolesRowSchema,
  teams: teamRowSchema,
  team_members: teamMemberRowSchema,
  access_tokens: accessTokenRowSchema,
  properties: propertyRowSchema,
  canaries_with_status: canaryWithStatusRowSchema,
  check_component_relationships: checkComponentRelationshipRowSchema,
  check_config_relationships: checkConfigRelationshipRowSchema,
  checks: checkRowSchema,
  job_histories: jobHistoryRowSchema,
  job_history_names: jobHistoryNameRowSchema,
} satisfies Record<string, z.ZodObject>;

export type Relation = keyof typeof relationRowSchemas;
export type RelationRow<R extends Relation> = z.infer<(typeof relationRowSchemas)[R]>;
