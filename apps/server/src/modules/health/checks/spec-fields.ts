import { z } from 'zod';
import { parseDuration as parseSharedDuration, TimeParseError } from '../../../platform/time/index.js';
import { CheckSpecError, type CheckContext, type CheckSpecBase, type ResolvedConnection } from './types.js';

/** Whole numbers written either as numbers or as numeric strings (YAML forms often quote them). */
export const integerField = z.preprocess(
  (value) =>
    typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value,
  z.number().int('must be a whole number'),
);

export const booleanField = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

/** Text fields tolerate numbers so `value: 5432` in YAML still reads as "5432". */
export const textField = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

const expressionSchema = z.looseObject({
  expr: textField.optional(),
  template: textField.optional(),
  javascript: textField.optional(),
  jsonPath: textField.optional(),
});

const retriesSchema = z.looseObject({
  delay: textField.optional(),
  timeout: textField.optional(),
  interval: textField.optional(),
  maxRetries: integerField.optional(),
  disabled: booleanField.optional(),
});

const valueFromSchema = z.looseObject({
  secretKeyRef: z.looseObject({ name: z.string(), key: z.string() }).optional(),
  configMapKeyRef: z.looseObject({ name: z.string(), key: z.string() }).optional(),
});

/** The ecosystem's EnvVar: a plain value, `{value}`, or `{valueFrom: {secretKeyRef|configMapKeyRef}}`. */
export const valueSourceField = z.union([
  textField,
  z.looseObject({ value: textField.optional(), valueFrom: valueFromSchema.optional() }),
]);
export type ValueSource = z.infer<typeof valueSourceField>;

/** A named EnvVar, as used by `headers` and `env` lists. */
export const namedValueField = z.looseObject({
  name: z.string().min(1, 'name is required'),
  value: textField.optional(),
  valueFrom: valueFromSchema.optional(),
});
export type NamedValue = z.infer<typeof namedValueField>;

/** Fields every check spec shares, in the ecosystem's names. */
export const baseSpecShape = {
  name: textField.pipe(z.string().min(1, 'name is required')),
  description: textField.optional(),
  icon: textField.optional(),
  namespace: textField.optional(),
  labels: z.record(z.string(), textField).optional(),
  test: expressionSchema.optional(),
  display: expressionSchema.optional(),
  transform: expressionSchema.optional(),
  markFailOnEmpty: booleanField.optional(),
  retries: retriesSchema.optional(),
  transformDeleteStrategy: textField.optional(),
};

/** Inline connection fields (`connection`, `url`, `username`, `password`). */
export const connectionShape = {
  connection: textField.optional(),
  url: textField.optional(),
  username: valueSourceField.optional(),
  password: valueSourceField.optional(),
};

/** Parses a raw spec entry; a failure names the check type and the offending fields. */
export function parseSpec<Schema extends z.ZodType<CheckSpecBase>>(
  schema: Schema,
  raw: unknown,
  type: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  throw new CheckSpecError(`invalid ${type} check: ${problems.join('; ')}`);
}

/** Reads an EnvVar-style value: static text as is, `valueFrom` through the context's resolver. */
export async function resolveValue(
  source: ValueSource | NamedValue | undefined,
  ctx: CheckContext,
  field: string,
): Promise<string | undefined> {
  if (source === undefined) return undefined;
  if (typeof source === 'string') return source;
  if (source.valueFrom && (source.valueFrom.secretKeyRef || source.valueFrom.configMapKeyRef)) {
    if (!ctx.resolveValueFrom)
      throw new CheckSpecError(`${field}: valueFrom references are not supported here; use a static value`);
    const { secretKeyRef, configMapKeyRef } = source.valueFrom;
    // Only the reference is ever named in a message, never a value.
    const what = secretKeyRef
      ? `secret "${secretKeyRef.name}" key "${secretKeyRef.key}"`
      : `config map "${configMapKeyRef!.name}" key "${configMapKeyRef!.key}"`;
    let value: string | undefined;
    try {
      value = await ctx.resolveValueFrom(
        secretKeyRef ? { secretKeyRef } : { configMapKeyRef },
        ctx.canary.namespace,
      );
    } catch (error) {
      throw new CheckSpecError(`${field}: ${error instanceof Error ? error.message : `cannot read ${what}`}`);
    }
    if (value === undefined) throw new CheckSpecError(`${field}: ${what} was not found`);
    return value;
  }
  return source.value;
}

export interface ConnectionDetails {
  url: string;
  username: string;
  password: string;
  /** The named connection, when the spec used one. */
  connection?: ResolvedConnection;
}

function encodeCredential(text: string): string {
  return encodeURIComponent(text);
}

/**
 * Combines a spec's inline connection fields with its named `connection`: fields written in the
 * spec win, the named connection fills the gaps, and `$(username)` / `$(password)` in the URL are
 * replaced by the (URL-encoded) credentials, as in the ecosystem's connection strings.
 */
export async function resolveConnectionDetails(
  spec: { connection?: string; url?: string; username?: ValueSource; password?: ValueSource },
  ctx: CheckContext,
): Promise<ConnectionDetails> {
  let connection: ResolvedConnection | undefined;
  if (spec.connection !== undefined && spec.connection.trim() !== '') {
    connection = await ctx.resolveConnection(spec.connection.trim());
    if (!connection) throw new CheckSpecError(`connection "${spec.connection}" was not found`);
  }
  const username = (await resolveValue(spec.username, ctx, 'username')) || connection?.username || '';
  const password = (await resolveValue(spec.password, ctx, 'password')) || connection?.password || '';
  const rawUrl = spec.url?.trim() || connection?.url?.trim() || '';
  const url = rawUrl
    .replaceAll('$(username)', encodeCredential(username))
    .replaceAll('$(password)', encodeCredential(password));
  return { url, username, password, connection };
}

/** Hides credentials in a URL before it is shown as an endpoint or written into a message. */
export function sanitizeUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    return url.toString().replace(/password=[^&;\s]*/gi, 'password=###');
  } catch {
    return text.replace(/\/\/[^@/\s]+@/, '//').replace(/password=[^&;\s]*/gi, 'password=###');
  }
}

/**
 * Milliseconds of a duration such as "500ms", "1h30m", "7d" or "2w": the one duration grammar
 * (`platform/time`), with Go's optional sign. Throws a CheckSpecError saying what is wrong.
 */
export function parseDuration(text: string): number {
  try {
    return parseSharedDuration(text, { allowNegative: true });
  } catch (error) {
    if (error instanceof TimeParseError) throw new CheckSpecError(error.message);
    throw error;
  }
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  ki: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
  pi: 1024 ** 5,
  pib: 1024 ** 5,
};

/** Parses sizes such as "100", "10KB", "1.5mb" or "2Gi" into bytes (base 1024, like the ecosystem). */
export function parseSize(text: string | number): number {
  if (typeof text === 'number') return text;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = match ? SIZE_UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new CheckSpecError(`invalid size "${text}" (use e.g. 100, 10KB, 5MB, 1GB)`);
  return Math.round(Number(match[1]) * unit);
}

/** Human-readable bytes, base 1024. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value}B` : `${value.toFixed(1)}${units[unit]}`;
}

/** A compact age such as "850ms", "42s", "3m20s", "5h2m" or "3d4h". */
export function formatAge(milliseconds: number): string {
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < 1_000) return `${ms}ms`;
  const seconds = Math.floor(ms / 1_000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
}
