/**
 * The check summary's descriptive columns: the one list from which the reader's SELECT, the
 * fields it keeps per check and the JSON text it prepares once per check (the head) are made.
 * The summary reads them again for a check only when its fingerprint (the descriptive versions
 * of the check and its canary) changed; migration 0101 moves those versions on a change of any
 * column but a few that every run writes, and summary-reader.int.test.ts changes every table
 * column listed in `versionedBy` below and expects the version and the served summary to follow.
 * How to add a field: modules/health/README.md, "How to add a summary field".
 */
import type { CheckSummary } from '@opsdeck/contracts';

/** A column of checks (`c`) or canaries (`ca`) whose change moves a descriptive version. */
export type VersionedColumn = `checks.${string}` | `canaries.${string}`;

export interface DescriptiveColumn {
  /** The summary's field (CheckSummary's name). */
  field: keyof CheckSummary;
  /** Its value over `checks c JOIN canaries ca ON ca.id = c.canary_id`. */
  select: string;
  /** The table columns it is made of (none for the id, which never changes). */
  versionedBy: readonly VersionedColumn[];
}

/** In the order of the JSON object's members. */
export const SUMMARY_DESCRIPTIVE_COLUMNS = [
  { field: 'id', select: 'c.id', versionedBy: [] },
  { field: 'name', select: 'c.name', versionedBy: ['checks.name'] },
  { field: 'description', select: 'c.description', versionedBy: ['checks.description'] },
  { field: 'endpoint', select: 'c.endpoint', versionedBy: ['checks.endpoint'] },
  { field: 'canary_name', select: 'ca.name', versionedBy: ['canaries.name', 'checks.canary_id'] },
  { field: 'type', select: 'c.type', versionedBy: ['checks.type'] },
  {
    field: 'icon',
    select: 'coalesce(c.icon, ca.icon)',
    versionedBy: ['checks.icon', 'canaries.icon', 'checks.canary_id'],
  },
  { field: 'namespace', select: 'c.namespace', versionedBy: ['checks.namespace'] },
  { field: 'labels', select: "coalesce(c.labels, '{}'::jsonb)", versionedBy: ['checks.labels'] },
  { field: 'agent_id', select: 'c.agent_id', versionedBy: ['checks.agent_id'] },
  // The ecosystem's fields: the canary by id and namespace, owner, severity, creation time.
  { field: 'canary_id', select: 'c.canary_id', versionedBy: ['checks.canary_id'] },
  {
    field: 'canary_namespace',
    select: 'ca.namespace',
    versionedBy: ['canaries.namespace', 'checks.canary_id'],
  },
  { field: 'owner', select: 'c.owner', versionedBy: ['checks.owner'] },
  { field: 'severity', select: 'c.severity', versionedBy: ['checks.severity'] },
  {
    field: 'created_at',
    select: `to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    versionedBy: ['checks.created_at'],
  },
] as const satisfies readonly DescriptiveColumn[];

export type DescriptiveField = (typeof SUMMARY_DESCRIPTIVE_COLUMNS)[number]['field'];

/** A check's descriptive fields, as kept per process. */
export type Descriptive = Pick<CheckSummary, DescriptiveField>;

/** The fields read at every call, written after the head (summary-json.ts). */
export const SUMMARY_TAIL_FIELDS = [
  'status',
  'uptime',
  'latency',
  'last_runtime',
  'last_transition_time',
  'deleted_at',
  'updated_at',
] as const;

/**
 * Compile-time: every field of the contract is either descriptive or in the tail, and no field
 * is both. A field added to CheckSummary fails `tsc` here until it is placed.
 */
type Unplaced = Exclude<keyof CheckSummary, DescriptiveField | (typeof SUMMARY_TAIL_FIELDS)[number]>;
type PlacedTwice = Extract<DescriptiveField, (typeof SUMMARY_TAIL_FIELDS)[number]>;
export const SUMMARY_FIELDS_PLACED: [Unplaced, PlacedTwice] extends [never, never] ? true : never = true;

/** Changes whenever one of the check's descriptive columns does (migrations 0072 and 0101). */
export const FINGERPRINT = `c.descriptive_version || ':' || ca.descriptive_version`;

/** The descriptive columns and the fingerprint of the checks $1 (uuid[]). */
export const DESCRIPTIVE_SQL = `SELECT ${SUMMARY_DESCRIPTIVE_COLUMNS.map(
  ({ field, select }) => `${select} AS ${field}`,
).join(', ')}, ${FINGERPRINT} AS fingerprint
       FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE c.id = ANY($1::uuid[])`;

/** A row of DESCRIPTIVE_SQL. */
export type DescriptiveRow = Descriptive & { fingerprint: string };

/** The row's descriptive fields, in the list's order (the order of the JSON head's members). */
export function descriptiveOf(row: DescriptiveRow): Descriptive {
  const fields: Partial<Record<DescriptiveField, unknown>> = {};
  for (const { field } of SUMMARY_DESCRIPTIVE_COLUMNS) fields[field] = row[field];
  return fields as Descriptive;
}

/** The check's JSON object text up to its last descriptive member, without the closing brace. */
export function descriptiveHead(fields: Descriptive): Buffer {
  const text = JSON.stringify(fields);
  return Buffer.from(text.slice(0, -1));
}
