import type { Role } from '@opsdeck/contracts';

/**
 * The spec core §6 matrix, written from the spec's words (not from the contracts' table it
 * checks): admin everything; editor reads everything and writes all but connections,
 * identities and rbac; the others read all but rbac, identities and connections; commanders and
 * responders write responder, incident, evidences and comments.
 */
const RESPONDER_WRITES = ['responder', 'incident', 'evidences', 'comments'];

export function matrixAllows(role: Role, resource: string, action: 'read' | 'write'): boolean {
  const hiddenFromResponders = ['rbac', 'identities', 'connections'];
  if (role === 'admin') return true;
  if (role === 'editor')
    return action === 'read' || !['connections', 'identities', 'rbac'].includes(resource);
  if (action === 'read') return !hiddenFromResponders.includes(resource);
  return (role === 'commander' || role === 'responder') && RESPONDER_WRITES.includes(resource);
}

/**
 * Which spec resource (core §6) each data-API relation falls under, read from the spec's words
 * ("resources include database, canaries, incident, connections, permissions, identities,
 * topologies, agents, integrations, views; most settings tables map to their own resource,
 * otherwise database"), written here by hand and not derived from the contracts' table it checks.
 * Permission rows and the roles people hold are rbac (only rbac writers may change who may do
 * what); people are read by everyone and written as identities. A relation the data API exposes
 * but this table does not name fails the matrix test: place it here when it is added.
 */
const SPEC_RELATIONS: Record<string, { read: string; write?: string }> = {};
function place(resource: string, names: string[], write?: string): void {
  for (const name of names) SPEC_RELATIONS[name] = { read: resource, write };
}
place('canaries', [
  'checks',
  'check_statuses',
  'canaries',
  'check_component_relationships',
  'check_config_relationships',
  'check_names',
  'canary_names',
  'checks_labels_keys',
  'checks_by_component',
  'check_summary_for_config',
  'canaries_with_status',
]);
place('database', [
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'config_component_relationships',
  'configs',
  'config_detail',
  'config_names',
  'config_types',
  'config_statuses',
  'config_tags',
  'config_labels',
  'config_tags_labels_keys',
  'config_analysis_items',
  'config_analysis_analyzers',
  'analysis_types',
  'change_types',
  'related_configs_recursive',
  'get_parents_by_location',
  'teams',
  'teams_with_status',
  'team_members',
  'job_histories',
  'job_history_names',
  'event_queue_summary',
  'incident_rules',
  'applications',
]);
place('database', ['people'], 'identities');
place('config_scrapers', ['config_scrapers', 'config_scrapers_with_status']);
place('topologies', [
  'topologies',
  'components',
  'component_names',
  'component_labels',
  'component_labels_keys',
  'components_with_logs',
  'team_components',
  'analysis_by_component',
  'changes_by_component',
  'topologies_with_status',
  'lookup_analysis_by_component',
]);
place('incident', [
  'incidents',
  'incident_histories',
  'hypotheses',
  'incident_summary',
  'incidents_by_component',
  'incidents_by_config',
]);
place('evidences', ['evidences']);
place('comments', ['comments']);
place('responder', ['responders']);
place('identities', ['identities', 'access_tokens']);
place('rbac', ['permissions', 'permissions_summary', 'people_roles']);
place('feature_flags', ['properties']);
place('playbooks', ['playbooks', 'playbook_names']);
place('playbook_runs', [
  'playbook_runs',
  'playbook_run_actions',
  'playbook_approvals',
  'artifacts',
  'get_playbook_run_actions',
]);
place('notifications', [
  'notifications',
  'notification_send_history',
  'notification_silences',
  'notifications_summary',
  'notification_send_history_summary',
]);
place('connections', ['connections']);
place('agents', ['agents', 'agents_summary']);
place('logging_backends', ['logging_backends']);
place('integrations', ['integrations_with_status']);
place('views', ['views', 'views_summary']);

/** The spec resource of a relation for an action, or undefined when the table above lacks it. */
export function specResourceOf(relation: string, action: 'read' | 'write'): string | undefined {
  const name = relation.startsWith('rpc/') ? relation.slice(4) : relation;
  if (/^view_[a-z0-9_]+$/.test(name)) return 'views';
  const entry = Object.hasOwn(SPEC_RELATIONS, name) ? SPEC_RELATIONS[name] : undefined;
  if (!entry) return undefined;
  return action === 'write' ? (entry.write ?? entry.read) : entry.read;
}
