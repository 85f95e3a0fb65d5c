import { VIEW_COLUMN_TYPES, VIEW_PANEL_TYPES } from '@opsdeck/contracts';
import { z } from 'zod';
import { evaluateCel, parseTemplate } from '../../expressions/index.js';
import {
  defineResourceKind,
  durationField,
  textOrNull,
  type JsonObject,
  type SpecIssue,
} from '../../resource-kinds/index.js';

/** A column name is a column of the view's table: a plain SQL identifier, not one of ours. */
export const COLUMN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Columns every view table has; a view may not declare them. */
export const RESERVED_COLUMNS = ['request_fingerprint', 'agent_id', 'tags'] as const;

/** A selector of config items, changes, checks or components (the ecosystem's ResourceSelector). */
const selector = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  types: z.array(z.string(), { error: 'must be a list of types' }).optional(),
  statuses: z.array(z.string(), { error: 'must be a list of statuses' }).optional(),
  health: z.string().optional(),
  tagSelector: z.string().optional(),
  labelSelector: z.string().optional(),
  search: z.string().optional(),
  limit: z.number({ error: 'must be a number' }).int().positive().optional(),
});

const prometheusQuery = z.looseObject({
  url: z.url({ error: 'must be the Prometheus server URL, e.g. http://127.0.0.1:9090' }),
  query: z.string({ error: 'must be a PromQL query' }).min(1, { error: 'must be a PromQL query' }),
});

/** One named query: exactly one of configs, changes, checks, components or prometheus. */
export const viewQuerySpec = z.looseObject({
  configs: selector.optional(),
  changes: selector.optional(),
  checks: selector.optional(),
  components: selector.optional(),
  prometheus: prometheusQuery.optional(),
});

export const QUERY_SOURCES = ['configs', 'changes', 'checks', 'components', 'prometheus'] as const;

export const viewColumnSpec = z.looseObject({
  name: z
    .string({ error: 'must be a column name' })
    .regex(COLUMN_NAME, { error: 'must be a lower-case SQL identifier (letters, digits, _)' }),
  type: z.enum(VIEW_COLUMN_TYPES, { error: `must be one of ${VIEW_COLUMN_TYPES.join(', ')}` }),
  description: z.string().optional(),
  hidden: z.boolean({ error: 'must be true or false' }).optional(),
  primaryKey: z.boolean({ error: 'must be true or false' }).optional(),
  /** Filterable: `filterable: true`, or the ecosystem's `filter: {type: multiselect}`. */
  filterable: z.boolean({ error: 'must be true or false' }).optional(),
  filter: z.looseObject({ type: z.string().optional() }).optional(),
  unit: z.string().optional(),
  gauge: z
    .looseObject({
      min: z.number({ error: 'must be a number' }).optional(),
      max: z.number({ error: 'must be a number' }).optional(),
    })
    .optional(),
});

export const viewPanelSpec = z.looseObject({
  name: z.string({ error: 'a panel needs a name' }).min(1, { error: 'a panel needs a name' }),
  description: z.string().optional(),
  type: z.enum(VIEW_PANEL_TYPES, { error: `must be one of ${VIEW_PANEL_TYPES.join(', ')}` }),
  query: z.string({ error: 'must be a SQL query over the view rows' }).min(1, {
    error: 'must be a SQL query over the view rows',
  }),
  unit: z.string().optional(),
  gauge: z
    .looseObject({
      min: z.number({ error: 'must be a number' }).optional(),
      max: z.number({ error: 'must be a number' }).optional(),
    })
    .optional(),
});

export const viewVariableSpec = z.looseObject({
  key: z
    .string({ error: 'must be a variable name' })
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be letters, digits and _' }),
  label: z.string().optional(),
  values: z.array(z.string(), { error: 'must be a list of strings' }).optional(),
  valueFrom: z
    .looseObject({
      config: selector.optional(),
      component: selector.optional(),
      check: selector.optional(),
    })
    .optional(),
  default: z.string().optional(),
});

