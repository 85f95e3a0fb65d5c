import {
  relationAccess,
  RESOURCES,
  ROLES,
  type Resource,
  type Role,
  type TokenScope,
} from '@opsdeck/contracts';
import { describe, expect, it } from 'vitest';
import { authorize, type AuthContext, type GrantedPermission } from './rbac.js';

/**
 * The matrix of spec core §6, written out here from the spec's words (not from the contracts
 * table) so that the table in contracts is checked against the text.
 */
const EVERYTHING = new Set<string>(RESOURCES);
const without = (...names: string[]) => new Set([...EVERYTHING].filter((name) => !names.includes(name)));
const RESPONDER_READ = without('rbac', 'identities', 'connections');
const EXPECTED: Record<Role, { read: Set<string>; write: Set<string> }> = {
  admin: { read: EVERYTHING, write: EVERYTHING },
  editor: { read: EVERYTHING, write: without('connections', 'identities', 'rbac') },
  commander: { read: RESPONDER_READ, write: new Set(['responder', 'incident', 'evidences', 'comments']) },
  responder: { read: RESPONDER_READ, write: new Set(['responder', 'incident', 'evidences', 'comments']) },
  viewer: { read: RESPONDER_READ, write: new Set() },
  guest: { read: RESPONDER_READ, write: new Set() },
};

function context(
  roles: Role[],
  permissions: Partial<GrantedPermission>[] = [],
  scopes?: { object: string; action: string }[],
): AuthContext {
  return {
    person: { id: '00000000-0000-0000-0000-0000000000aa', name: 'Someone', email: 'someone@example.com' },
    roles,
    permissions: permissions.map((permission, index) => ({
      id: `p${index}`,
      subject: null,
      subject_type: 'person',
      object: null,
      action: 'read',
      deny: false,
      until: null,
      config_id: null,
      component_id: null,
      canary_id: null,
      check_id: null,
      playbook_id: null,
      connection_id: null,
      restricted: false,
      ...permission,
    })),
    ...(scopes
      ? { token: { id: 't', scopes: scopes.map((scope) => ({ subject: '', ...scope }) as TokenScope) } }
      : {}),
    via: scopes ? 'token' : 'session',
  };
}

describe('the role matrix through authorize', () => {
  const cases = ROLES.flatMap((role) =>
    RESOURCES.flatMap((resource) =>
      (['read', 'write'] as const).map((action) => ({
        role,
        resource,
        action,
        allowed: EXPECTED[role][action].has(resource),
      })),
    ),
  );

  it('covers every role × resource × action', () => {
    expect(cases).toHaveLength(6 * 22 * 2);
  });

  it.each(cases)('$role $action $resource → $allowed', ({ role, resource, action, allowed }) => {
    const decision = authorize(context([role]), resource, action);
    expect(decision.allow).toBe(allowed);
    if (!decision.allow) expect(decision.status).toBe(403);
  });

  it('merges several roles', () => {
    expect(authorize(context(['viewer', 'commander']), 'incident', 'write').allow).toBe(true);
    expect(authorize(context(['viewer', 'commander']), 'connections', 'read').allow).toBe(false);
    expect(authorize(context(['commander', 'editor']), 'canaries', 'write').allow).toBe(true);
  });

  it('refuses everything to a person without roles and answers 401 without a caller', () => {
    for (const resource of RESOURCES)
      expect(authorize(context([]), resource as Resource, 'read').allow).toBe(false);
    expect(authorize(null, 'incident', 'read')).toEqual({
      allow: false,
      status: 401,
      message: 'Unauthorized',
    });
  });
});

describe('fine-grained permissions', () => {
  it('a deny beats the role that allows', () => {
    const auth = context(['editor'], [{ object: 'incident', action: 'update', deny: true }]);
    expect(authorize(auth, 'incident', 'update').allow).toBe(false);
    expect(authorize(auth, 'incident', 'write').allow).toBe(false);
    expect(authorize(auth, 'incident', 'create').allow).toBe(true);
    expect(authorize(auth, 'incident', 'read').allow).toBe(true);
    expect(authorize(auth, 'canaries', 'update').allow).toBe(true);
  });

  it('an allow grants beyond the roles, a generic write only with create, update and delete', () => {
    expect(
      authorize(context(['viewer'], [{ object: 'canaries', action: 'update' }]), 'canaries', 'update').allow,
    ).toBe(true);
    expect(
      authorize(context(['viewer'], [{ object: 'canaries', action: 'update' }]), 'canaries', 'write').allow,
    ).toBe(false);
    expect(
      authorize(context(['viewer'], [{ object: 'canaries', action: '*' }]), 'canaries', 'write').allow,
    ).toBe(true);
    expect(
      authorize(
        context([], [{ object: 'rbac', action: 'create,read,update,delete' }]),
        'permissions',
        'write',
      ).allow,
    ).toBe(true);
  });

  it('expired permissions (until in the past) no longer count', () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      authorize(
        context(['editor'], [{ object: 'incident', action: '*', deny: true, until: past }]),
        'incident',
        'write',
      ).allow,
    ).toBe(true);
    expect(
      authorize(
        context(['editor'], [{ object: 'incident', action: '*', deny: true, until: future }]),
        'incident',
        'write',
      ).allow,
    ).toBe(false);
    expect(
      authorize(context(['viewer'], [{ object: 'canaries', action: '*', until: past }]), 'canaries', 'write')
        .allow,
    ).toBe(false);
  });

  it('playbook verbs: playbook:* grants run and approve on a matching playbook only', () => {
    const playbook = '11111111-1111-1111-1111-111111111111';
    const auth = context(['viewer'], [{ playbook_id: playbook, action: 'playbook:*' }]);
    expect(authorize(auth, 'playbooks', 'playbook:run', { target: { playbook_id: playbook } }).allow).toBe(
      true,
    );
    expect(
      authorize(auth, 'playbooks', 'playbook:approve', { target: { playbook_id: playbook } }).allow,
    ).toBe(true);
    expect(
      authorize(auth, 'playbooks', 'playbook:run', {
        target: { playbook_id: '22222222-2222-2222-2222-222222222222' },
      }).allow,
    ).toBe(false);
    expect(authorize(auth, 'playbooks', 'playbook:run').allow).toBe(false);
  });

  it('rows limited by selectors, tags or agents do not decide a whole resource', () => {
    expect(
      authorize(
        context(['editor'], [{ object: 'incident', action: '*', deny: true, restricted: true }]),
        'incident',
        'write',
      ).allow,
    ).toBe(true);
  });
});

