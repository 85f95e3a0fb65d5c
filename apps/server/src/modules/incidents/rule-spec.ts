import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  NEW_INCIDENT_DEFAULTS,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentType,
} from '@opsdeck/contracts';
import { z } from 'zod';
import { parseDuration } from '../../platform/time/index.js';

const stringList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]));

const selector = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  types: stringList.optional(),
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  search: z.string().optional(),
});

export type ResourceSelector = z.infer<typeof selector>;

/** Go-style durations (`30s`, `5m`, `1h30m`) plus d and w; numbers are nanoseconds as in Go. */
const durationValue = z.union([z.string(), z.number()]);

const autoAction = z.looseObject({ timeout: durationValue.optional() });

/**
 * The ecosystem's IncidentRule spec, read leniently: what the resources module stored is already
 * validated as a loose object, and unknown keys are kept there for round-tripping.
 */
const ruleSpecSchema = z.looseObject({
  name: z.string().optional(),
  priority: z.number().int().optional(),
  breakOnMatch: z.boolean().optional(),
  filter: z
    .looseObject({
      status: stringList.optional(),
      severity: stringList.optional(),
      type: stringList.optional(),
      category: stringList.optional(),
      age: durationValue.optional(),
    })
    .optional(),
  checks: z.array(selector).optional(),
  components: z.array(selector).optional(),
  template: z
    .looseObject({
      title: z.string().optional(),
      description: z.string().optional(),
      severity: z.string().optional(),
      type: z.string().optional(),
      status: z.string().optional(),
      commander_id: z.string().optional(),
      communicator_id: z.string().optional(),
    })
    .optional(),
  responders: z
    .looseObject({
      people: stringList.optional(),
      teams: stringList.optional(),
    })
    .optional(),
  autoResolve: autoAction.nullable().optional(),
  autoClose: autoAction.nullable().optional(),
});

export interface IncidentRule {
  id: string;
  name: string;
  namespace: string;
  priority: number;
  breakOnMatch: boolean;
  filter: {
    status: string[];
    severity: string[];
    type: string[];
    category: string[];
    /** Milliseconds the check must have been failing; 0 opens at once. */
    ageMs: number;
  };
  checks: ResourceSelector[];
  components: ResourceSelector[];
  template: {
    title?: string;
    description?: string;
    severity: IncidentSeverity;
    type: IncidentType;
    status: IncidentStatus;
    commanderId?: string;
    communicatorId?: string;
  };
  responders: { people: string[]; teams: string[] };
  /** Milliseconds of passing before the incident is resolved/closed; null: never. */
  autoResolveMs: number | null;
  autoCloseMs: number | null;
}

/**
 * Milliseconds of a duration in the one duration grammar (`platform/time`: `90s`, `1h30m`, `7d`),
 * or Go nanoseconds as a number; empty is 0.
 */
export function parseRuleDuration(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${value} is not a duration`);
    return value / 1e6;
  }
  if (value.trim() === '') return 0;
  return Math.round(parseDuration(value));
}

const TYPE_ALIASES: Record<string, IncidentType> = {
  technical_debt: 'technicalDebt',
  technicaldebt: 'technicalDebt',
};

function pick<T extends string>(allowed: readonly T[], value: string | undefined, fallback: T): T {
  if (!value) return fallback;
  const lower = value.toLowerCase();
  return allowed.find((candidate) => candidate.toLowerCase() === lower) ?? fallback;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads a stored rule. Throws (with the field) when the spec cannot be understood, so the
 * engine can log and skip that one rule.
 */
export function parseIncidentRule(row: {
  id: string;
  name: string;
  namespace: string;
  spec: unknown;
}): IncidentRule {
  const parsed = ruleSpecSchema.safeParse(row.spec ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`spec.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const spec = parsed.data;
  const template = spec.template ?? {};
  const typeText = template.type ? (TYPE_ALIASES[template.type.toLowerCase()] ?? template.type) : undefined;
  const timeout = (action: { timeout?: string | number } | null | undefined): number | null =>
    action ? parseRuleDuration(action.timeout ?? 0) : null;
  return {
    id: row.id,
    name: spec.name ?? row.name,
    namespace: row.namespace,
    priority: spec.priority ?? 0,
    breakOnMatch: spec.breakOnMatch ?? false,
    filter: {
      status: spec.filter?.status ?? [],
      severity: spec.filter?.severity ?? [],
      type: spec.filter?.type ?? [],
      category: spec.filter?.category ?? [],
      ageMs: spec.filter?.age === undefined ? 0 : parseRuleDuration(spec.filter.age),
    },
    checks: spec.checks ?? [],
    components: spec.components ?? [],
    template: {
      ...(template.title ? { title: template.title } : {}),
      ...(template.description ? { description: template.description } : {}),
      // The ecosystem's rules write "Low"; the schema stores lower case.
      severity: pick(INCIDENT_SEVERITIES, template.severity, NEW_INCIDENT_DEFAULTS.severity),
      type: pick(INCIDENT_TYPES, typeText, NEW_INCIDENT_DEFAULTS.type),
      status: pick(INCIDENT_STATUSES, template.status, NEW_INCIDENT_DEFAULTS.status),
      ...(template.commander_id && UUID.test(template.commander_id)
        ? { commanderId: template.commander_id }
        : {}),
      ...(template.communicator_id && UUID.test(template.communicator_id)
        ? { communicatorId: template.communicator_id }
        : {}),
    },
    responders: { people: spec.responders?.people ?? [], teams: spec.responders?.teams ?? [] },
    autoResolveMs: timeout(spec.autoResolve),
    autoCloseMs: timeout(spec.autoClose),
  };
}

/** Rules in processing order: lower priority first, then by namespace and name. */
export function sortRules(rules: IncidentRule[]): IncidentRule[] {
  return [...rules].sort(
    (a, b) =>
      a.priority - b.priority || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
  );
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
