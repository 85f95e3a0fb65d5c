import { createHash } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import {
  evaluate,
  queryJsonPath,
  stringifyResult,
  toJsonValue,
  type Expression,
  type JsonValue,
} from '../../expressions/index.js';
import { ScrapeError, type RawResult, type ScraperEntry } from './scrapers/types.js';

/** A change an item's source or transform reports (rather than one found by diffing). */
export interface ReportedChange {
  external_change_id?: string;
  change_type: string;
  severity?: string;
  source?: string;
  summary?: string;
  details?: JsonValue;
  created_at?: string;
  external_created_by?: string;
}

export interface ReportedAnalysis {
  analyzer: string;
  analysis_type?: string;
  severity?: string;
  status?: string;
  summary?: string;
  message?: string;
  analysis?: JsonValue;
  source?: string;
}

/** A link to another item, found by its external id (and type when given). */
export interface ItemReference {
  external_id: string;
  type?: string;
}

/** An item ready to be reconciled with the catalog. */
export interface ScrapedItem {
  externalId: string;
  type: string;
  configClass: string;
  name: string;
  namespace: string | null;
  description: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  properties: JsonValue | null;
  config: JsonValue;
  source: string | null;
  createdAt: Date | null;
  /** Set when the source says the item is gone (deleteFields). */
  deletedAt: Date | null;
  changes: ReportedChange[];
  analysis: ReportedAnalysis[];
  parents: ItemReference[];
  locations: string[];
  /** Items the relationship rules of the transform link this one to. */
  relationshipRules: RelationshipRule[];
}

export interface LookupSpec {
  value?: string;
  expr?: string;
  label?: string;
}

export interface RelationshipRule {
  filter?: string;
  id?: LookupSpec | string;
  external_id?: LookupSpec | string;
  type?: LookupSpec | string;
  name?: LookupSpec | string;
  namespace?: LookupSpec | string;
  parent?: boolean;
  relation?: string;
}

export interface ChangeMapping {
  filter: string;
  type?: string;
  action?: 'ignore' | 'delete';
  severity?: string;
  summary?: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: JsonValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  const result = stringifyResult(value);
  return result === '' ? null : result;
}

function variablesOf(config: JsonValue, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const record = asRecord(config);
  return { ...(record ?? {}), config, ...extra };
}

/**
 * A common field: `$…` is a JSONPath into the document, an object is an expression (expr,
 * javascript, jsonPath, template) over `config` (and its top-level fields), anything else a
 * literal value.
 */
export async function resolveField(spec: unknown, config: JsonValue, label: string): Promise<string | null> {
  if (spec === undefined || spec === null) return null;
  try {
    if (typeof spec === 'string') {
      if (spec.startsWith('$')) {
        const matches = queryJsonPath(spec, config);
        return matches.length === 0 ? null : text(matches[0]);
      }
      return spec;
    }
    if (typeof spec === 'number' || typeof spec === 'boolean') return String(spec);
    const expression = asRecord(spec);
    if (expression) {
      const normalized: Expression = {
        expr: typeof expression.expr === 'string' ? expression.expr : undefined,
        javascript: typeof expression.javascript === 'string' ? expression.javascript : undefined,
        jsonPath:
          typeof expression.jsonPath === 'string'
            ? expression.jsonPath
            : typeof expression.jsonpath === 'string'
              ? expression.jsonpath
              : undefined,
        template: typeof expression.template === 'string' ? expression.template : undefined,
      };
      if (typeof expression.value === 'string') return expression.value;
      return text(await evaluate(normalized, variablesOf(config)));
    }
  } catch (error) {
    throw new ScrapeError(`${label}: ${(error as Error).message}`);
  }
  throw new ScrapeError(`${label}: must be a value, a JSONPath ($…) or an expression`);
}

async function resolveMap(spec: unknown, config: JsonValue, label: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (Array.isArray(spec)) {
    // The ecosystem's tag list: [{name, value} | {name, jsonpath}].
    for (const item of spec) {
      const entry = asRecord(item);
      if (!entry || typeof entry.name !== 'string') continue;
      const valueSpec = typeof entry.jsonpath === 'string' ? entry.jsonpath : entry.value;
      const value = await resolveField(valueSpec, config, `${label}.${entry.name}`);
      if (value !== null) out[entry.name] = value;
    }
    return out;
  }
  const record = asRecord(spec);
  if (record) {
    for (const [key, valueSpec] of Object.entries(record)) {
      const value = await resolveField(valueSpec, config, `${label}.${key}`);
      if (value !== null) out[key] = value;
    }
  }
  return out;
}

