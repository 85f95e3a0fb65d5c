export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * The JSON Schema subset the editor validates: type, required, properties, enum, items, plus local
 * `$ref`s (`#/definitions/…`, `#/$defs/…`) because generated resource schemas use them.
 * Other keywords are ignored.
 */
export interface JsonSchema {
  type?: JsonSchemaType | JsonSchemaType[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
  items?: JsonSchema;
  $ref?: string;
  definitions?: Record<string, JsonSchema>;
  $defs?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

export interface SchemaError {
  /** Where the problem is, e.g. 'spec.http[0].url'; '(root)' for the document itself. */
  path: string;
  message: string;
}

const MAX_REF_DEPTH = 32;

function typeOf(value: unknown): JsonSchemaType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'other';
  }
}

function matchesType(value: unknown, type: JsonSchemaType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key)
    ? path
      ? `${path}.${key}`
      : key
    : `${path}[${JSON.stringify(key)}]`;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  const match = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const name = decodeURIComponent(match[2].replaceAll('~1', '/').replaceAll('~0', '~'));
  const table = match[1] === 'definitions' ? root.definitions : root.$defs;
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** Validates a parsed document against a schema; an empty list means it is valid. */
export function validateJsonSchema(value: unknown, schema: JsonSchema): SchemaError[] {
  const errors: SchemaError[] = [];
  const visit = (current: unknown, node: JsonSchema, path: string, depth: number) => {
    if (node.$ref) {
      const target = depth < MAX_REF_DEPTH ? resolveRef(node.$ref, schema) : undefined;
      if (target) visit(current, target, path, depth + 1);
      return;
    }
    const where = path || '(root)';
    if (node.type !== undefined) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (!types.some((type) => matchesType(current, type))) {
        const expected = types.length > 1 ? `one of the types ${types.join(', ')}` : types[0];
        errors.push({ path: where, message: `must be ${expected}` });
        return;
      }
    }
    if (node.enum && !node.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(current))) {
      errors.push({ path: where, message: `must be one of ${node.enum.map(describe).join(', ')}` });
    }
    if (typeOf(current) === 'object') {
      const record = current as Record<string, unknown>;
      for (const key of node.required ?? []) {
        if (!Object.hasOwn(record, key) || record[key] === undefined)
          errors.push({ path: childPath(path, key), message: 'is required' });
      }
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        if (Object.hasOwn(record, key) && record[key] !== undefined)
          visit(record[key], child, childPath(path, key), depth);
      }
    }
    if (Array.isArray(current) && node.items) {
      current.forEach((item, index) => visit(item, node.items as JsonSchema, childPath(path, index), depth));
    }
  };
  visit(value, schema, '', 0);
  return errors;
}

/** Reads an untrusted value (a fetched schema file) as a schema, or undefined when it is not an object. */
export function asJsonSchema(value: unknown): JsonSchema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonSchema)
    : undefined;
}
