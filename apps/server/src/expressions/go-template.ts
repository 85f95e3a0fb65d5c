import { ExpressionError } from './expression-error.js';
import { formatGoValue, goSprintf, typeName } from './go-format.js';
import {
  TemplateSyntaxError,
  parseTemplate,
  type Command,
  type Operand,
  type ParsedTemplate,
  type Pipeline,
  type TemplateNode,
} from './go-template-parser.js';
import { queryJsonPath } from './json-path.js';
import { replaceDurations } from './duration-value.js';
import { isPlainObject, toJsonValue } from './values.js';

/** Limits that keep a user's template from stalling the server or filling its memory. */
export interface TemplateLimits {
  /** Largest output, in characters. Default 1 MiB. */
  maxOutputLength?: number;
  /** Most evaluation steps (nodes, loop iterations, function calls). Default 1,000,000. */
  maxSteps?: number;
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;
const DEFAULT_MAX_STEPS = 1_000_000;
const MAX_TEMPLATE_DEPTH = 100;
const NO_VALUE = '<no value>';

class TemplateRuntimeError extends Error {}
class BreakSignal {}
class ContinueSignal {}

type TemplateFunction = (...args: unknown[]) => unknown;

function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function basicKind(value: unknown): 'number' | 'string' | 'boolean' | 'nil' | 'other' {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'other';
}

function equalValues(a: unknown, b: unknown): boolean {
  const kindA = basicKind(a);
  const kindB = basicKind(b);
  if (kindA === 'other' || kindB === 'other') {
    throw new TemplateRuntimeError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  }
  if (kindA === 'nil' || kindB === 'nil') return kindA === kindB;
  if (kindA !== kindB) throw new TemplateRuntimeError('incompatible types for comparison');
  return kindA === 'number' ? Number(a) === Number(b) : a === b;
}

function compareValues(a: unknown, b: unknown): number {
  const kindA = basicKind(a);
  const kindB = basicKind(b);
  if (kindA !== kindB || (kindA !== 'number' && kindA !== 'string')) {
    throw new TemplateRuntimeError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  }
  if (kindA === 'number') return Number(a) - Number(b);
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function lengthOf(value: unknown): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isPlainObject(value)) return Object.keys(value).length;
  throw new TemplateRuntimeError(`len of type ${typeName(value)}`);
}

function asNumber(value: unknown, name: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  throw new TemplateRuntimeError(`${name}: expected a number, got ${typeName(value)}`);
}

function asString(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : formatGoValue(value);
}

function indexValue(container: unknown, key: unknown): unknown {
  if (Array.isArray(container) || typeof container === 'string') {
    const position = asNumber(key, 'index');
    const items = Array.isArray(container) ? container : [...container];
    if (!Number.isInteger(position) || position < 0 || position >= items.length) {
      throw new TemplateRuntimeError(`index out of range: ${position}`);
    }
    return items[position];
  }
  if (isPlainObject(container))
    return Object.hasOwn(container, String(key)) ? container[String(key)] : undefined;
  if (container === null || container === undefined) throw new TemplateRuntimeError('index of untyped nil');
  throw new TemplateRuntimeError(`can't index item of type ${typeName(container)}`);
}

