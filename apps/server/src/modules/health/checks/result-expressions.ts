/**
 * A check's expressions over its result: `transform` (patching the result, or fanning out into
 * derived checks), then `display` and `test`.
 */
import { z } from 'zod';
import {
  DurationValue,
  evaluate,
  isEmptyExpression,
  parseTestOutcome,
  stringifyResult,
  toJsonValue,
  type Expression,
  type JsonValue,
} from '../../../expressions/index.js';
import { errorText, failing } from './check-result.js';
import type { DerivedCheckResult, RunCheckOptions } from './run-types.js';
import type { CanaryMetadata, CheckResult, CheckSpecBase, CheckType } from './types.js';

const transformedResultSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  type: z.string().optional(),
  endpoint: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.unknown()).optional(),
  pass: z.boolean().optional(),
  invalid: z.boolean().optional(),
  duration: z.number().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  detail: z.unknown().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  metrics: z
    .array(
      z.looseObject({
        name: z.string(),
        type: z.enum(['counter', 'gauge', 'histogram']).default('gauge'),
        value: z.number(),
        labels: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
  deletedAt: z.string().optional(),
  transformDeleteStrategy: z.string().optional(),
  displayType: z.string().optional(),
});
type TransformedResult = z.infer<typeof transformedResultSchema>;

function stringLabels(labels: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
  }
  return out;
}

function readTransformOutput(value: JsonValue): TransformedResult[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return [];
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`the transform did not return JSON: ${errorText(error)}`);
    }
  }
  if (parsed === null) return [];
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((item, index) => {
    const result = transformedResultSchema.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(`transform entry ${index + 1}: ${issue.path.join('.') || 'value'}: ${issue.message}`);
    }
    return result.data;
  });
}

export function expressionVariables(
  result: CheckResult,
  spec: CheckSpecBase,
  checkType: CheckType,
  endpoint: string,
  canary: CanaryMetadata,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const data: Record<string, unknown> = { ...result.data };
  for (const key of result.durations ?? []) {
    const value = data[key];
    if (typeof value === 'number') data[key] = DurationValue.fromMilliseconds(value);
  }
  // Earlier checks' results: `outputs.<name>` is the ecosystem's name, `dependsOn.<name>` ours.
  const dependencies = extra.dependsOn ?? extra.outputs;
  return {
    ...extra,
    ...(dependencies === undefined ? {} : { dependsOn: dependencies, outputs: dependencies }),
    ...data,
    check: {
      name: spec.name,
      description: spec.description ?? '',
      labels: spec.labels ?? {},
      endpoint,
      type: checkType.type,
    },
    canary: {
      id: canary.id ?? '',
      name: canary.name,
      namespace: canary.namespace,
      labels: canary.labels ?? {},
    },
  };
}

async function evaluateOrThrow(
  expression: Expression,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<JsonValue> {
  return evaluate(expression, variables, options.expressions);
}

/** `display` sets the message; `test` can only turn a passing check into a failing one. */
export async function applyTemplates(
  result: CheckResult,
  spec: CheckSpecBase,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<CheckResult> {
  let out = result;
  if (spec.display && !isEmptyExpression(spec.display)) {
    try {
      out = { ...out, message: stringifyResult(await evaluateOrThrow(spec.display, variables, options)) };
    } catch (error) {
      out = failing(out, errorText(error));
    }
  }
  if (spec.test && !isEmptyExpression(spec.test)) {
    try {
      const value = await evaluateOrThrow(spec.test, variables, options);
      const outcome = parseTestOutcome(value);
      if (outcome === undefined)
        out = failing(out, `test expression did not return a boolean value. got ${stringifyResult(value)}`);
      else if (!outcome) out = failing(out, 'test expression returned false');
    } catch (error) {
      out = failing(out, errorText(error));
    }
  }
  return out;
}

export interface AttemptOutcome {
  result: CheckResult;
  derived: DerivedCheckResult[];
}

export async function transformResult(
  result: CheckResult,
  spec: CheckSpecBase,
  checkType: CheckType,
  endpoint: string,
  variables: Record<string, unknown>,
  options: RunCheckOptions,
): Promise<AttemptOutcome> {
  if (!spec.transform || isEmptyExpression(spec.transform)) return { result, derived: [] };
  let entries: TransformedResult[];
  try {
    entries = readTransformOutput(await evaluateOrThrow(spec.transform, variables, options));
  } catch (error) {
    return {
      result: {
        ...result,
        pass: false,
        invalid: true,
        error: `error transforming result: ${errorText(error)}`,
      },
      derived: [],
    };
  }
  if (entries.length === 0) {
    const kept = { ...result, detail: undefined };
    return {
      result: spec.markFailOnEmpty && kept.pass ? failing(kept, 'transform returned an empty result') : kept,
      derived: [],
    };
  }
  const first = entries[0];
  if (first.name !== undefined && first.name !== '' && first.name !== spec.name) {
    const derived = entries.map((entry): DerivedCheckResult => ({
      pass: entry.pass ?? false,
      invalid: entry.invalid,
      duration: entry.duration ?? 0,
      message: entry.message ?? '',
      error: entry.error ?? '',
      detail: entry.detail === undefined ? undefined : toJsonValue(entry.detail),
      data: (toJsonValue(entry.data ?? {}) as Record<string, JsonValue>) ?? {},
      metrics: entry.metrics,
      id: entry.id,
      name: entry.name || spec.name,
      description: entry.description || spec.description,
      icon: entry.icon || spec.icon,
      type: entry.type || checkType.type,
      endpoint: entry.endpoint || endpoint,
      namespace: entry.namespace,
      labels: stringLabels(entry.labels),
      deletedAt: entry.deletedAt,
      transformDeleteStrategy: entry.transformDeleteStrategy || spec.transformDeleteStrategy,
      displayType: entry.displayType,
    }));
    // The parent stays as a record of the run; its (possibly large) detail is not kept.
    return { result: { ...result, detail: undefined }, derived };
  }
  if (entries.length > 1) {
    return {
      result: {
        ...result,
        pass: false,
        invalid: true,
        error: 'error transforming result: transformation returned more than 1 entry without a name',
      },
      derived: [],
    };
  }
  const patch = first;
  const patched: CheckResult = {
    ...result,
    data: { ...result.data },
    metrics: [...(result.metrics ?? []), ...(patch.metrics ?? [])],
  };
  if (patch.pass !== undefined) patched.pass = patch.pass;
  if (patch.invalid !== undefined) patched.invalid = patch.invalid;
  if (patch.duration !== undefined) patched.duration = patch.duration;
  if (patch.message) patched.message = patch.message;
  if (patch.error) patched.error = patch.error;
  if (patch.detail !== undefined) {
    if (patch.detail === '$delete') {
      patched.detail = undefined;
      delete patched.data.results;
    } else {
      patched.detail = toJsonValue(patch.detail);
    }
  }
  for (const [key, value] of Object.entries(patch.data ?? {})) patched.data[key] = toJsonValue(value);
  return { result: patched, derived: [] };
}
