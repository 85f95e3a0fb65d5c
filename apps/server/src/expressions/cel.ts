import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  CelScalar,
  celEnv,
  celFunc,
  celMethod,
  celType,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  listType,
  mapType,
  parse,
  plan,
  type CelEnv,
  type CelFunc,
  type CelInput,
  type CelResult,
  type CelValue,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { encodingFunctions } from './cel-library/encoding.js';
import { HUMANIZE_FUNCTIONS } from './cel-library/humanize.js';
import { K8S_FUNCTIONS } from './cel-library/k8s.js';
import { MATH_FUNCTIONS } from './cel-library/math.js';
import { REGEXP_FUNCTIONS } from './cel-library/regexp.js';
import { SEMVER_FUNCTIONS } from './cel-library/semver.js';
import { STRING_FUNCTIONS } from './cel-library/strings.js';
import { TIME_FUNCTIONS } from './cel-library/time.js';
import { UUID_FUNCTIONS } from './cel-library/uuid.js';
import { durationMessage } from './cel-library/values.js';
import { DurationValue } from './duration-value.js';
import { ExpressionError } from './expression-error.js';
import { queryJsonPath } from './json-path.js';
import { isPlainObject, toJsonValue, type JsonValue } from './values.js';

const DYN = CelScalar.DYN;
const STRING = CelScalar.STRING;
const INT = CelScalar.INT;
const BOOL = CelScalar.BOOL;
const DYN_LIST = listType(DYN);
const DYN_MAP = mapType(STRING, DYN);

/**
 * Host values become CEL values. JSON numbers that are whole become `int` so expressions such as
 * `code == 200`, `results.count + 1` or `list.map(x, x * 2)` type-check the way they do in the
 * ecosystem's Go runtime; other numbers stay `double`.
 */
export function toCelInput(value: unknown): CelInput {
  // Durations (`elapsed`, `sslAge`) stay CEL durations; everything else crosses as JSON.
  if (value instanceof DurationValue) return durationMessage(value) as unknown as CelInput;
  if (Array.isArray(value)) return value.map(toCelInput);
  if (isPlainObject(value)) {
    const map = new Map<string, CelInput>();
    for (const [key, item] of Object.entries(value)) if (item !== undefined) map.set(key, toCelInput(item));
    return map;
  }
  return fromJson(toJsonValue(value));
}

function fromJson(value: JsonValue): CelInput {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(fromJson);
  const map = new Map<string, CelInput>();
  for (const [key, item] of Object.entries(value)) map.set(key, fromJson(item));
  return map;
}

function hasProtoMessage(value: object): value is { message: { seconds: bigint; nanos: number } } {
  const message: unknown = (value as { message?: unknown }).message;
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { seconds?: unknown }).seconds === 'bigint' &&
    typeof (message as { nanos?: unknown }).nanos === 'number'
  );
}

function formatDuration(seconds: bigint, nanos: number): string {
  const total = Number(seconds) + nanos / 1e9;
  return `${Number.isInteger(total) ? total.toFixed(0) : String(total)}s`;
}

/** CEL results become plain JSON: maps to objects, lists to arrays, ints to numbers, timestamps to RFC 3339. */
export function fromCelValue(value: CelValue | CelInput | undefined): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (isCelUint(value)) return fromCelValue(value.value);
  if (isCelList(value)) return [...value].map((item) => fromCelValue(item));
  if (Array.isArray(value)) return value.map((item: CelInput) => fromCelValue(item));
  if (isCelMap(value) || value instanceof Map) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of value as ReadonlyMap<unknown, CelInput>) {
      out[String(isCelUint(key) ? key.value : key)] = fromCelValue(item);
    }
    return out;
  }
  if (typeof value === 'object') {
    let typeName: string | undefined;
    try {
      typeName = celType(value as CelValue).name;
    } catch {
      typeName = undefined;
    }
    if (typeName === 'google.protobuf.Timestamp' && hasProtoMessage(value)) {
      const millis = Number(value.message.seconds) * 1000 + Math.floor(value.message.nanos / 1e6);
      return new Date(millis).toISOString();
    }
    if (typeName === 'google.protobuf.Duration' && hasProtoMessage(value)) {
      return formatDuration(value.message.seconds, value.message.nanos);
    }
    if (typeName === 'type') return String((value as { name?: unknown }).name ?? 'type');
    if (isPlainObject(value)) return toJsonValue(value);
  }
  return null;
}

