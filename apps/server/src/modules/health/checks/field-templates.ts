/**
 * Templated check fields, as the ecosystem's checks template them before running: string fields
 * such as `url`, `query`, `path` and header values may hold Go templates written `{{ ... }}` or
 * `$( ... )`, rendered with the check's `env:` values (plain, Secret or ConfigMap), `last_result`
 * (the previous run of this check), `canary` and `check`. Other fields are left as written:
 * expressions (`test`, `display`, `transform`, `metrics`) run later against the result, and
 * scripts keep their own braces.
 */
import { loadedExpressions, loadExpressions } from './expression-engine.js';
import { namedValueField, resolveValue } from './spec-fields.js';
import { CheckSpecError, type CheckContext } from './types.js';

/** Fields rendered wherever they appear in a check spec (also inside lists such as `headers`). */
const TEMPLATED_KEYS = new Set([
  'url',
  'endpoint',
  'query',
  'path',
  'host',
  'database',
  'namespace',
  'since',
  'minAge',
  'maxAge',
  'regex',
  'bucket',
  'index',
  'searchBase',
  'searchFilter',
  'filter',
  'value',
]);

/** Fields never rendered: they are expressions or carry their own templating switch. */
const SKIPPED_KEYS = new Set(['test', 'display', 'transform', 'metrics', 'env', 'script', 'body', 'labels']);

function hasTemplate(text: string): boolean {
  return text.includes('{{') || text.includes('$(');
}

/** `$( .x )` as `{{ .x }}`, balancing parentheses inside. */
export function dollarToBraces(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const start = text.indexOf('$(', index);
    if (start < 0) {
      out += text.slice(index);
      break;
    }
    out += text.slice(index, start);
    let depth = 1;
    let cursor = start + 2;
    while (cursor < text.length && depth > 0) {
      if (text[cursor] === '(') depth += 1;
      else if (text[cursor] === ')') depth -= 1;
      cursor += 1;
    }
    if (depth !== 0) {
      out += text.slice(start);
      break;
    }
    const inner = text.slice(start + 2, cursor - 1);
    // Shell-style `$(command)` without a template action is left as written.
    out +=
      /^\s*[.$]/.test(inner) || /^\s*[a-zA-Z]+\s+[.$"]/.test(inner)
        ? `{{${inner}}}`
        : text.slice(start, cursor);
    index = cursor;
  }
  return out;
}

export function renderField(text: string, variables: Record<string, unknown>, field: string): string {
  if (!hasTemplate(text)) return text;
  try {
    return loadedExpressions().renderTemplate(dollarToBraces(text), variables);
  } catch (error) {
    throw new CheckSpecError(`${field}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function renderTree(
  value: unknown,
  variables: Record<string, unknown>,
  path: string,
  templated: boolean,
  skipped: ReadonlySet<string>,
): unknown {
  if (typeof value === 'string') return templated ? renderField(value, variables, path) : value;
  if (Array.isArray(value))
    return value.map((item, index) => renderTree(item, variables, `${path}[${index}]`, templated, skipped));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (SKIPPED_KEYS.has(key) || (path === '' && skipped.has(key))) out[key] = item;
      else {
        const inside = templated || TEMPLATED_KEYS.has(key) || key === 'headers';
        out[key] = renderTree(item, variables, path ? `${path}.${key}` : key, inside, skipped);
      }
    }
    return out;
  }
  return value;
}

/** The variables templated fields see: env values by name, `env`, `last_result`, `canary`, `check`. */
export async function templateVariables(
  raw: Record<string, unknown>,
  ctx: Pick<CheckContext, 'canary' | 'resolveValueFrom'>,
  lastResult: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const env: Record<string, string> = {};
  if (Array.isArray(raw.env)) {
    for (const [index, entry] of raw.env.entries()) {
      const parsed = namedValueField.safeParse(entry);
      if (!parsed.success)
        throw new CheckSpecError(`env[${index}]: each entry needs a name and a value or valueFrom`);
      env[parsed.data.name] =
        (await resolveValue(parsed.data, ctx as CheckContext, `env.${parsed.data.name}`)) ?? '';
    }
  }
  return {
    ...env,
    env,
    last_result: lastResult ?? {},
    canary: {
      id: ctx.canary.id ?? '',
      name: ctx.canary.name,
      namespace: ctx.canary.namespace,
      labels: ctx.canary.labels ?? {},
    },
    check: { name: raw.name, description: raw.description ?? '', labels: raw.labels ?? {} },
  };
}

/** The raw check spec with its templated fields rendered; unchanged when nothing is templated. */
export async function renderCheckFields(
  raw: unknown,
  ctx: Pick<CheckContext, 'canary' | 'resolveValueFrom'>,
  lastResult: Record<string, unknown> | undefined,
  selfTemplated: readonly string[] = [],
): Promise<unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  const skipped = new Set(selfTemplated);
  const needsTemplating = JSON.stringify(
    Object.fromEntries(Object.entries(record).filter(([key]) => !SKIPPED_KEYS.has(key) && !skipped.has(key))),
  );
  if (!hasTemplate(needsTemplating)) return raw;
  const variables = await templateVariables(record, ctx, lastResult);
  await loadExpressions();
  return renderTree(record, variables, '', false, skipped);
}
