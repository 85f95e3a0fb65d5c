/**
 * Opsdeck's stored resources in the shapes of the Kubernetes API: objects with metadata, lists,
 * `meta.k8s.io/v1` Tables for kubectl's columns, and `Status` answers for errors.
 */
import type { ResourceKind } from '../../resource-kinds/index.js';
import type { Json } from './json-patch.js';

/** kubectl's annotation for three-way merges; served as the stored manifest (see kubeObject). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The `source` of resources created through the Kubernetes API (as the ecosystem names it). */
export const KUBERNETES_SOURCE = 'KubernetesCRD';

export interface KubeRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, Json>;
  source: string;
  created_at: Date;
  resource_version: string;
  /** The kind's list column (a Secret's keys), when it has one. */
  listed?: string | null;
}

export function groupOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** `canaries.canaries.flanksource.com`, `secrets`: how Kubernetes names a resource in messages. */
export function qualifiedResource(kind: ResourceKind): string {
  const { group } = groupOf(kind.apiVersions[0]);
  return group ? `${kind.plural}.${group}` : kind.plural;
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The document a resource is written as: spec under `spec`, or a Secret's fields at the top. */
export function manifestOf(kind: ResourceKind, row: KubeRow): Record<string, Json> {
  const metadata: Record<string, Json> = { name: row.name, namespace: row.namespace };
  if (Object.keys(row.labels).length > 0) metadata.labels = row.labels;
  const head = { apiVersion: kind.apiVersions[0], kind: kind.kind, metadata };
  return kind.documentFields ? { ...head, ...row.spec } : { ...head, spec: row.spec };
}

function sortedKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedKeys(value[key])]),
    );
  return value;
}

/**
 * A manifest as kubectl writes its last-applied annotation: Go's JSON (sorted keys, HTML
 * characters escaped), with the emptied annotations map kubectl leaves, and a final newline.
 * Matching it byte for byte is what lets a repeated `kubectl apply` report "unchanged".
 */
export function lastAppliedText(manifest: Record<string, Json>): string {
  const metadata = { ...(manifest.metadata as Record<string, Json>), annotations: {} };
  return `${JSON.stringify(sortedKeys({ ...manifest, metadata }))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}\n`;
}

/**
 * The object as the Kubernetes API answers it. The last-applied annotation is the stored
 * manifest itself, so `kubectl apply` computes removals against what is stored, whoever wrote it.
 */
export function kubeObject(
  kind: ResourceKind,
  row: KubeRow,
  status?: Record<string, Json>,
): Record<string, Json> {
  const manifest = manifestOf(kind, row);
  const metadata: Record<string, Json> = {
    ...(manifest.metadata as Record<string, Json>),
    uid: row.id,
    resourceVersion: row.resource_version,
    generation: 1,
    creationTimestamp: isoSeconds(row.created_at),
    annotations: {
      [LAST_APPLIED_ANNOTATION]: lastAppliedText(manifest),
      'opsdeck.io/source': row.source,
    },
  };
  return { ...manifest, metadata, ...(status ? { status } : {}) };
}

/** What Opsdeck knows of each row (a canary's health), by row id; see kube-status.ts. */
export type RowStatuses = ReadonlyMap<string, Record<string, Json>>;

export function kubeList(
  kind: ResourceKind,
  rows: readonly KubeRow[],
  statuses?: RowStatuses,
): Record<string, Json> {
  return {
    apiVersion: kind.apiVersions[0],
    kind: `${kind.kind}List`,
    metadata: { resourceVersion: latestVersion(rows) },
    items: rows.map((row) => kubeObject(kind, row, statuses?.get(row.id))),
  };
}

function latestVersion(rows: readonly KubeRow[]): string {
  return rows.reduce(
    (latest, row) => (BigInt(row.resource_version) > BigInt(latest) ? row.resource_version : latest),
    '0',
  );
}

/** kubectl asks for `application/json;as=Table;v=v1;g=meta.k8s.io` when it prints columns. */
export function wantsTable(accept: string | undefined): boolean {
  return /as=Table/.test(accept ?? '') && /g=meta\.k8s\.io/.test(accept ?? '');
}

