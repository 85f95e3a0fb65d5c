import { z } from 'zod';
import { defineResourceKind, scheduleField, textOrNull, type SpecIssue } from '../../resource-kinds/index.js';

const stringMap = z.record(z.string(), z.string(), { error: 'must be a mapping of strings' });
const selector = z.looseObject({
  name: z.string().optional(),
  namespace: z.string().optional(),
  labelSelector: z.string().optional(),
  types: z.array(z.string()).optional(),
});
/** A canary-shaped check spec (`{exec: [...], postgres: [...]}`); its entries are checked when run. */
const lookupSpec = z.looseObject({}, { error: 'must be a check spec, e.g. {exec: [...]}' });
const expressionField = z.union([z.string(), z.looseObject({})], {
  error: 'must be a CEL expression or {expr|template|javascript|jsonPath}',
});

export const componentPropertySpec = z.looseObject({
  name: z.string().optional(),
  label: z.string().optional(),
  text: z.string().optional(),
  value: z.number({ error: 'must be a number' }).optional(),
  unit: z.string().optional(),
  min: z.number({ error: 'must be a number' }).optional(),
  max: z.number({ error: 'must be a number' }).optional(),
  color: z.string().optional(),
  headline: z.boolean({ error: 'must be true or false' }).optional(),
  links: z.array(z.looseObject({})).optional(),
  lookup: lookupSpec.optional(),
});

export interface ComponentSpec {
  name?: string;
  components?: ComponentSpec[];
  [key: string]: unknown;
}

/** One component of a Topology (nested through `components`). */
export const componentSpec: z.ZodType<ComponentSpec> = z.lazy(() =>
  z
    .looseObject({
      name: z.string({ error: 'must be a string' }).optional(),
      namespace: z.string().optional(),
      type: z.string({ error: 'must be a string' }).optional(),
      icon: z.string().optional(),
      owner: z.string().optional(),
      labels: stringMap.optional(),
      hidden: z.boolean({ error: 'must be true or false' }).optional(),
      lifecycle: z.string().optional(),
      order: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).optional(),
      properties: z.array(componentPropertySpec).optional(),
      lookup: lookupSpec.optional(),
      forEach: z.looseObject({}, { error: 'must be a mapping' }).optional(),
      selectors: z.array(selector).optional(),
      checks: z
        .array(z.looseObject({ selector: selector.optional(), inline: z.looseObject({}).optional() }))
        .optional(),
      configs: z.array(z.looseObject({})).optional(),
      relationships: z.array(z.looseObject({})).optional(),
      healthExpr: expressionField.optional(),
      statusExpr: expressionField.optional(),
      components: z.array(componentSpec).optional(),
    })
    .superRefine((component, ctx) => {
      // A component without a lookup is one row; it needs a name.
      if (component.lookup === undefined && (component.name === undefined || component.name.trim() === ''))
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'a component needs a name (or a lookup)' });
    }),
);

/** Topology (`canaries.flanksource.com/v1`): a tree of components built on a schedule. */
export const topologySpec = z.looseObject({
  type: z.string().optional(),
  id: z.looseObject({}).optional(),
  icon: z.string().optional(),
  label: z.looseObject({}).optional(),
  owner: z.string().optional(),
  schedule: scheduleField.optional(),
  text: z.string().optional(),
  tooltip: z.string().optional(),
  components: z.array(componentSpec).optional(),
  properties: z.array(componentPropertySpec).optional(),
  healthExpr: expressionField.optional(),
  statusExpr: expressionField.optional(),
  configs: z.array(z.looseObject({})).optional(),
  // The root's components grouped under one component per value of this label.
  groupBy: z
    .looseObject({ tag: z.string().min(1, { error: 'tag must name a label' }).optional() })
    .optional(),
});

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A lookup must declare at least one check (a list of entries under a check type's key). */
function lookupIssues(lookup: unknown, path: string): SpecIssue[] {
  if (!isRecord(lookup)) return [];
  const declares = Object.values(lookup).some(
    (value) => (Array.isArray(value) && value.some(isRecord)) || isRecord(value),
  );
  return declares ? [] : [{ path, message: 'the lookup declares no check (e.g. exec: [{script: ...}])' }];
}

function componentIssues(component: Json, path: string): SpecIssue[] {
  const issues = lookupIssues(component.lookup, `${path}.lookup`);
  if (Array.isArray(component.properties))
    component.properties.forEach((property, index) => {
      if (isRecord(property))
        issues.push(...lookupIssues(property.lookup, `${path}.properties[${index}].lookup`));
    });
  if (Array.isArray(component.components))
    component.components.forEach((child, index) => {
      if (isRecord(child)) issues.push(...componentIssues(child, `${path}.components[${index}]`));
    });
  return issues;
}

export const topologyKind = defineResourceKind({
  kind: 'Topology',
  apiVersions: ['canaries.flanksource.com/v1'],
  plural: 'topologies',
  table: 'topologies',
  spec: topologySpec,
  columns: (spec) => ({ icon: textOrNull(spec.icon), schedule: textOrNull(spec.schedule) }),
  // Checked however the spec arrives (the data API, apply, the resources API): the schema's
  // issues first, then lookups that would run nothing.
  specIssues: (spec) => componentIssues(spec, 'spec'),
});
