/**
 * The expression engine (CEL, Go templates, JSONPath), imported when a check first needs it
 * rather than when a check type's module is: validating a spec (`opsdeck apply -f canary.yaml`,
 * the editor) never runs an expression, and loading CEL costs about 0.4 s of CPU (issue 22).
 */
import type * as Expressions from '../../../expressions/index.js';

export type ExpressionEngine = typeof Expressions;

let engine: ExpressionEngine | undefined;
let loading: Promise<ExpressionEngine> | undefined;

/** The expression engine, imported on the first call. */
export function loadExpressions(): Promise<ExpressionEngine> {
  loading ??= import('../../../expressions/index.js').then((loaded) => {
    engine = loaded;
    return loaded;
  });
  return loading;
}

/** The engine for code that runs only after loadExpressions() resolved (sync helpers of a run). */
export function loadedExpressions(): ExpressionEngine {
  if (!engine) throw new Error('the expression engine is not loaded yet (await loadExpressions() first)');
  return engine;
}
