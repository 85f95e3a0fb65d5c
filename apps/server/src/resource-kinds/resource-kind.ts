import type { z } from 'zod';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A column value that must be encrypted before it is stored (connection credentials). The store
 * seals it with the `SecretBox` it is given and compares it by opening the stored value, so the
 * plaintext never reaches the database, not even as a query parameter.
 */
export interface SealedValue {
  readonly sealed: string;
}

export function sealed(plaintext: string): SealedValue {
  return { sealed: plaintext };
}

export function isSealedValue(value: unknown): value is SealedValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'sealed' in value;
}

/**
 * Encrypts secrets at rest. `seal` may be randomised (a fresh nonce each time); `open` must
 * return the plaintext of anything `seal` produced and throw on anything else.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealedText: string): string;
}

/**
 * Values for the columns of a kind's table beyond the common ones (name, namespace, labels,
 * spec, source): JSON values taken from the validated spec, or `sealed(...)`. The database
 * converts them to the column types (text[], timestamptz, jsonb, ...). `undefined` leaves the stored value alone (and the column default on insert);
 * `null` clears it.
 */
export type RowColumns = Readonly<Record<string, unknown>>;

/**
 * One resource kind (Canary, Team, ...): how its YAML is recognised, validated and stored.
 * A kind is defined by the module that owns its table and listed in that module's `module.ts`.
 */
export interface ResourceKind<Spec extends object = object> {
  /** `kind:` as written in YAML, e.g. `Canary`. */
  readonly kind: string;
  /** Accepted `apiVersion:` values; the first is the one we write out. */
  readonly apiVersions: readonly string[];
  /** Lower-case plural used by the CLI (`opsdeck get canaries`). */
  readonly plural: string;
  /** Table holding the resources (has name, namespace, labels, spec, source, deleted_at). */
  readonly table: string;
  /**
   * The spec's schema. It must keep unknown fields (z.looseObject) so that specs written for
   * newer versions of the ecosystem survive a round trip; it validates only what it knows.
   * It also produces the JSON Schema served to editors, so it must not use transforms.
   */
  readonly spec: z.ZodType<Spec>;
  /**
   * For kinds whose fields sit at the top level of the document instead of under `spec`
   * (Kubernetes' Secret and ConfigMap: `data`, `stringData`, `type`): those top-level fields
   * form the spec the schema validates, issue paths name them without a `spec.` prefix, and a
   * manifest writes them back at the top level.
   */
  readonly documentFields?: readonly string[];
  /**
   * An extra column of `opsdeck get` listings: its header and the SQL expression over the row
   * (a Secret lists its key names, never its values).
   */
  readonly listColumn?: { header: string; sql: string };
  /** Row columns derived from the validated spec (icon, schedule, title, ...). */
  columns(spec: Spec): RowColumns;
  /**
   * The spec as stored in the `spec` column; defaults to the spec exactly as written. A kind
   * removes from it what must not be stored in clear (it then goes to a sealed column).
   */
  storedSpec?(written: JsonObject): JsonObject;
  /**
   * Checks the schema cannot express (expressions and JSONPaths that must parse), run on a spec
   * the schema accepted, from every way in: apply, `RESOURCES_DIR`, the editors and data-API
   * writes to the kind's table. Paths start with `spec` (`spec.file[0].health`).
   */
  specIssues?(spec: JsonObject): SpecIssue[];
  /**
   * Columns the database derives from `spec` on every write (a trigger), the same values
   * `columns()` returns. A data-API write may not set them on their own, nor to anything but
   * what its spec derives (`resourceRowIssues`).
   */
  readonly derivedColumns?: readonly string[];
}

/** One problem `specIssues` found: the field path and what is wrong with it. */
export interface SpecIssue {
  path: string;
  message: string;
}

/** Keeps the spec type of a kind definition while the registry holds them side by side. */
export function defineResourceKind<Spec extends object>(definition: ResourceKind<Spec>): ResourceKind<Spec> {
  return definition;
}