/** View (`mission-control.flanksource.com/v1`): a table and panels built from queries. */
export const viewSpec = z.looseObject({
  display: z
    .looseObject({
      title: z.string().optional(),
      icon: z.string().optional(),
      sidebar: z.boolean({ error: 'must be true or false' }).optional(),
      ordinal: z
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .optional(),
      /** Shown as a tab on config items of these types (`/catalog/{id}/view/{viewId}`). */
      plugins: z
        .array(
          z.looseObject({ configTab: z.looseObject({ types: z.array(z.string()).optional() }).optional() }),
        )
        .optional(),
    })
    .optional(),
  columns: z.array(viewColumnSpec, { error: 'must be a list of columns' }).optional(),
  queries: z.record(z.string(), viewQuerySpec, { error: 'must be a mapping of named queries' }).optional(),
  mapping: z.record(z.string(), z.string({ error: 'must be a CEL expression' })).optional(),
  panels: z.array(viewPanelSpec, { error: 'must be a list of panels' }).optional(),
  templating: z.array(viewVariableSpec, { error: 'must be a list of variables' }).optional(),
  cache: z
    .looseObject({
      maxAge: durationField.optional(),
      minAge: durationField.optional(),
      refreshTimeout: durationField.optional(),
    })
    .optional(),
});

export type ViewSpec = z.infer<typeof viewSpec>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `$(var.x)` / `{{.var.x}}` placeholders must not hide a CEL mistake: CEL is checked by a dry run. */
function celIssue(expression: string): string | null {
  try {
    evaluateCel(expression, { row: {}, var: {}, config: {} });
    return null;
  } catch (error) {
    const message = (error as Error).message;
    // Missing fields of the empty dry-run row are expected; syntax errors are not.
    return message.includes('syntax error') ? message : null;
  }
}

/** What the schema cannot say: queries name one source, column names are unique, mappings parse. */
export function viewSpecIssues(spec: JsonObject): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const columns: Record<string, unknown>[] = Array.isArray(spec.columns)
    ? (spec.columns as unknown[]).filter(isRecord)
    : [];
  if (columns.length === 0)
    issues.push({ path: 'spec.columns', message: 'a view needs at least one column' });
  const seen = new Set<string>();
  columns.forEach((column, index) => {
    const name = typeof column.name === 'string' ? column.name : '';
    if (seen.has(name))
      issues.push({ path: `spec.columns[${index}].name`, message: `"${name}" is declared twice` });
    if ((RESERVED_COLUMNS as readonly string[]).includes(name))
      issues.push({
        path: `spec.columns[${index}].name`,
        message: `"${name}" is reserved for the view table`,
      });
    seen.add(name);
  });
  const queries = isRecord(spec.queries) ? spec.queries : {};
  for (const [name, query] of Object.entries(queries)) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name))
      issues.push({
        path: `spec.queries.${name}`,
        message: 'a query name must be a lower-case SQL identifier',
      });
    if (!isRecord(query)) continue;
    const sources = QUERY_SOURCES.filter((source) => query[source] !== undefined);
    if (sources.length !== 1)
      issues.push({
        path: `spec.queries.${name}`,
        message: `a query reads exactly one of ${QUERY_SOURCES.join(', ')}`,
      });
  }
  const mapping = isRecord(spec.mapping) ? spec.mapping : {};
  for (const [column, expression] of Object.entries(mapping)) {
    if (!seen.has(column))
      issues.push({ path: `spec.mapping.${column}`, message: `maps "${column}", which is not a column` });
    if (typeof expression === 'string') {
      const problem = celIssue(expression);
      if (problem) issues.push({ path: `spec.mapping.${column}`, message: problem });
    }
  }
  const variables: Record<string, unknown>[] = Array.isArray(spec.templating)
    ? (spec.templating as unknown[]).filter(isRecord)
    : [];
  variables.forEach((variable, index) => {
    if (variable.values === undefined && variable.valueFrom === undefined)
      issues.push({ path: `spec.templating[${index}]`, message: 'a variable needs values or valueFrom' });
  });
  // Go-template placeholders in selectors must parse.
  for (const [name, query] of Object.entries(queries)) {
    const text = JSON.stringify(query);
    if (!text.includes('{{')) continue;
    try {
      parseTemplate(text);
    } catch (error) {
      issues.push({ path: `spec.queries.${name}`, message: (error as Error).message });
    }
  }
  return issues;
}

export const viewKind = defineResourceKind({
  kind: 'View',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'views',
  table: 'views',
  spec: viewSpec,
  columns: (spec) => ({
    title: textOrNull(spec.display?.title),
    icon: textOrNull(spec.display?.icon),
    sidebar: spec.display?.sidebar ?? false,
    ordinal: spec.display?.ordinal ?? null,
  }),
  specIssues: viewSpecIssues,
  derivedColumns: ['title', 'icon', 'sidebar', 'ordinal'],
});