function compareJson(a: JsonValue, b: JsonValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = typeof a === 'string' ? a : JSON.stringify(a);
  const right = typeof b === 'string' ? b : JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function flattenDeep(items: JsonValue[]): JsonValue[] {
  return items.flatMap((item) => (Array.isArray(item) ? flattenDeep(item) : [item]));
}

function distinct(items: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function parseJsonText(text: string, expect: 'object' | 'array'): CelInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (expect === 'array' && !Array.isArray(parsed)) throw new Error('JSON is not an array');
  return toCelInput(parsed);
}

function listOf(value: CelValue): JsonValue[] {
  const json = fromCelValue(value);
  return Array.isArray(json) ? json : [json];
}

function hashFunction(name: string, algorithm: string): CelFunc {
  return celFunc(name, [STRING], STRING, (text: string) => createHash(algorithm).update(text).digest('hex'));
}

/**
 * The helpers the ecosystem's CEL offers that are cheap to provide faithfully: JSON, base64,
 * collections, sets, hashing, URL encoding, JSONPath and path helpers, plus the strings extension.
 */
const HELPER_FUNCTIONS: CelFunc[] = [
  ...strings,
  celMethod('toJSON', DYN, [], STRING, function (this: CelValue) {
    return JSON.stringify(fromCelValue(this));
  }),
  celFunc('toJSON', [DYN], STRING, (value: CelValue) => JSON.stringify(fromCelValue(value))),
  celMethod('toJSONPretty', DYN, [STRING], STRING, function (this: CelValue, indent: string) {
    return JSON.stringify(fromCelValue(this), null, indent);
  }),
  celMethod('JSON', STRING, [], DYN, function (this: string) {
    return parseJsonText(this, 'object');
  }),
  celMethod('JSONArray', STRING, [], DYN_LIST, function (this: string) {
    return parseJsonText(this, 'array') as CelInput<typeof DYN_LIST>;
  }),
  celFunc('jsonpath', [STRING, DYN], DYN, (jsonPath: string, input: CelValue) => {
    const source = fromCelValue(input);
    const document = typeof source === 'string' ? (JSON.parse(source) as unknown) : source;
    const matches = queryJsonPath(jsonPath, document);
    return toCelInput(matches.length === 1 ? matches[0] : matches.length === 0 ? null : matches);
  }),
  celFunc('base64.encode', [DYN], STRING, (value: CelValue) =>
    Buffer.from(value instanceof Uint8Array ? value : String(fromCelValue(value))).toString('base64'),
  ),
  celFunc('base64.decode', [STRING], STRING, (text: string) => Buffer.from(text, 'base64').toString('utf8')),
  celFunc('urlencode', [STRING], STRING, (text: string) =>
    new URLSearchParams({ v: text }).toString().slice(2),
  ),
  celFunc('urldecode', [STRING], STRING, (text: string) => new URLSearchParams(`v=${text}`).get('v') ?? ''),
  ...TIME_FUNCTIONS,
  ...HUMANIZE_FUNCTIONS,
  ...SEMVER_FUNCTIONS,
  ...UUID_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...REGEXP_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...K8S_FUNCTIONS,
  ...encodingFunctions({ toCel: toCelInput, fromCel: fromCelValue }),
  hashFunction('crypto.SHA1', 'sha1'),
  hashFunction('crypto.SHA256', 'sha256'),
  hashFunction('crypto.SHA384', 'sha384'),
  hashFunction('crypto.SHA512', 'sha512'),
  celMethod('keys', DYN_MAP, [], DYN_LIST, function (this: CelValue) {
    return Object.keys(fromCelValue(this) as Record<string, JsonValue>);
  }),
  celMethod('values', DYN_MAP, [], DYN_LIST, function (this: CelValue) {
    return Object.values(fromCelValue(this) as Record<string, JsonValue>).map(fromJson);
  }),
  celMethod('merge', DYN_MAP, [DYN_MAP], DYN_MAP, function (this: CelValue, other: CelValue) {
    const merged = {
      ...(fromCelValue(this) as Record<string, JsonValue>),
      ...(fromCelValue(other) as Record<string, JsonValue>),
    };
    return fromJson(merged) as CelInput<typeof DYN_MAP>;
  }),
  celMethod('omit', DYN_MAP, [DYN_LIST], DYN_MAP, function (this: CelValue, keys: CelValue) {
    const omitted = new Set(listOf(keys).map(String));
    const source = fromCelValue(this) as Record<string, JsonValue>;
    return fromJson(
      Object.fromEntries(Object.entries(source).filter(([key]) => !omitted.has(key))),
    ) as CelInput<typeof DYN_MAP>;
  }),
  celMethod('sort', DYN_LIST, [], DYN_LIST, function (this: CelValue) {
    return listOf(this).sort(compareJson).map(fromJson);
  }),
  celMethod('distinct', DYN_LIST, [], DYN_LIST, function (this: CelValue) {
    return distinct(listOf(this)).map(fromJson);
  }),
  celMethod('uniq', DYN_LIST, [], DYN_LIST, function (this: CelValue) {
    return distinct(listOf(this)).map(fromJson);
  }),
  celMethod('reverse', DYN_LIST, [], DYN_LIST, function (this: CelValue) {
    return listOf(this).reverse().map(fromJson);
  }),
  celMethod('flatten', DYN_LIST, [], DYN_LIST, function (this: CelValue) {
    return flattenDeep(listOf(this)).map(fromJson);
  }),
  celMethod('slice', DYN_LIST, [INT, INT], DYN_LIST, function (this: CelValue, start: bigint, end: bigint) {
    return listOf(this).slice(Number(start), Number(end)).map(fromJson);
  }),
  celFunc('range', [INT], listType(INT), (end: bigint) => rangeOf(0n, end, 1n)),
  celFunc('range', [INT, INT], listType(INT), (start: bigint, end: bigint) => rangeOf(start, end, 1n)),
  celFunc('range', [INT, INT, INT], listType(INT), (start: bigint, end: bigint, step: bigint) =>
    rangeOf(start, end, step),
  ),
  celFunc('sets.contains', [DYN_LIST, DYN_LIST], BOOL, (a: CelValue, b: CelValue) => {
    const have = new Set(listOf(a).map((item) => JSON.stringify(item)));
    return listOf(b).every((item) => have.has(JSON.stringify(item)));
  }),
  celFunc('sets.equivalent', [DYN_LIST, DYN_LIST], BOOL, (a: CelValue, b: CelValue) => {
    const left = new Set(listOf(a).map((item) => JSON.stringify(item)));
    const right = new Set(listOf(b).map((item) => JSON.stringify(item)));
    return left.size === right.size && [...left].every((item) => right.has(item));
  }),
  celFunc('sets.intersects', [DYN_LIST, DYN_LIST], BOOL, (a: CelValue, b: CelValue) => {
    const have = new Set(listOf(a).map((item) => JSON.stringify(item)));
    return listOf(b).some((item) => have.has(JSON.stringify(item)));
  }),
  celFunc('filepath.Base', [STRING], STRING, (text: string) => path.posix.basename(text)),
  celFunc('filepath.Dir', [STRING], STRING, (text: string) => path.posix.dirname(text)),
  celFunc('filepath.Ext', [STRING], STRING, (text: string) => path.posix.extname(text)),
  celFunc('filepath.Clean', [STRING], STRING, (text: string) => path.posix.normalize(text)),
  celFunc('filepath.Join', [DYN_LIST], STRING, (parts: CelValue) =>
    path.posix.join(...listOf(parts).map(String)),
  ),
];

// CEL runs in-process without a deadline, so generated lists stay small enough that nested
// comprehensions over them cannot stall the server.
const MAX_RANGE = 1_000;

function rangeOf(start: bigint, end: bigint, step: bigint): bigint[] {
  if (step === 0n) throw new Error('range step must not be zero');
  const out: bigint[] = [];
  for (let value = start; step > 0n ? value < end : value > end; value += step) {
    if (out.length >= MAX_RANGE) throw new Error(`range is limited to ${MAX_RANGE} items`);
    out.push(value);
  }
  return out;
}

let environment: CelEnv | undefined;
function celEnvironment(): CelEnv {
  environment ??= celEnv({ funcs: HELPER_FUNCTIONS });
  return environment;
}

type Program = (bindings?: Record<string, CelInput>) => CelResult;
const PROGRAM_CACHE_LIMIT = 500;
const programCache = new Map<string, Program>();

function compile(expression: string): Program {
  const cached = programCache.get(expression);
  if (cached) return cached;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(expression);
  } catch (error) {
    throw new ExpressionError(
      'cel',
      expression,
      `syntax error: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const program = plan(celEnvironment(), parsed) as Program;
  if (programCache.size >= PROGRAM_CACHE_LIMIT) {
    const oldest = programCache.keys().next();
    if (!oldest.done) programCache.delete(oldest.value);
  }
  programCache.set(expression, program);
  return program;
}

/** Evaluates a CEL expression against the variables and returns its result as plain JSON. */
export function evaluateCel(expression: string, variables: Record<string, unknown>): JsonValue {
  if (expression.trim() === '') throw new ExpressionError('cel', expression, 'the expression is empty');
  const program = compile(expression);
  const bindings: Record<string, CelInput> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (value !== undefined) bindings[name] = toCelInput(value);
  }
  let result: CelResult;
  try {
    result = program(bindings);
  } catch (error) {
    throw new ExpressionError('cel', expression, error instanceof Error ? error.message : String(error));
  }
  if (isCelError(result)) {
    const reason =
      result.message === 'unresolved attribute'
        ? `unresolved attribute (variables available: ${Object.keys(bindings).sort().join(', ') || 'none'})`
        : result.message;
    throw new ExpressionError('cel', expression, reason);
  }
  return fromCelValue(result);
}
