import { Script } from 'node:vm';
import { parse as parseCel } from '@bufbuild/cel';
import { JSONPath } from 'jsonpath-plus';
// The parser alone: rendering would run the template's functions.
import { parseTemplate } from '../../expressions/index.js';
import { SCRAPE_CONFIG_SETTINGS, scraperFor } from './scrapers/registry.js';

/** One refused field of a ScrapeConfig spec: `spec.file[0].health: …`. */
export interface SpecIssue {
  path: string;
  message: string;
}

type Language = 'jsonPath' | 'cel' | 'javascript' | 'template';

const LABELS: Record<Language, string> = {
  jsonPath: 'JSONPath',
  cel: 'CEL',
  javascript: 'JavaScript',
  template: 'Go template',
};

/** Common fields that are a literal, a JSONPath (`$…`) or an expression object. */
const VALUE_FIELDS = ['id', 'name', 'type', 'class', 'status', 'health', 'description', 'namespace'];

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function key(path: string, name: string | number): string {
  if (typeof name === 'number') return `${path}[${name}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/**
 * The bracket and filter structure of a JSONPath; jsonpath-plus accepts unbalanced brackets and
 * trailing garbage silently, so a typo would select nothing at scrape time instead of failing.
 * Returns the filter expressions found, or throws with the reason.
 */
function checkJsonPathStructure(path: string): string[] {
  const source = path.trim();
  if (source === '') throw new Error('the path is empty');
  if (source[0] !== '$' && source[0] !== '@') throw new Error('a JSONPath starts with $');
  const filters: string[] = [];
  let index = 1;
  while (index < source.length) {
    const char = source[index];
    if (char === '.') {
      index += source[index + 1] === '.' ? 2 : 1;
      if (source[index] === '[') continue;
      const start = index;
      while (index < source.length && /[^.[\]()'"\s]/.test(source[index])) index += 1;
      if (index === start) throw new Error(`a name or * is expected at character ${start + 1}`);
      continue;
    }
    if (char === '[') {
      const start = index;
      let depth = 0;
      let quote: string | undefined;
      for (; index < source.length; index += 1) {
        const current = source[index];
        if (quote) {
          if (current === '\\') index += 1;
          else if (current === quote) quote = undefined;
          continue;
        }
        if (current === "'" || current === '"') quote = current;
        else if (current === '[' || current === '(') depth += 1;
        else if (current === ']' || current === ')') {
          depth -= 1;
          if (depth === 0) break;
        }
      }
      if (quote) throw new Error(`unterminated string starting in the bracket at character ${start + 1}`);
      if (index >= source.length || source[index] !== ']')
        throw new Error(`unclosed [ at character ${start + 1}`);
      const inner = source.slice(start + 1, index).trim();
      if (inner === '') throw new Error(`empty [] at character ${start + 1}`);
      const filter = /^\?\s*\(([\s\S]*)\)$/.exec(inner);
      if (filter) filters.push(filter[1]);
      else if (
        !/^(\*|-?\d+|-?\d*:-?\d*(:-?\d*)?|\(([\s\S]*)\)|('([^'\\]|\\.)*'|"([^"\\]|\\.)*"|-?\d+)(\s*,\s*('([^'\\]|\\.)*'|"([^"\\]|\\.)*"|-?\d+))*)$/.test(
          inner,
        )
      )
        throw new Error(`"[${inner}]" is not an index, slice, name, * or filter`);
      index += 1;
      continue;
    }
    throw new Error(`unexpected "${char}" at character ${index + 1}`);
  }
  return filters;
}

function checkJsonPath(path: string): void {
  const filters = checkJsonPathStructure(path);
  // Filters are parsed by jsonpath-plus only when a node reaches them: give each one a node.
  for (const filter of filters) {
    JSONPath({ path: `$[?(${filter})]`, json: [{}], wrap: true, eval: 'safe' });
  }
}

/** Compiles without running: syntax only. */
function check(language: Language, source: string): string | undefined {
  if (source.trim() === '') return `the ${LABELS[language]} expression is empty`;
  try {
    switch (language) {
      case 'jsonPath':
        checkJsonPath(source);
        break;
      case 'cel':
        parseCel(source);
        break;
      case 'javascript':
        // Compiling a Script parses it; it never runs here (scripts run only in the sandbox).
        new Script(source, { filename: 'transform.js' });
        break;
      case 'template':
        parseTemplate(source);
        break;
    }
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `invalid ${LABELS[language]}: ${reason}`;
  }
}

class Collector {
  readonly issues: SpecIssue[] = [];
  add(path: string, language: Language, source: unknown): void {
    if (typeof source !== 'string') {
      if (source !== undefined && source !== null)
        this.issues.push({ path, message: `must be a ${LABELS[language]} string` });
      return;
    }
    const message = check(language, source);
    if (message) this.issues.push({ path, message });
  }

  /** An expression object: expr (CEL), javascript, jsonPath/jsonpath, template. */
  expression(path: string, value: Record<string, unknown>): void {
    if (value.expr !== undefined) this.add(key(path, 'expr'), 'cel', value.expr);
    if (value.javascript !== undefined) this.add(key(path, 'javascript'), 'javascript', value.javascript);
    if (value.jsonPath !== undefined) this.add(key(path, 'jsonPath'), 'jsonPath', value.jsonPath);
    if (value.jsonpath !== undefined) this.add(key(path, 'jsonpath'), 'jsonPath', value.jsonpath);
    if (value.template !== undefined) this.add(key(path, 'template'), 'template', value.template);
  }

  /** A common field: literal, `$…` JSONPath or expression object. */
  valueField(path: string, value: unknown): void {
    if (typeof value === 'string') {
      if (value.startsWith('$')) this.add(path, 'jsonPath', value);
      return;
    }
    const record = asRecord(value);
    if (record) this.expression(path, record);
  }
}

function validateEntry(collector: Collector, path: string, entry: Record<string, unknown>): void {
  for (const field of VALUE_FIELDS) {
    if (entry[field] !== undefined) collector.valueField(key(path, field), entry[field]);
  }
  if (entry.items !== undefined) collector.add(key(path, 'items'), 'jsonPath', entry.items);
  for (const mapName of ['labels', 'tags']) {
    const map = entry[mapName];
    const mapPath = key(path, mapName);
    if (Array.isArray(map)) {
      map.forEach((item, index) => {
        const record = asRecord(item);
        if (!record) return;
        if (record.jsonpath !== undefined)
          collector.add(key(key(mapPath, index), 'jsonpath'), 'jsonPath', record.jsonpath);
        else if (record.value !== undefined)
          collector.valueField(key(key(mapPath, index), 'value'), record.value);
      });
    } else {
      for (const [name, value] of Object.entries(asRecord(map) ?? {}))
        collector.valueField(key(mapPath, name), value);
    }
  }
  for (const fieldsName of ['createFields', 'deleteFields']) {
    listOf(entry[fieldsName]).forEach((value, index) => {
      if (typeof value === 'string')
        collector.add(
          key(key(path, fieldsName), index),
          'jsonPath',
          value.startsWith('$') ? value : `$.${value}`,
        );
    });
  }
  const pagination = asRecord(entry.pagination);
  if (pagination) {
    const paginationPath = key(path, 'pagination');
    if (pagination.nextPageExpr !== undefined)
      collector.add(key(paginationPath, 'nextPageExpr'), 'cel', pagination.nextPageExpr);
    if (pagination.reduce !== undefined)
      collector.add(key(paginationPath, 'reduce'), 'cel', pagination.reduce);
  }

  const transform = asRecord(entry.transform);
  if (!transform) return;
  const transformPath = key(path, 'transform');
  const script = asRecord(transform.script);
  if (script) collector.expression(key(transformPath, 'script'), script);
  listOf(transform.exclude).forEach((rule, index) => {
    const record = asRecord(rule);
    const rulePath = key(key(transformPath, 'exclude'), index);
    if (record?.jsonpath !== undefined) collector.add(key(rulePath, 'jsonpath'), 'jsonPath', record.jsonpath);
    if (record?.jsonPath !== undefined) collector.add(key(rulePath, 'jsonPath'), 'jsonPath', record.jsonPath);
  });
  listOf(transform.mask).forEach((rule, index) => {
    const record = asRecord(rule);
    if (!record) return;
    const rulePath = key(key(transformPath, 'mask'), index);
    if (record.selector !== undefined) collector.add(key(rulePath, 'selector'), 'cel', record.selector);
    if (record.jsonpath !== undefined) collector.add(key(rulePath, 'jsonpath'), 'jsonPath', record.jsonpath);
    if (record.jsonPath !== undefined) collector.add(key(rulePath, 'jsonPath'), 'jsonPath', record.jsonPath);
  });
  listOf(transform.relationship).forEach((rule, index) => {
    const record = asRecord(rule);
    if (!record) return;
    const rulePath = key(key(transformPath, 'relationship'), index);
    if (record.filter !== undefined) collector.add(key(rulePath, 'filter'), 'cel', record.filter);
    for (const lookup of ['id', 'external_id', 'type', 'name', 'namespace']) {
      const spec = asRecord(record[lookup]);
      if (spec?.expr !== undefined) collector.add(key(key(rulePath, lookup), 'expr'), 'cel', spec.expr);
    }
  });
  const changes = asRecord(transform.changes);
  if (changes) {
    const changesPath = key(transformPath, 'changes');
    listOf(changes.exclude).forEach((rule, index) =>
      collector.add(key(key(changesPath, 'exclude'), index), 'cel', rule),
    );
    listOf(changes.mapping).forEach((rule, index) => {
      const record = asRecord(rule);
      if (record?.filter !== undefined)
        collector.add(key(key(key(changesPath, 'mapping'), index), 'filter'), 'cel', record.filter);
    });
  }
}

/**
 * The JSONPaths and expressions of a ScrapeConfig spec that do not parse, each with its field
 * path (`spec.file[0].transform.relationship[0].filter`). Only syntax is checked: nothing runs.
 * Source types this server does not scrape are stored as written and not inspected.
 */
export function scrapeConfigSpecIssues(spec: unknown): SpecIssue[] {
  const collector = new Collector();
  const record = asRecord(spec);
  if (!record) return [{ path: 'spec', message: 'must be a mapping' }];
  for (const [name, value] of Object.entries(record)) {
    if (SCRAPE_CONFIG_SETTINGS.has(name) || !scraperFor(name)) continue;
    const entries = Array.isArray(value) ? value : [value];
    entries.forEach((entry, index) => {
      const entryPath = key(key('spec', name), index);
      const entryRecord = asRecord(entry);
      if (!entryRecord) {
        collector.issues.push({ path: entryPath, message: 'must be a mapping' });
        return;
      }
      validateEntry(collector, entryPath, entryRecord);
    });
  }
  return collector.issues;
}
