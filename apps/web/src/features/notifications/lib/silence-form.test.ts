import { describe, expect, it } from 'vitest';
import { previewRequestOf, validateSilenceForm, type SilenceFormValues } from './silence-form';

const base: SilenceFormValues = {
  kind: 'check',
  resourceId: '',
  filter: '',
  description: '',
  namespace: '',
  from: '',
  until: '',
  indefinitely: true,
  recursive: false,
  selectorName: '',
  selectorTypes: '',
  selectorLabels: '',
};

describe('validateSilenceForm', () => {
  it("sends 'Indefinitely' as until null", () => {
    expect(validateSilenceForm({ ...base, resourceId: 'c1' })).toEqual({
      ok: true,
      value: { check_id: 'c1', filter: null, description: null, recursive: false, from: null, until: null },
    });
  });
  it('needs a resource or a filter, and an end unless indefinitely', () => {
    expect(validateSilenceForm(base)).toEqual({
      ok: false,
      errors: { resourceId: 'Pick a resource, a selector or write a filter' },
    });
    expect(validateSilenceForm({ ...base, filter: 'true', indefinitely: false })).toEqual({
      ok: false,
      errors: { until: 'Pick an end, or Indefinitely' },
    });
  });
  it('sends the namespace only when one is typed', () => {
    const result = validateSilenceForm({ ...base, filter: 'true', namespace: ' team-a ' });
    expect(result.ok && result.value).toMatchObject({ namespace: 'team-a', filter: 'true' });
    const plain = validateSilenceForm({ ...base, filter: 'true' });
    expect(plain.ok && 'namespace' in plain.value).toBe(false);
  });
  it('puts the resource under its kind', () => {
    const result = validateSilenceForm({ ...base, kind: 'config', resourceId: 'x', recursive: true });
    expect(result.ok && result.value).toMatchObject({ config_id: 'x', recursive: true });
  });
  it('sends the selector from its fields, only those set', () => {
    const result = validateSilenceForm({
      ...base,
      selectorName: ' db-* ',
      selectorTypes: 'postgres, mysql,',
      selectorLabels: '',
    });
    expect(result.ok && result.value).toMatchObject({
      selectors: [{ name: 'db-*', types: ['postgres', 'mysql'] }],
      until: null,
    });
    expect(result.ok && result.value.selectors?.[0]).not.toHaveProperty('labelSelector');
  });
  it('previews only once something would match', () => {
    expect(previewRequestOf(base)).toBeNull();
    expect(previewRequestOf({ ...base, selectorLabels: 'env=prod', recursive: true })).toEqual({
      selectors: [{ labelSelector: 'env=prod' }],
      filter: null,
      recursive: true,
    });
    expect(previewRequestOf({ ...base, kind: 'component', resourceId: 'k1' })).toMatchObject({
      component_id: 'k1',
    });
  });
});
