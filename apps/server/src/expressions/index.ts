import { evaluateCel } from './cel.js';
import { ExpressionError, type ExpressionLanguage } from './expression-error.js';
import { renderTemplate, type TemplateLimits } from './go-template.js';
import { evaluateJavascript, type JavascriptLimits } from './javascript.js';
import { evaluateJsonPath } from './json-path.js';
import type { JsonValue } from './values.js';

export { ExpressionError, LANGUAGE_LABELS, type ExpressionLanguage } from './expression-error.js';
export { evaluateCel } from './cel.js';
export { DurationValue, formatGoDuration, parseExtendedDuration } from './duration-value.js';
export { renderTemplate, TEMPLATE_FUNCTION_NAMES, type TemplateLimits } from './go-template.js';
export {
  DEFAULT_JAVASCRIPT_MEMORY_BYTES,
  DEFAULT_JAVASCRIPT_TIMEOUT_MS,
  closeJavascriptSandbox,
  evaluateJavascript,
  type JavascriptLimits,
} from './javascript.js';
export { evaluateJsonPath, queryJsonPath } from './json-path.js';
export { parseTemplate } from './go-template-parser.js';
export { parseTestOutcome, stringifyResult, toJsonValue, type JsonValue } from './values.js';

/**
 * An expression as resource specs write it (`test`, `display`, `transform`, ...): exactly one of
 * the fields is expected; when several are set the ecosystem's precedence applies
 * (javascript, then jsonPath, then expr, then template).
 */
export interface Expression {
  expr?: string;
  template?: string;
  javascript?: string;
  jsonPath?: string;
}

export interface EvaluateOptions {
  javascript?: JavascriptLimits;
  template?: TemplateLimits;
}

function present(text: string | undefined): text is string {
  return typeof text === 'string' && text.trim() !== '';
}

/** The language and source that `evaluate` would run, or undefined when the expression is empty. */
export function selectExpression(
  expression: Expression | null | undefined,
): { language: ExpressionLanguage; source: string } | undefined {
  if (!expression) return undefined;
  if (present(expression.javascript)) return { language: 'javascript', source: expression.javascript };
  if (present(expression.jsonPath)) return { language: 'jsonPath', source: expression.jsonPath };
  if (present(expression.expr)) return { language: 'cel', source: expression.expr };
  if (present(expression.template)) return { language: 'template', source: expression.template };
  return undefined;
}

export function isEmptyExpression(expression: Expression | null | undefined): boolean {
  return selectExpression(expression) === undefined;
}

/**
 * Evaluates an expression against the variables. CEL, JavaScript and JSONPath return their value
 * as JSON; a Go template returns the rendered text. Every failure is an ExpressionError whose
 * message names the language and quotes the expression.
 */
export async function evaluate(
  expression: Expression,
  variables: Record<string, unknown>,
  options: EvaluateOptions = {},
): Promise<JsonValue> {
  const selected = selectExpression(expression);
  if (!selected)
    throw new ExpressionError('cel', '', 'no expression was given (expr, template, javascript or jsonPath)');
  switch (selected.language) {
    case 'javascript':
      return evaluateJavascript(selected.source, variables, options.javascript);
    case 'jsonPath':
      return evaluateJsonPath(selected.source, variables);
    case 'cel':
      return evaluateCel(selected.source, variables);
    case 'template':
      return renderTemplate(selected.source, variables, options.template);
  }
}