export function age(created: Date): string {
  const seconds = Math.max(0, Math.floor((Date.now() - created.getTime()) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

interface Column {
  name: string;
  value: (row: KubeRow, status: Record<string, Json> | undefined) => string;
  /** 1: shown by `-o wide` only. */
  priority?: number;
}

const text = (value: Json | undefined) => (value === undefined || value === null ? '' : String(value));
const since = (value: Json | undefined) => (typeof value === 'string' && value ? age(new Date(value)) : '');
/** A scraper status's last run (kube-status.ts), when it has one. */
const lastRunOf = (status: Record<string, Json> | undefined): Record<string, Json> | undefined => {
  const run = status?.lastRun;
  return run && typeof run === 'object' && !Array.isArray(run) ? run : undefined;
};

/** Extra columns per kind, like the ecosystem's CRDs print them (after Name, before Age). */
function extraColumns(kind: ResourceKind): Column[] {
  switch (kind.kind) {
    case 'Canary':
      return [
        { name: 'Schedule', value: (row) => text(row.spec.schedule ?? row.spec.interval) },
        { name: 'Status', value: (_row, status) => text(status?.status) },
        { name: 'Last Check', value: (_row, status) => since(status?.lastCheck) },
        { name: 'Uptime 1H', value: (_row, status) => text(status?.uptime1h) },
        {
          name: 'Latency 1H',
          value: (_row, status) => (status?.latency1h == null ? '' : `${text(status.latency1h)}ms`),
        },
        { name: 'Last Transitioned', value: (_row, status) => since(status?.lastTransitionedTime) },
        { name: 'Message', value: (_row, status) => text(status?.message), priority: 1 },
      ];
    case 'ScrapeConfig':
      return [
        { name: 'Schedule', value: (row) => text(row.spec.schedule ?? row.spec.interval) },
        { name: 'Last Run', value: (_row, status) => text(lastRunOf(status)?.status) },
        { name: 'Last Run At', value: (_row, status) => since(lastRunOf(status)?.startedAt) },
        { name: 'Items', value: (_row, status) => text(lastRunOf(status)?.successCount), priority: 1 },
        { name: 'Errors', value: (_row, status) => text(lastRunOf(status)?.errorCount), priority: 1 },
        { name: 'Last Failed', value: (_row, status) => since(status?.lastFailed), priority: 1 },
      ];
    case 'Topology':
      return [{ name: 'Schedule', value: (row) => text(row.spec.schedule ?? row.spec.interval) }];
    case 'Playbook':
      return [
        { name: 'Title', value: (row) => text(row.spec.title) },
        { name: 'Category', value: (row) => text(row.spec.category) },
      ];
    case 'Connection':
      return [{ name: 'Type', value: (row) => text(row.spec.type) }];
    default:
      return kind.listColumn
        ? [
            {
              name: kind.listColumn.header.charAt(0) + kind.listColumn.header.slice(1).toLowerCase(),
              value: (row) => row.listed ?? '',
            },
          ]
        : [];
  }
}

export function kubeTable(
  kind: ResourceKind,
  rows: readonly KubeRow[],
  statuses?: RowStatuses,
): Record<string, Json> {
  const extra = extraColumns(kind);
  return {
    apiVersion: 'meta.k8s.io/v1',
    kind: 'Table',
    metadata: { resourceVersion: latestVersion(rows) },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
      ...extra.map(({ name, priority }) => ({
        name,
        type: 'string',
        format: '',
        description: name,
        priority: priority ?? 0,
      })),
      {
        name: 'Source',
        type: 'string',
        format: '',
        description: 'Where the resource comes from',
        priority: 1,
      },
      { name: 'Age', type: 'string', format: '', description: 'Time since creation', priority: 0 },
    ],
    rows: rows.map((row) => ({
      cells: [
        row.name,
        ...extra.map(({ value }) => value(row, statuses?.get(row.id))),
        row.source,
        age(row.created_at),
      ],
      object: {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: {
          name: row.name,
          namespace: row.namespace,
          uid: row.id,
          resourceVersion: row.resource_version,
          creationTimestamp: isoSeconds(row.created_at),
          ...(Object.keys(row.labels).length > 0 ? { labels: row.labels } : {}),
        },
      },
    })),
  };
}

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'InternalError';

export interface StatusCause {
  field: string;
  message: string;
  reason: string;
}

/** An error as the Kubernetes API answers it: kubectl prints `Error from server (Reason): message`. */
export class KubeStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] },
  ) {
    super(message);
    this.name = 'KubeStatusError';
  }

  toStatus(): Record<string, Json> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details as unknown as Json } : {}),
      code: this.code,
    };
  }
}

export function successStatus(kind: ResourceKind, name: string, uid: string): Record<string, Json> {
  const { group } = groupOf(kind.apiVersions[0]);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group, kind: kind.plural, uid },
  };
}

export function notFound(kind: ResourceKind, name: string): KubeStatusError {
  const { group } = groupOf(kind.apiVersions[0]);
  return new KubeStatusError(404, 'NotFound', `${qualifiedResource(kind)} "${name}" not found`, {
    name,
    group,
    kind: kind.plural,
  });
}

export function invalid(kind: ResourceKind, name: string, causes: StatusCause[]): KubeStatusError {
  const { group } = groupOf(kind.apiVersions[0]);
  const summary = causes
    .map((cause) => (cause.field ? `${cause.field}: ${cause.message}` : cause.message))
    .join(', ');
  return new KubeStatusError(
    422,
    'Invalid',
    `${kind.kind}.${group || 'core'} "${name}" is invalid: ${summary}`,
    {
      name,
      group,
      kind: kind.kind,
      causes,
    },
  );
}
