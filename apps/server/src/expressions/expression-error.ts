/** The four expression languages a resource spec may use, in the ecosystem's field names. */
export type ExpressionLanguage = 'cel' | 'template' | 'javascript' | 'jsonPath';

export const LANGUAGE_LABELS: Readonly<Record<ExpressionLanguage, string>> = {
  cel: 'CEL',
  template: 'Go template',
  javascript: 'JavaScript',
  jsonPath: 'JSONPath',
};

const MAX_QUOTED_EXPRESSION = 200;

function quoteExpression(source: string): string {
  const oneLine = source.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_QUOTED_EXPRESSION ? `${oneLine.slice(0, MAX_QUOTED_EXPRESSION)}…` : oneLine;
}

/**
 * An expression that failed to parse or evaluate. The message names the language and quotes the
 * expression so a user reading a check's error can find the offending field.
 */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';

  constructor(
    readonly language: ExpressionLanguage,
    readonly expression: string,
    readonly reason: string,
  ) {
    super(
      `${LANGUAGE_LABELS[language]} expression failed: ${reason} (expression: ${quoteExpression(expression)})`,
    );
  }
}
