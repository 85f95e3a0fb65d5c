/** The values of an option list without the empty ones (the option views may hold null). */
export function presentValues(values: readonly (string | null)[]): string[] {
  return values.filter((value): value is string => Boolean(value));
}
