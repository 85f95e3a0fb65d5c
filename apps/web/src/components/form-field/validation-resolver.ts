import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/** What a feature's validate function returns: the value to send, or a message per field. */
export type ValidationResult<TOutput, TKey extends string = string> =
  { ok: true; value: TOutput } | { ok: false; errors: Partial<Record<TKey, string>> };

/**
 * A react-hook-form resolver from a feature's pure validate function (docs/adr/0012): used where
 * the rules parse text (YAML, JSON) or depend on the form's mode, which a zod schema would only
 * restate. `fieldOf` names the field that shows an error keyed otherwise ('incident' →
 * 'incidentId'); the default is the key itself. The form's `context` option reaches `validate`
 * (a JSON Schema that loads after the form opens).
 */
export function validationResolver<
  TValues extends FieldValues,
  TOutput,
  TKey extends string,
  TContext = unknown,
>(
  validate: (values: TValues, context: TContext | undefined) => ValidationResult<TOutput, TKey>,
  fieldOf: Partial<Record<TKey, string>> = {},
): Resolver<TValues, TContext, TOutput> {
  return (values, context) => {
    const result = validate(values, context);
    if (result.ok) return { values: result.value, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [key, message] of Object.entries(result.errors) as [TKey, string | undefined][]) {
      if (message) errors[fieldOf[key] ?? key] = { type: 'validate', message };
    }
    return { values: {}, errors: errors as FieldErrors<TValues> };
  };
}
