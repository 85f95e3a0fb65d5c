import { describe, expect, it } from 'vitest';
import {
  NEW_NOTIFICATION_SPEC,
  playbookRecipientOf,
  validateRuleForm,
  withPlaybookRecipient,
} from './rule-form';

describe('validateRuleForm', () => {
  it('reads the starting spec', () => {
    const result = validateRuleForm({ name: 'oncall', namespace: '', spec: NEW_NOTIFICATION_SPEC });
    expect(result).toMatchObject({ ok: true, value: { name: 'oncall', namespace: 'default' } });
    expect(result.ok && result.value.spec.events).toEqual(['check.failed']);
  });
  it('takes name and spec from a whole Notification document', () => {
    const result = validateRuleForm({
      name: '',
      namespace: '',
      spec: 'apiVersion: mission-control.flanksource.com/v1\nkind: Notification\nmetadata:\n  name: doc\n  namespace: ops\nspec:\n  events: [check.passed]\n',
    });
    expect(result).toEqual({
      ok: true,
      value: { name: 'doc', namespace: 'ops', spec: { events: ['check.passed'] } },
    });
  });
  it('names the field of a problem', () => {
    expect(validateRuleForm({ name: '', namespace: '', spec: 'events: [a]' })).toEqual({
      ok: false,
      errors: { name: 'Name is required' },
    });
    expect(validateRuleForm({ name: 'x', namespace: '', spec: 'title: t' })).toMatchObject({
      ok: false,
      errors: { spec: expect.stringContaining('events') },
    });
    expect(validateRuleForm({ name: 'x', namespace: '', spec: '- a' })).toMatchObject({
      ok: false,
      errors: { spec: 'The spec must be a YAML map' },
    });
  });
});

describe('the playbook recipient in the YAML', () => {
  it('reads to.playbook as namespace/name, a bare name in default', () => {
    expect(playbookRecipientOf('events: [check.failed]\nto:\n  playbook: ops/restart\n')).toBe('ops/restart');
    expect(playbookRecipientOf('events: [check.failed]\nto:\n  playbook: restart\n')).toBe('default/restart');
    expect(playbookRecipientOf('events: [check.failed]\nto:\n  email: a@b.c\n')).toBe('');
    expect(
      playbookRecipientOf('kind: Notification\nmetadata: {name: n}\nspec:\n  to:\n    playbook: x/y\n'),
    ).toBe('x/y');
    expect(playbookRecipientOf('events: [\n')).toBeNull();
    expect(playbookRecipientOf('- a\n')).toBeNull();
  });

  it('sets and removes to.playbook, keeping comments and the other recipients', () => {
    const set = withPlaybookRecipient(NEW_NOTIFICATION_SPEC, 'ops/restart');
    expect(set).toContain('# Sends an email when a health check fails.');
    expect(validateRuleForm({ name: 'n', namespace: '', spec: set })).toMatchObject({
      ok: true,
      value: { spec: { to: { email: 'oncall@example.com', playbook: 'ops/restart' } } },
    });
    const removed = withPlaybookRecipient(set, '');
    expect(playbookRecipientOf(removed)).toBe('');
    expect(validateRuleForm({ name: 'n', namespace: '', spec: removed })).toMatchObject({
      ok: true,
      value: { spec: { to: { email: 'oncall@example.com' } } },
    });
  });

  it('adds a `to` where there is none and drops one it empties; a whole document keeps its shape', () => {
    const added = withPlaybookRecipient('events: [check.failed]\n', 'default/heal');
    expect(validateRuleForm({ name: 'n', namespace: '', spec: added })).toMatchObject({
      ok: true,
      value: { spec: { events: ['check.failed'], to: { playbook: 'default/heal' } } },
    });
    expect(withPlaybookRecipient(added, '')).toBe('events: [ check.failed ]\n');
    const whole = withPlaybookRecipient(
      'kind: Notification\nmetadata:\n  name: doc\nspec:\n  events: [check.passed]\n',
      'ops/x',
    );
    expect(validateRuleForm({ name: '', namespace: '', spec: whole })).toMatchObject({
      ok: true,
      value: { name: 'doc', spec: { events: ['check.passed'], to: { playbook: 'ops/x' } } },
    });
    expect(withPlaybookRecipient('events: [\n', 'ops/x')).toBe('events: [\n');
  });
});