describe('token scopes', () => {
  it('narrow the owner rights to the listed objects and actions', () => {
    const auth = context(['admin'], [], [{ object: 'catalog', action: 'read' }]);
    const catalog = relationAccess('configs');
    expect(authorize(auth, catalog.resource, 'read', { object: catalog.object as string }).allow).toBe(true);
    expect(authorize(auth, catalog.resource, 'create', { object: catalog.object as string }).allow).toBe(
      false,
    );
    expect(authorize(auth, 'incident', 'read').allow).toBe(false);
    expect(authorize(auth, 'canaries', 'read').allow).toBe(false);
  });

  it('never widen them', () => {
    const auth = context(['viewer'], [], [{ object: 'canaries', action: 'update' }]);
    expect(authorize(auth, 'canaries', 'update').allow).toBe(false);
    expect(authorize(auth, 'canaries', 'read').allow).toBe(false);
  });

  it('count together per object: create, update and delete scopes allow a generic write', () => {
    const writes = ['create', 'update', 'delete'].map((action) => ({ object: 'canaries', action }));
    expect(authorize(context(['editor'], [], writes), 'canaries', 'write').allow).toBe(true);
    expect(authorize(context(['editor'], [], writes.slice(0, 2)), 'canaries', 'write').allow).toBe(false);
    const spread = [...writes.slice(0, 2), { object: 'playbooks', action: 'delete' }];
    expect(authorize(context(['editor'], [], spread), 'canaries', 'write').allow).toBe(false);
  });

  it('an unscoped token has the owner rights', () => {
    const auth = context(['editor'], [], []);
    expect(authorize(auth, 'canaries', 'write').allow).toBe(true);
  });
});

describe('relation mapping', () => {
  it('maps every relation of API.md §1, view tables to views and the rest to database', () => {
    const listed =
      `checks check_statuses check_names canaries canary_names checks_labels_keys checks_by_component
      check_summary_for_config check_component_relationships check_config_relationships canaries_with_status configs
      config_items config_detail config_names config_types config_statuses config_tags config_labels
      config_tags_labels_keys config_changes config_analysis config_analysis_items config_analysis_analyzers
      analysis_types change_types config_relationships config_component_relationships config_scrapers
      config_scrapers_with_status rpc/related_configs_recursive rpc/get_parents_by_location topologies
      topologies_with_status components component_names component_labels component_labels_keys components_with_logs
      team_components analysis_by_component changes_by_component rpc/lookup_analysis_by_component incidents
      incident_summary incidents_by_component incidents_by_config incident_histories hypotheses evidences comments
      responders incident_rules people people_roles identities teams teams_with_status team_members permissions
      permissions_summary properties access_tokens playbooks playbook_names playbook_runs playbook_run_actions
      playbook_approvals rpc/get_playbook_run_actions artifacts notifications notifications_summary
      notification_send_history notification_send_history_summary notification_silences connections agents
      agents_summary job_histories job_history_names event_queue_summary logging_backends integrations_with_status
      applications views views_summary`.split(/\s+/);
    for (const relation of listed) expect(RESOURCES).toContain(relationAccess(relation).resource);
    expect(relationAccess('connections').resource).toBe('connections');
    expect(relationAccess('canaries').resource).toBe('canaries');
    expect(relationAccess('incidents').resource).toBe('incident');
    // Permission rows are rbac: only rbac writers change who may do what.
    expect(relationAccess('permissions').resource).toBe('rbac');
    expect(relationAccess('properties').resource).toBe('feature_flags');
    expect(relationAccess('view_default_pods').resource).toBe('views');
    expect(relationAccess('something_new').resource).toBe('database');
    expect(relationAccess('toString').resource).toBe('database');
  });
});