function title(text: string): string {
  return text.replace(
    /(^|[^\p{L}\p{N}'])(\p{L})/gu,
    (_match, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

/** Go's template.JSEscapeString. */
function jsEscape(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === "'") out += "\\'";
    else if (char === '"') out += '\\"';
    else if (char === '<' || char === '>' || char === '&' || char === '=')
      out += `\\u00${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (code < 0x20) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += char;
  }
  return out;
}

function toJsonText(value: unknown, indent?: string): string {
  return JSON.stringify(toJsonValue(value), null, indent);
}

function parseJson(text: unknown): unknown {
  try {
    return JSON.parse(asString(text)) as unknown;
  } catch (error) {
    throw new TemplateRuntimeError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const MAX_REPEAT_OUTPUT = 1024 * 1024;

/**
 * Go's template builtins plus the sprig/gomplate helpers that resource specs commonly use. For
 * sprig-style helpers the subject comes last, so `{{ .x | replace "a" "b" }}` reads naturally.
 */
const FUNCTIONS: Record<string, TemplateFunction> = {
  not: (value) => !isTruthy(value),
  len: (value) => lengthOf(value),
  index: (container, ...keys) => keys.reduce((current, key) => indexValue(current, key), container),
  slice: (value, ...bounds) => {
    const start = bounds.length > 0 ? asNumber(bounds[0], 'slice') : 0;
    if (typeof value === 'string')
      return value.slice(start, bounds.length > 1 ? asNumber(bounds[1], 'slice') : undefined);
    if (Array.isArray(value))
      return value.slice(start, bounds.length > 1 ? asNumber(bounds[1], 'slice') : undefined);
    throw new TemplateRuntimeError(`can't slice item of type ${typeName(value)}`);
  },
  print: (...args) =>
    args
      .map((arg, position) => {
        const spaced = position > 0 && typeof arg !== 'string' && typeof args[position - 1] !== 'string';
        return (spaced ? ' ' : '') + formatGoValue(arg);
      })
      .join(''),
  println: (...args) => `${args.map(formatGoValue).join(' ')}\n`,
  printf: (format, ...args) => goSprintf(asString(format), args),
  eq: (first, ...others) => {
    if (others.length === 0) throw new TemplateRuntimeError('missing argument for comparison');
    return others.some((other) => equalValues(first, other));
  },
  ne: (a, b) => !equalValues(a, b),
  lt: (a, b) => compareValues(a, b) < 0,
  le: (a, b) => compareValues(a, b) <= 0,
  gt: (a, b) => compareValues(a, b) > 0,
  ge: (a, b) => compareValues(a, b) >= 0,
  urlquery: (...args) => encodeURIComponent(args.map(asString).join('')).replace(/%20/g, '+'),
  html: (...args) =>
    args
      .map(asString)
      .join('')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&#34;')
      .replace(/'/g, '&#39;'),
  js: (...args) => jsEscape(args.map(asString).join('')),

  upper: (text) => asString(text).toUpperCase(),
  lower: (text) => asString(text).toLowerCase(),
  title: (text) => title(asString(text)),
  trim: (text) => asString(text).trim(),
  trimAll: (cut, text) => {
    const chars = new Set(asString(cut));
    const source = [...asString(text)];
    let start = 0;
    let end = source.length;
    while (start < end && chars.has(source[start])) start += 1;
    while (end > start && chars.has(source[end - 1])) end -= 1;
    return source.slice(start, end).join('');
  },
  trimPrefix: (prefix, text) => {
    const source = asString(text);
    const head = asString(prefix);
    return head !== '' && source.startsWith(head) ? source.slice(head.length) : source;
  },
  trimSuffix: (suffix, text) => {
    const source = asString(text);
    const tail = asString(suffix);
    return tail !== '' && source.endsWith(tail) ? source.slice(0, -tail.length) : source;
  },
  replace: (from, to, text) => asString(text).split(asString(from)).join(asString(to)),
  contains: (needle, text) => asString(text).includes(asString(needle)),
  hasPrefix: (prefix, text) => asString(text).startsWith(asString(prefix)),
  hasSuffix: (suffix, text) => asString(text).endsWith(asString(suffix)),
  split: (separator, text) => asString(text).split(asString(separator)),
  splitList: (separator, text) => asString(text).split(asString(separator)),
  join: (separator, list) => {
    if (!Array.isArray(list)) throw new TemplateRuntimeError(`join: expected a list, got ${typeName(list)}`);
    return list.map(asString).join(asString(separator));
  },
  repeat: (count, text) => {
    const times = asNumber(count, 'repeat');
    const source = asString(text);
    if (times < 0 || times * source.length > MAX_REPEAT_OUTPUT)
      throw new TemplateRuntimeError('repeat: result too large');
    return source.repeat(times);
  },
  substr: (start, end, text) => {
    const source = asString(text);
    const from = asNumber(start, 'substr');
    const to = asNumber(end, 'substr');
    return source.slice(Math.max(from, 0), to < 0 ? undefined : to);
  },
  trunc: (length, text) => {
    const source = asString(text);
    const size = asNumber(length, 'trunc');
    return size >= 0 ? source.slice(0, size) : source.slice(size);
  },
  indent: (spaces, text) => {
    const pad = ' '.repeat(asNumber(spaces, 'indent'));
    return asString(text)
      .split('\n')
      .map((line) => pad + line)
      .join('\n');
  },
  nindent: (spaces, text) => `\n${String(FUNCTIONS.indent(spaces, text))}`,
  quote: (...args) => args.map((arg) => JSON.stringify(asString(arg))).join(' '),
  squote: (...args) => args.map((arg) => `'${asString(arg)}'`).join(' '),
  toString: (value: unknown) => asString(value),
  default: (fallback, ...rest) => {
    const value = rest.length > 0 ? rest[rest.length - 1] : undefined;
    return isTruthy(value) ? value : fallback;
  },
  empty: (value) => !isTruthy(value),
  coalesce: (...args) => args.find(isTruthy) ?? null,
  ternary: (whenTrue, whenFalse, condition) => (isTruthy(condition) ? whenTrue : whenFalse),
  list: (...args) => args,
  dict: (...args) => {
    const out: Record<string, unknown> = {};
    for (let position = 0; position < args.length; position += 2)
      out[asString(args[position])] = args[position + 1] ?? '';
    return out;
  },
  keys: (...maps) =>
    maps.flatMap((map) => {
      if (!isPlainObject(map)) throw new TemplateRuntimeError(`keys: expected a map, got ${typeName(map)}`);
      return Object.keys(map).sort();
    }),
  add: (...args) => args.reduce<number>((sum, value) => sum + asNumber(value, 'add'), 0),
  sub: (a, b) => asNumber(a, 'sub') - asNumber(b, 'sub'),
  mul: (...args) => args.reduce<number>((product, value) => product * asNumber(value, 'mul'), 1),
  div: (a, b) => {
    const divisor = asNumber(b, 'div');
    if (divisor === 0) throw new TemplateRuntimeError('div: division by zero');
    const quotient = asNumber(a, 'div') / divisor;
    return Number.isInteger(asNumber(a, 'div')) && Number.isInteger(divisor)
      ? Math.trunc(quotient)
      : quotient;
  },
  mod: (a, b) => {
    const divisor = asNumber(b, 'mod');
    if (divisor === 0) throw new TemplateRuntimeError('mod: division by zero');
    return asNumber(a, 'mod') % divisor;
  },
  max: (...args) => Math.max(...args.map((value) => asNumber(value, 'max'))),
  min: (...args) => Math.min(...args.map((value) => asNumber(value, 'min'))),
  toJSON: (value) => toJsonText(value),
  toJson: (value) => toJsonText(value),
  toPrettyJson: (value) => toJsonText(value, '  '),
  toJSONPretty: (indent, value) => toJsonText(value, asString(indent)),
  fromJSON: (text) => parseJson(text),
  fromJson: (text) => parseJson(text),
  jsonpath: (path, value) => {
    const matches = queryJsonPath(asString(path), typeof value === 'string' ? parseJson(value) : value);
    return matches.length === 1 ? matches[0] : matches.length === 0 ? null : matches;
  },
  b64enc: (text) => Buffer.from(asString(text), 'utf8').toString('base64'),
  b64dec: (text) => Buffer.from(asString(text), 'base64').toString('utf8'),

  'strings.ToUpper': (text) => asString(text).toUpperCase(),
  'strings.ToLower': (text) => asString(text).toLowerCase(),
  'strings.Title': (text) => title(asString(text)),
  'strings.TrimSpace': (text) => asString(text).trim(),
  'strings.Trim': (cut, text) => FUNCTIONS.trimAll(cut, text),
  'strings.TrimPrefix': (prefix, text) => FUNCTIONS.trimPrefix(prefix, text),
  'strings.TrimSuffix': (suffix, text) => FUNCTIONS.trimSuffix(suffix, text),
  'strings.Contains': (needle, text) => asString(text).includes(asString(needle)),
  'strings.HasPrefix': (prefix, text) => asString(text).startsWith(asString(prefix)),
  'strings.HasSuffix': (suffix, text) => asString(text).endsWith(asString(suffix)),
  'strings.ReplaceAll': (from, to, text) => asString(text).split(asString(from)).join(asString(to)),
  'strings.Split': (separator, text) => asString(text).split(asString(separator)),
  'strings.Repeat': (count, text) => FUNCTIONS.repeat(count, text),
  'data.ToJSON': (value) => toJsonText(value),
  'data.ToJSONPretty': (indent, value) => toJsonText(value, asString(indent)),
  'data.JSON': (text) => parseJson(text),
  'data.JSONArray': (text) => {
    const parsed = parseJson(text);
    if (!Array.isArray(parsed)) throw new TemplateRuntimeError('data.JSONArray: JSON is not an array');
    return parsed;
  },
  'base64.Encode': (text) => Buffer.from(asString(text), 'utf8').toString('base64'),
  'base64.Decode': (text) => Buffer.from(asString(text), 'base64').toString('utf8'),
  'conv.ToString': (value) => asString(value),
  'conv.ToInt': (value) => Math.trunc(asNumber(value, 'conv.ToInt')),
  'conv.ToFloat64': (value) => asNumber(value, 'conv.ToFloat64'),
  'conv.ToBool': (value) => ['1', 't', 'true', 'yes', 'on'].includes(asString(value).toLowerCase()),
  'conv.Default': (fallback, value) => (isTruthy(value) ? value : fallback),
  'math.Add': (...args) => FUNCTIONS.add(...args),
  'math.Sub': (a, b) => FUNCTIONS.sub(a, b),
  'math.Mul': (...args) => FUNCTIONS.mul(...args),
  'math.Div': (a, b) => asNumber(a, 'math.Div') / asNumber(b, 'math.Div'),
};

function lookupFunction(name: string): TemplateFunction | undefined {
  // Own properties only: a template must not reach Object.prototype members such as constructor.
  return Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
}

/** Names the template language accepts as functions (builtins and helpers). */
export const TEMPLATE_FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS).concat(['and', 'or']).sort();

interface Scope {
  variables: Map<string, unknown>;
}

class Executor {
  private output = '';
  private steps = 0;
  private depth = 0;
  private readonly scopes: Scope[] = [];

  constructor(
    private readonly template: ParsedTemplate,
    private readonly root: unknown,
    private readonly maxOutput: number,
    private readonly maxSteps: number,
  ) {}

  run(): string {
    this.scopes.push({ variables: new Map([['', this.root]]) });
    this.executeList(this.template.root, this.root);
    return this.output;
  }

  private step(): void {
    this.steps += 1;
    if (this.steps > this.maxSteps) {
      throw new TemplateRuntimeError(`template stopped after ${this.maxSteps} evaluation steps`);
    }
  }

  private write(text: string): void {
    this.output += text;
    if (this.output.length > this.maxOutput) {
      throw new TemplateRuntimeError(`template output exceeded ${this.maxOutput} characters`);
    }
  }

  private lookupVariable(name: string): unknown {
    for (let index = this.scopes.length - 1; index >= 0; index -= 1) {
      const scope = this.scopes[index];
      if (scope.variables.has(name)) return scope.variables.get(name);
    }
    throw new TemplateRuntimeError(`undefined variable: $${name}`);
  }

  private assignVariable(name: string, value: unknown): void {
    for (let index = this.scopes.length - 1; index >= 0; index -= 1) {
      const scope = this.scopes[index];
      if (scope.variables.has(name)) {
        scope.variables.set(name, value);
        return;
      }
    }
    throw new TemplateRuntimeError(`undefined variable: $${name}`);
  }

  private withScope<T>(run: () => T): T {
    this.scopes.push({ variables: new Map() });
    try {
      return run();
    } finally {
      this.scopes.pop();
    }
  }

  private executeList(nodes: TemplateNode[], dot: unknown): void {
    for (const node of nodes) this.execute(node, dot);
  }

  private execute(node: TemplateNode, dot: unknown): void {
    this.step();
    switch (node.kind) {
      case 'text':
        this.write(node.text);
        return;
      case 'action': {
        const value = this.evaluatePipeline(node.pipeline, dot);
        if (!node.pipeline.declare)
          this.write(value === null || value === undefined ? NO_VALUE : formatGoValue(value));
        return;
      }
      case 'if':
        this.withScope(() => {
          const value = this.evaluatePipeline(node.pipeline, dot);
          this.executeList(isTruthy(value) ? node.then : node.otherwise, dot);
        });
        return;
      case 'with':
        this.withScope(() => {
          const value = this.evaluatePipeline(node.pipeline, dot);
          if (isTruthy(value)) this.executeList(node.then, value);
          else this.executeList(node.otherwise, dot);
        });
        return;
      case 'range':
        this.withScope(() => this.executeRange(node, dot));
        return;
      case 'template': {
        const body = this.template.defines.get(node.name);
        if (!body) throw new TemplateRuntimeError(`no such template "${node.name}"`);
        if (this.depth >= MAX_TEMPLATE_DEPTH)
          throw new TemplateRuntimeError('exceeded maximum template depth');
        const value = node.pipeline ? this.evaluatePipeline(node.pipeline, dot) : null;
        this.depth += 1;
        const saved = this.scopes.splice(0, this.scopes.length, { variables: new Map([['', value]]) });
        try {
          this.executeList(body, value);
        } finally {
          this.scopes.splice(0, this.scopes.length, ...saved);
          this.depth -= 1;
        }
        return;
      }
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
    }
  }

  private executeRange(node: Extract<TemplateNode, { kind: 'range' }>, dot: unknown): void {
    const declare = node.pipeline.declare;
    const value = this.evaluatePipeline({ commands: node.pipeline.commands }, dot);
    // Entries are produced lazily so `range 100000000` is stopped by the step limit, not by memory.
    let entries: Iterable<[unknown, unknown]>;
    let empty: boolean;
    if (Array.isArray(value)) {
      entries = value.map((item, position): [unknown, unknown] => [position, item]);
      empty = value.length === 0;
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value).sort();
      entries = keys.map((key): [unknown, unknown] => [key, value[key]]);
      empty = keys.length === 0;
    } else if (typeof value === 'number' && Number.isInteger(value)) {
      const count = value;
      entries = (function* counter(): Generator<[unknown, unknown]> {
        for (let position = 0; position < count; position += 1) yield [position, position];
      })();
      empty = count <= 0;
    } else if (value === null || value === undefined) {
      entries = [];
      empty = true;
    } else throw new TemplateRuntimeError(`range can't iterate over ${formatGoValue(value)}`);

    if (empty) {
      this.executeList(node.otherwise, dot);
      return;
    }
    for (const [key, item] of entries) {
      this.step();
      if (declare) {
        const scope = this.scopes[this.scopes.length - 1];
        if (declare.names.length === 1) scope.variables.set(declare.names[0], item);
        else {
          scope.variables.set(declare.names[0], key);
          scope.variables.set(declare.names[1], item);
        }
      }
      try {
        this.executeList(node.then, item);
      } catch (signal) {
        if (signal instanceof BreakSignal) break;
        if (signal instanceof ContinueSignal) continue;
        throw signal;
      }
    }
  }

  private evaluatePipeline(pipeline: Pipeline, dot: unknown): unknown {
    let value: unknown;
    let piped = false;
    for (const command of pipeline.commands) {
      value = this.evaluateCommand(command, dot, piped ? { value } : undefined);
      piped = true;
    }
    if (pipeline.declare) {
      const scope = this.scopes[this.scopes.length - 1];
      if (pipeline.declare.assign)
        for (const name of pipeline.declare.names) this.assignVariable(name, value);
      else for (const name of pipeline.declare.names) scope.variables.set(name, value);
    }
    return value;
  }

  private evaluateCommand(command: Command, dot: unknown, piped: { value: unknown } | undefined): unknown {
    this.step();
    const [first, ...rest] = command.operands;
    if (first.kind === 'function') {
      if (first.name === 'and' || first.name === 'or') return this.shortCircuit(first.name, rest, dot, piped);
      const fn = lookupFunction(first.name);
      if (!fn) throw new TemplateRuntimeError(`function "${first.name}" not defined`);
      const args = rest.map((operand) => this.evaluateOperand(operand, dot));
      if (piped) args.push(piped.value);
      try {
        return fn(...args);
      } catch (error) {
        if (error instanceof TemplateRuntimeError)
          throw new TemplateRuntimeError(`error calling ${first.name}: ${error.message}`);
        throw error;
      }
    }
    if (rest.length > 0 || piped) {
      throw new TemplateRuntimeError(`can't give argument to non-function ${this.describeOperand(first)}`);
    }
    return this.evaluateOperand(first, dot);
  }

  private shortCircuit(
    name: 'and' | 'or',
    operands: Operand[],
    dot: unknown,
    piped: { value: unknown } | undefined,
  ): unknown {
    const thunks: Array<() => unknown> = operands.map((operand) => () => this.evaluateOperand(operand, dot));
    if (piped) thunks.push(() => piped.value);
    if (thunks.length === 0)
      throw new TemplateRuntimeError(`wrong number of args for ${name}: want at least 1 got 0`);
    let value: unknown;
    for (const thunk of thunks) {
      value = thunk();
      if (name === 'and' ? !isTruthy(value) : isTruthy(value)) return value;
    }
    return value;
  }

  private describeOperand(operand: Operand): string {
    switch (operand.kind) {
      case 'dot':
        return '.';
      case 'field':
        return `.${operand.path.join('.')}`;
      case 'variable':
        return `$${operand.name}${operand.path.map((part) => `.${part}`).join('')}`;
      case 'literal':
        return JSON.stringify(operand.value);
      case 'function':
        return operand.name;
      case 'group':
        return '(...)';
    }
  }

  private evaluateOperand(operand: Operand, dot: unknown): unknown {
    switch (operand.kind) {
      case 'dot':
        return dot;
      case 'literal':
        return operand.value;
      case 'field':
        return this.walk(dot, operand.path, '');
      case 'variable':
        return this.walk(this.lookupVariable(operand.name), operand.path, `$${operand.name}`);
      case 'function': {
        if (operand.name === 'and' || operand.name === 'or')
          return this.shortCircuit(operand.name, [], dot, undefined);
        const fn = lookupFunction(operand.name);
        if (!fn) throw new TemplateRuntimeError(`function "${operand.name}" not defined`);
        return fn();
      }
      case 'group':
        return this.walk(this.evaluatePipeline(operand.pipeline, dot), operand.path, '(...)');
    }
  }

  private walk(start: unknown, path: string[], prefix: string): unknown {
    let current = start;
    let walked = prefix;
    for (const part of path) {
      // A missing map key is Go's zero reflect.Value: every field after it is missing too and the
      // chain prints "<no value>"; a key that holds nil is a nil interface, which Go refuses.
      if (current === undefined) return undefined;
      if (current === null) {
        throw new TemplateRuntimeError(
          `nil pointer evaluating ${walked === '' ? 'interface {}' : walked}.${part}`,
        );
      }
      if (!isPlainObject(current)) {
        throw new TemplateRuntimeError(`can't evaluate field ${part} in type ${typeName(current)}`);
      }
      current = Object.hasOwn(current, part) ? current[part] : undefined;
      walked = `${walked}.${part}`;
    }
    return current;
  }
}

const PARSE_CACHE_LIMIT = 500;
const parseCache = new Map<string, ParsedTemplate>();

function parseCached(source: string): ParsedTemplate {
  const cached = parseCache.get(source);
  if (cached) return cached;
  const parsed = parseTemplate(source);
  if (parseCache.size >= PARSE_CACHE_LIMIT) {
    const oldest = parseCache.keys().next();
    if (!oldest.done) parseCache.delete(oldest.value);
  }
  parseCache.set(source, parsed);
  return parsed;
}

/** Renders Go-template syntax against the variables (the template's dot). */
export function renderTemplate(source: string, variables: unknown, limits: TemplateLimits = {}): string {
  let parsed: ParsedTemplate;
  try {
    parsed = parseCached(source);
  } catch (error) {
    if (error instanceof TemplateSyntaxError)
      throw new ExpressionError('template', source, `syntax error: ${error.message}`);
    throw error;
  }
  try {
    const executor = new Executor(
      parsed,
      // Go prints a time.Duration with its String method ("1.5s").
      toJsonValue(replaceDurations(variables, (duration) => duration.toString())),
      limits.maxOutputLength ?? DEFAULT_MAX_OUTPUT,
      limits.maxSteps ?? DEFAULT_MAX_STEPS,
    );
    return executor.run();
  } catch (error) {
    if (error instanceof TemplateRuntimeError || error instanceof ExpressionError) {
      throw new ExpressionError('template', source, error.message);
    }
    if (error instanceof RangeError)
      throw new ExpressionError('template', source, 'template nesting is too deep');
    throw error;
  }
}
