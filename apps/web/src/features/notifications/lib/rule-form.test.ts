import { describe, expect, it } from 'vitest';
import { NEW_NOTIFICATION_SPEC, validateRuleForm } from './rule-form';

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
