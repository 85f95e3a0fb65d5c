import { PERMISSION_ACTIONS, PLAYBOOK_PERMISSION_ACTIONS } from '@opsdeck/contracts';
import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  EMPTY_PERMISSION_FORM,
  permissionToForm,
  resourceLabel,
  validatePermissionForm,
  type PermissionFormValues,
} from './permission-form';
import { permissionSummaryRow } from '../testing/permission-summary-row';

const PERSON = '00000000-0000-4000-8000-0000000000aa';
const CONFIG = '00000000-0000-4000-8000-0000000000bb';

const summary = permissionSummaryRow;

const form = (values: Partial<PermissionFormValues>): PermissionFormValues => ({
  ...EMPTY_PERMISSION_FORM,
  subjectType: 'person',
  subjectId: PERSON,
  ...values,
});

describe('actions offered by resource (settings §3)', () => {
  it('offers the CRUD actions everywhere and the playbook verbs only on playbooks', () => {
    const crud = [...PERMISSION_ACTIONS];
    const playbook = [...PERMISSION_ACTIONS, ...PLAYBOOK_PERMISSION_ACTIONS];
    expect(actionsFor({ resourceTab: 'Catalog', target: CONFIG, fixedResource: null })).toEqual(crud);
    expect(actionsFor({ resourceTab: 'Global', target: 'canaries', fixedResource: null })).toEqual(crud);
    expect(actionsFor({ resourceTab: 'Playbook', target: 'x', fixedResource: null })).toEqual(playbook);
    expect(actionsFor({ resourceTab: 'Global', target: 'playbooks', fixedResource: null })).toEqual(playbook);
    expect(
      actionsFor({ resourceTab: 'Global', target: '', fixedResource: { label: 'x', playbook: true } }),
    ).toEqual(playbook);
  });
});

describe('validatePermissionForm', () => {
  it('requires a subject and a resource (settings §5) and an action the resource offers', () => {
    const result = validatePermissionForm(
      form({ subjectId: '', resourceTab: 'Catalog', target: '', action: 'playbook:run' }),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        subjectId: 'This field is required',
        target: 'This field is required',
        action: 'Choose an action this resource allows',
      },
    });
  });

  it('writes the subject column of the tab and clears every other subject and resource column', () => {
    const result = validatePermissionForm(
      form({ resourceTab: 'Catalog', target: CONFIG, tags: 'env=prod, team = a', agents: ['agent-1'] }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        subject_type: 'person',
        subject: PERSON,
        team_id: null,
        person_id: PERSON,
        notification_id: null,
        object: null,
        config_id: CONFIG,
        component_id: null,
        connection_id: null,
        playbook_id: null,
        canary_id: null,
        check_id: null,
        object_selector: null,
        action: 'read',
        deny: false,
        tags: { env: 'prod', team: 'a' },
        agents: ['agent-1'],
        description: null,
      },
    });
  });

  it('a role subject is stored by name only', () => {
    const result = validatePermissionForm(
      form({ subjectType: 'group', subjectId: 'guest', target: 'playbooks', action: 'playbook:run' }),
    );
    expect(result.ok && result.value).toMatchObject({
      subject_type: 'group',
      subject: 'guest',
      person_id: null,
      object: 'playbooks',
      action: 'playbook:run',
    });
  });

  it('Global notification with no selector fields covers every notification', () => {
    const result = validatePermissionForm(form({ target: 'notification' }));
    expect(result.ok && result.value).toMatchObject({ object: 'notification', object_selector: null });
  });

  it('Global notification with selector fields stores an object selector of notifications', () => {
    const result = validatePermissionForm(
      form({
        target: 'notification',
        notificationName: 'team-a-*',
        notificationNamespace: ' default ',
        notificationLabels: 'team=a,env!=dev',
        deny: true,
      }),
    );
    expect(result.ok && result.value).toMatchObject({
      object: null,
      object_selector: {
        notifications: [{ name: 'team-a-*', namespace: 'default', labelSelector: 'team=a,env!=dev' }],
      },
      deny: true,
    });
  });

  it('selector fields count only while the object is notification', () => {
    const result = validatePermissionForm(form({ target: 'canaries', notificationName: 'stale' }));
    expect(result.ok && result.value).toMatchObject({ object: 'canaries', object_selector: null });
  });

  it('refuses a label selector term it cannot read, and malformed tags', () => {
    const result = validatePermissionForm(
      form({ target: 'notification', notificationLabels: 'team=a, (x)', tags: 'novalue' }),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        notificationLabels: "'(x)' is not a label selector term: use key=value, key!=value, key or !key",
        tags: "Tags are key=value pairs separated by commas: 'novalue'",
      },
    });
  });

  it('a fixed resource is left as saved: the row names none of its columns', () => {
    const result = validatePermissionForm(
      form({ fixedResource: { label: 'Canary: web', playbook: false }, target: '', action: 'update' }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    for (const column of ['object', 'canary_id', 'check_id', 'config_id', 'object_selector'])
      expect(result.value).not.toHaveProperty(column);
    expect(result.value).toMatchObject({ action: 'update', person_id: PERSON });
  });
});

describe('permissionToForm', () => {
  it('opens a target on its tab and a notification selector on Global with its fields', () => {
    expect(permissionToForm(summary({ config_id: CONFIG }))).toMatchObject({
      resourceTab: 'Catalog',
      target: CONFIG,
      fixedResource: null,
    });
    expect(
      permissionToForm(
        summary({ object_selector: { notifications: [{ name: 'pager-*', labelSelector: 'team=a' }] } }),
      ),
    ).toMatchObject({
      resourceTab: 'Global',
      target: 'notification',
      notificationName: 'pager-*',
      notificationNamespace: '',
      notificationLabels: 'team=a',
      fixedResource: null,
    });
  });

  it('a canary target or a selector the tabs cannot show becomes a fixed resource', () => {
    expect(
      permissionToForm(summary({ canary_id: CONFIG, canary: { id: CONFIG, name: 'web' } })).fixedResource,
    ).toEqual({ label: 'Canary: web', playbook: false });
    const selected = permissionToForm(
      summary({ object_selector: { playbooks: [{ name: 'restart-*' }] }, action: 'playbook:run' }),
    );
    expect(selected.fixedResource).toEqual({ label: 'Playbooks: name=restart-*', playbook: true });
    // Saving it keeps the playbook verb: it is offered for the fixed resource.
    expect(validatePermissionForm(selected).ok).toBe(true);
  });

  it('round-trips through the form: the saved row is what was loaded', () => {
    const row = summary({
      subject_type: 'team',
      team_id: CONFIG,
      subject: CONFIG,
      person_id: null,
      object: 'canaries',
      action: 'create,read,update,delete',
      tags: { env: 'prod' },
      agents: ['a1'],
      description: 'checks',
    });
    const result = validatePermissionForm(permissionToForm(row));
    expect(result.ok && result.value).toMatchObject({
      subject_type: 'team',
      team_id: CONFIG,
      object: 'canaries',
      action: 'create,read,update,delete',
      tags: { env: 'prod' },
      agents: ['a1'],
      description: 'checks',
    });
  });
});

describe('resourceLabel', () => {
  it('names selectors by kind and fields', () => {
    expect(
      resourceLabel(summary({ object_selector: { notifications: [{ name: 'a-*', namespace: 'default' }] } })),
    ).toBe('Notifications: name=a-* namespace=default');
    expect(resourceLabel(summary({ object: 'notification' }))).toBe('notification');
  });
});
