/**
 * The two patch formats kubectl sends: JSON merge patch (RFC 7386, also used for kubectl's
 * strategic merge patches of the kinds served here, which hold no merge-keyed lists) and JSON
 * patch (RFC 6902). Both return a new document and leave their inputs untouched.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A patch that cannot apply: answered as 422 (JSON patch) or 400 (bad body) by the routes. */
export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchError';
  }
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}

/** RFC 7386: objects merge key by key, null removes a key, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, Json> = isObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key] ?? null, value);
  }
  return result;
}

/** RFC 6901: `/a/b~1c/0` → ['a', 'b/c', '0']. */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`path "${pointer}" must start with /`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(list: Json[], token: string, forInsert: boolean, pointer: string): number {
  if (forInsert && token === '-') return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new PatchError(`path "${pointer}": "${token}" is not an array index`);
  const index = Number(token);
  if (index > list.length || (!forInsert && index === list.length))
    throw new PatchError(`path "${pointer}": index ${index} is out of range`);
  return index;
}

/** The container holding the pointer's last token, and that token. */
function parentOf(document: Json, pointer: string): { parent: Json[] | Record<string, Json>; key: string } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError('the whole document cannot be the target here');
  let current: Json = document;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(current)) current = current[arrayIndex(current, token, false, pointer)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else throw new PatchError(`path "${pointer}" does not exist`);
  }
  if (!Array.isArray(current) && !isObject(current)) throw new PatchError(`path "${pointer}" does not exist`);
  return { parent: current, key: tokens[tokens.length - 1] };
}

function read(document: Json, pointer: string): Json {
  let current: Json = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) current = current[arrayIndex(current, token, false, pointer)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else throw new PatchError(`path "${pointer}" does not exist`);
  }
  return current;
}

function add(document: Json, pointer: string, value: Json): Json {
  if (pointer === '') return clone(value);
  const { parent, key } = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, pointer), 0, clone(value));
  else parent[key] = clone(value);
  return document;
}

function remove(document: Json, pointer: string): Json {
  const { parent, key } = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, pointer), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new PatchError(`path "${pointer}" does not exist`);
  return document;
}

function equal(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  return value;
}

/** RFC 6902: add, remove, replace, move, copy and test, applied in order; all or nothing. */
export function jsonPatch(target: Json, operations: unknown): Json {
  if (!Array.isArray(operations)) throw new PatchError('a JSON patch must be a list of operations');
  let document = clone(target);
  operations.forEach((operation: unknown, index) => {
    if (!isObject(operation) || typeof operation.op !== 'string' || typeof operation.path !== 'string')
      throw new PatchError(`operation ${index} needs "op" and "path"`);
    const { op, path } = operation;
    const needsValue = op === 'add' || op === 'replace' || op === 'test';
    if (needsValue && !Object.hasOwn(operation, 'value'))
      throw new PatchError(`operation ${index} (${op}) needs a "value"`);
    const from = typeof operation.from === 'string' ? operation.from : undefined;
    switch (op) {
      case 'add':
        document = add(document, path, operation.value);
        break;
      case 'remove':
        document = remove(document, path);
        break;
      case 'replace':
        read(document, path);
        document = path === '' ? clone(operation.value) : add(remove(document, path), path, operation.value);
        break;
      case 'move': {
        if (from === undefined) throw new PatchError(`operation ${index} (move) needs "from"`);
        const value = read(document, from);
        document = add(remove(document, from), path, value);
        break;
      }
      case 'copy':
        if (from === undefined) throw new PatchError(`operation ${index} (copy) needs "from"`);
        document = add(document, path, read(document, from));
        break;
      case 'test':
        if (!equal(read(document, path), operation.value))
          throw new PatchError(`test operation ${index} failed: "${path}" differs from the expected value`);
        break;
      default:
        throw new PatchError(`operation ${index}: unknown op "${op}"`);
    }
  });
  return document;
}
