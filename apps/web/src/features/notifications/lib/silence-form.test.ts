import { describe, expect, it } from 'vitest';
import { validateSilenceForm, type SilenceFormValues } from './silence-form';

const base: SilenceFormValues = {
  kind: 'check',
  resourceId: '',
  filter: '',
  description: '',
  from: '',
  until: '',
  indefinitely: true,
  recursive: false,
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
      errors: { resourceId: 'Pick a resource or write a filter' },
    });
    expect(validateSilenceForm({ ...base, filter: 'true', indefinitely: false })).toEqual({
      ok: false,
      errors: { until: 'Pick an end, or Indefinitely' },
    });
  });
  it('puts the resource under its kind', () => {
    const result = validateSilenceForm({ ...base, kind: 'config', resourceId: 'x', recursive: true });
    expect(result.ok && result.value).toMatchObject({ config_id: 'x', recursive: true });
  });
});
