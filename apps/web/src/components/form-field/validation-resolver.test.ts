import { describe, expect, it } from 'vitest';
import { validationResolver, type ValidationResult } from './validation-resolver';

interface Values {
  incidentId: string;
  title: string;
}

const validate = (
  values: Values,
  minimum: number | undefined,
): ValidationResult<string, 'incident' | 'title'> => {
  const errors: Partial<Record<'incident' | 'title', string>> = {};
  if (!values.incidentId) errors.incident = 'Must select or create an incident';
  if (values.title.length < (minimum ?? 1)) errors.title = 'Title is required';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: values.title.trim() };
};

const options = { fields: {}, shouldUseNativeValidation: undefined } as never;

describe('validationResolver', () => {
  const resolver = validationResolver(validate, { incident: 'incidentId' });

  it("hands the validate function's value to the submit handler", async () => {
    expect(await resolver({ incidentId: 'i1', title: ' Disk ' }, undefined, options)).toEqual({
      values: 'Disk',
      errors: {},
    });
  });

  it('puts each message on its field, renaming keys through fieldOf', async () => {
    expect(await resolver({ incidentId: '', title: '' }, undefined, options)).toEqual({
      values: {},
      errors: {
        incidentId: { type: 'validate', message: 'Must select or create an incident' },
        title: { type: 'validate', message: 'Title is required' },
      },
    });
  });

  it("passes the form's context to the validate function", async () => {
    const result = await resolver({ incidentId: 'i1', title: 'ab' }, 3, options);
    expect(result.errors).toEqual({ title: { type: 'validate', message: 'Title is required' } });
  });
});