function firstDate(paths: unknown, config: JsonValue): Date | null {
  if (!Array.isArray(paths)) return null;
  for (const path of paths) {
    if (typeof path !== 'string') continue;
    const [value] = queryJsonPath(path.startsWith('$') ? path : `$.${path}`, config);
    if (value === undefined || value === null || value === '') continue;
    const date =
      typeof value === 'number' ? new Date(value < 1e12 ? value * 1000 : value) : new Date(String(value));
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

function removeAt(path: string, config: JsonValue): void {
  const matches = JSONPath({
    path,
    json: config as object,
    resultType: 'all',
    wrap: true,
    eval: 'safe',
  }) as Array<{ parent: unknown; parentProperty: string | number }>;
  // Remove from the end so that array indexes of later matches stay valid.
  for (const match of [...matches].reverse()) {
    if (Array.isArray(match.parent)) match.parent.splice(Number(match.parentProperty), 1);
    else if (match.parent && typeof match.parent === 'object') {
      delete (match.parent as Record<string, unknown>)[String(match.parentProperty)];
    }
  }
}

function maskAt(path: string, mask: string, config: JsonValue): void {
  const matches = JSONPath({
    path,
    json: config as object,
    resultType: 'all',
    wrap: true,
    eval: 'safe',
  }) as Array<{ parent: unknown; parentProperty: string | number; value: unknown }>;
  for (const match of matches) {
    const replacement =
      mask === 'md5sum' ? createHash('md5').update(stringifyResult(match.value)).digest('hex') : mask;
    if (match.parent && typeof match.parent === 'object') {
      (match.parent as Record<string, unknown>)[String(match.parentProperty)] = replacement;
    }
  }
}

function envelopeOf(value: JsonValue): Record<string, unknown> | undefined {
  const record = asRecord(value);
  return record && 'config' in record ? record : undefined;
}

function listOf<T>(value: unknown, map: (item: Record<string, unknown>) => T | undefined): T[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const record = asRecord(item);
    const mapped = record ? map(record) : undefined;
    return mapped === undefined ? [] : [mapped];
  });
}

const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function changesOf(value: unknown): ReportedChange[] {
  return listOf(value, (change) => {
    const changeType = optionalText(change.change_type) ?? optionalText(change.type);
    if (!changeType) return undefined;
    return {
      change_type: changeType,
      external_change_id: optionalText(change.external_change_id) ?? optionalText(change.id),
      severity: optionalText(change.severity),
      source: optionalText(change.source),
      summary: optionalText(change.summary),
      details: change.details === undefined ? undefined : toJsonValue(change.details),
      created_at: optionalText(change.created_at),
      external_created_by: optionalText(change.external_created_by) ?? optionalText(change.created_by),
    };
  });
}

function analysisOf(value: unknown): ReportedAnalysis[] {
  return listOf(value, (finding) => {
    const analyzer = optionalText(finding.analyzer);
    if (!analyzer) return undefined;
    const messages = Array.isArray(finding.messages) ? finding.messages.map(String).join('\n') : undefined;
    return {
      analyzer,
      analysis_type: optionalText(finding.analysis_type),
      severity: optionalText(finding.severity),
      status: optionalText(finding.status),
      summary: optionalText(finding.summary),
      message: optionalText(finding.message) ?? messages,
      analysis: finding.analysis === undefined ? undefined : toJsonValue(finding.analysis),
      source: optionalText(finding.source),
    };
  });
}

function parentsOf(value: unknown): ItemReference[] {
  return listOf(value, (parent) => {
    const externalId = optionalText(parent.external_id) ?? optionalText(parent.id);
    return externalId ? { external_id: externalId, type: optionalText(parent.type) } : undefined;
  });
}

/**
 * Turns the raw results of one scraper entry into items: `items` splits documents, then the
 * transform runs (script, exclude, mask), then the common fields are read. A transform script
 * (or an exec script) may return result envelopes — objects with a `config` member plus any of
 * id, name, type, class, status, health, labels, tags, changes, analysis, parents, locations —
 * to report changes, insights and relationships along with the document.
 */
