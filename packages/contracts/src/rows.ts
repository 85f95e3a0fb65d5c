import type { z } from 'zod';
import {
  accessTokenRowSchema,
  personRolesRowSchema,
  personRowSchema,
  teamMemberRowSchema,
  teamRowSchema,
} from './auth.js';
import { propertyRowSchema } from './settings.js';
import { agentSummaryRowSchema } from './agent-registry.js';
import { identityRowSchema, permissionRowSchema, permissionSummaryRowSchema } from './people.js';
import { canaryWithStatusRowSchema } from './canaries.js';
import {
  checkComponentRelationshipRowSchema,
  checkConfigRelationshipRowSchema,
  checkRowSchema,
} from './health.js';
import { jobHistoryNameRowSchema, jobHistoryRowSchema } from './jobs.js';
import { topologyWithStatusRowSchema } from './topology.js';
import { integrationWithStatusRowSchema } from './integrations.js';
import {
  analysisTypeRowSchema,
  changeTypeRowSchema,
  checkSummaryForConfigRowSchema,
  configAnalysisAnalyzerRowSchema,
  configAnalysisItemRowSchema,
  configAnalysisRowSchema,
  configChangeRowSchema,
  configItemRowSchema,
  configParentRowSchema,
  configScraperRowSchema,
  configScraperWithStatusRowSchema,
  configsRowSchema,
  configTagRowSchema,
  configTagsLabelsKeyRowSchema,
  configTypeRowSchema,
  relatedConfigRowSchema,
} from './catalog.js';
import {
  commentRowSchema,
  evidenceRowSchema,
  hypothesisRowSchema,
  incidentHistoryRowSchema,
  incidentRowSchema,
  incidentRuleRowSchema,
  incidentSummaryRowSchema,
  responderRowSchema,
} from './incidents.js';
import {
  playbookApprovalRowSchema,
  playbookRowSchema,
  playbookRunActionRowSchema,
  playbookRunRowSchema,
} from './playbooks.js';
import {
  notificationRowSchema,
  notificationSendHistoryRowSchema,
  notificationSendHistorySummaryRowSchema,
  notificationSilenceRowSchema,
  notificationsSummaryRowSchema,
} from './notifications.js';
import { componentWithLogsRowSchema, loggingBackendRowSchema } from './logs.js';

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
  identities: identityRowSchema,
  permissions: permissionRowSchema,
  permissions_summary: permissionSummaryRowSchema,
  agents_summary: agentSummaryRowSchema,
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
  // catalog
  config_items: configItemRowSchema,
  configs: configsRowSchema,
  config_changes: configChangeRowSchema,
  config_analysis: configAnalysisRowSchema,
  config_analysis_items: configAnalysisItemRowSchema,
  config_scrapers: configScraperRowSchema,
  config_scrapers_with_status: configScraperWithStatusRowSchema,
  check_summary_for_config: checkSummaryForConfigRowSchema,
  'rpc/related_configs_recursive': relatedConfigRowSchema,
  'rpc/get_parents_by_location': configParentRowSchema,
  config_tags_labels_keys: configTagsLabelsKeyRowSchema,
  change_types: changeTypeRowSchema,
  config_types: configTypeRowSchema,
  config_tags: configTagRowSchema,
  config_analysis_analyzers: configAnalysisAnalyzerRowSchema,
  analysis_types: analysisTypeRowSchema,
  // incidents
  incidents: incidentRowSchema,
  incident_summary: incidentSummaryRowSchema,
  hypotheses: hypothesisRowSchema,
  comments: commentRowSchema,
  evidences: evidenceRowSchema,
  responders: responderRowSchema,
  incident_histories: incidentHistoryRowSchema,
  incident_rules: incidentRuleRowSchema,
  // topology
  topologies_with_status: topologyWithStatusRowSchema,
  // integrations
  integrations_with_status: integrationWithStatusRowSchema,
  // playbooks
  playbooks: playbookRowSchema,
  playbook_runs: playbookRunRowSchema,
  playbook_run_actions: playbookRunActionRowSchema,
  playbook_approvals: playbookApprovalRowSchema,
  // notifications
  notifications: notificationRowSchema,
  notifications_summary: notificationsSummaryRowSchema,
  notification_send_history: notificationSendHistoryRowSchema,
  notification_send_history_summary: notificationSendHistorySummaryRowSchema,
  notification_silences: notificationSilenceRowSchema,
  // logs
  logging_backends: loggingBackendRowSchema,
  components_with_logs: componentWithLogsRowSchema,
} satisfies Record<string, z.ZodObject>;

export type Relation = keyof typeof relationRowSchemas;
export type RelationRow<R extends Relation> = z.infer<(typeof relationRowSchemas)[R]>;