export async function extractItems(
  entry: ScraperEntry,
  raw: RawResult[],
  label: string,
): Promise<ScrapedItem[]> {
  const transform = asRecord(entry.transform) ?? {};
  const script = asRecord(transform.script);
  const relationshipRules = Array.isArray(transform.relationship)
    ? (transform.relationship.filter((rule) => asRecord(rule)) as RelationshipRule[])
    : [];
  const items: ScrapedItem[] = [];
  for (const result of raw) {
    let documents: JsonValue[] = [result.config];
    if (typeof entry.items === 'string' && entry.items.trim() !== '') {
      const matches = queryJsonPath(entry.items, result.config);
      documents = matches.length === 1 && Array.isArray(matches[0]) ? matches[0] : matches;
    }
    if (script && Object.keys(script).length > 0) {
      const transformed: JsonValue[] = [];
      for (const document of documents) {
        let output: JsonValue;
        try {
          output = await evaluate(
            {
              expr: optionalText(script.expr),
              javascript: optionalText(script.javascript),
              jsonPath: optionalText(script.jsonpath) ?? optionalText(script.jsonPath),
              template: optionalText(script.template),
            },
            variablesOf(document),
          );
        } catch (error) {
          throw new ScrapeError(`${label}: transform: ${(error as Error).message}`);
        }
        if (typeof output === 'string' && (script.javascript || script.template)) {
          try {
            output = toJsonValue(JSON.parse(output));
          } catch {
            // A plain text result stays text.
          }
        }
        if (Array.isArray(output)) transformed.push(...output);
        else if (output !== null) transformed.push(output);
      }
      documents = transformed;
    }
    for (const document of documents) {
      const envelope = envelopeOf(document);
      let config: JsonValue = structuredClone(envelope ? toJsonValue(envelope.config) : document);
      for (const rule of Array.isArray(transform.exclude) ? transform.exclude : []) {
        const path = asRecord(rule)?.jsonpath ?? asRecord(rule)?.jsonPath;
        if (typeof path === 'string' && config && typeof config === 'object') removeAt(path, config);
      }
      for (const rule of Array.isArray(transform.mask) ? transform.mask : []) {
        const record = asRecord(rule);
        const path = record?.jsonpath ?? record?.jsonPath;
        if (typeof path !== 'string' || !config || typeof config !== 'object') continue;
        if (typeof record?.selector === 'string' && record.selector !== '') {
          const selected = await evaluate({ expr: record.selector }, variablesOf(config));
          if (selected !== true) continue;
        }
        maskAt(path, typeof record?.value === 'string' ? record.value : '******', config);
      }
      config = toJsonValue(config);
      const field = async (key: string) =>
        envelope && envelope[key] !== undefined && envelope[key] !== null
          ? text(toJsonValue(envelope[key]))
          : resolveField(entry[key], config, `${label}.${key}`);
      const externalId = (await field('id')) ?? result.defaults?.id ?? null;
      if (!externalId) throw new ScrapeError(`${label}: an item has no id (set id, for example id: $.id)`);
      const type = await field('type');
      if (!type) throw new ScrapeError(`${label}: item "${externalId}" has no type (set type)`);
      const labels = envelope?.labels
        ? await resolveMap(envelope.labels, config, `${label}.labels`)
        : await resolveMap(entry.labels, config, `${label}.labels`);
      const tags = envelope?.tags
        ? await resolveMap(envelope.tags, config, `${label}.tags`)
        : await resolveMap(entry.tags, config, `${label}.tags`);
      const deletedAt = firstDate(entry.deleteFields, config);
      items.push({
        externalId,
        type,
        configClass: (await field('class')) ?? type,
        name: (await field('name')) ?? result.defaults?.name ?? externalId,
        namespace: tags.namespace ?? (await field('namespace')),
        description: await field('description'),
        status: await field('status'),
        health: await field('health'),
        labels,
        tags,
        properties: entry.properties === undefined ? null : toJsonValue(entry.properties),
        config,
        source: result.source ?? null,
        createdAt: firstDate(entry.createFields, config),
        deletedAt,
        changes: changesOf(envelope?.changes),
        analysis: analysisOf(envelope?.analysis),
        parents: parentsOf(envelope?.parents),
        locations: Array.isArray(envelope?.locations) ? envelope.locations.map(String) : [],
        relationshipRules,
      });
    }
  }
  return items;
}

/** Change mappings and exclusions of `transform.changes`. */
export function changeRulesOf(entry: ScraperEntry): { mapping: ChangeMapping[]; exclude: string[] } {
  const changes = asRecord(asRecord(entry.transform)?.changes) ?? {};
  const mapping = listOf<ChangeMapping>(changes.mapping, (rule) =>
    typeof rule.filter === 'string'
      ? {
          filter: rule.filter,
          type: optionalText(rule.type),
          action: rule.action === 'ignore' || rule.action === 'delete' ? rule.action : undefined,
          severity: optionalText(rule.severity),
          summary: optionalText(rule.summary),
        }
      : undefined,
  );
  const exclude = Array.isArray(changes.exclude)
    ? changes.exclude.filter((rule) => typeof rule === 'string')
    : [];
  return { mapping, exclude: exclude as string[] };
}

export async function resolveLookup(
  spec: LookupSpec | string | undefined,
  item: ScrapedItem,
): Promise<string | null> {
  if (spec === undefined) return null;
  if (typeof spec === 'string') return spec;
  if (typeof spec.value === 'string') return spec.value;
  if (typeof spec.label === 'string') return item.labels[spec.label] ?? null;
  if (typeof spec.expr === 'string') {
    return text(await evaluate({ expr: spec.expr }, variablesOf(item.config, { item: itemVariables(item) })));
  }
  return null;
}

export function itemVariables(item: ScrapedItem): Record<string, unknown> {
  return {
    id: item.externalId,
    name: item.name,
    type: item.type,
    config_class: item.configClass,
    namespace: item.namespace,
    labels: item.labels,
    tags: item.tags,
    health: item.health,
    status: item.status,
    config: item.config,
  };
}
