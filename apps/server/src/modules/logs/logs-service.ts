import {
  LOGS_DEFAULT_LIMIT,
  LOGS_HISTOGRAM_BUCKETS,
  type LogSourcesResponse,
  type LogsRequest,
  type LogsResponse,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { LOG_BACKENDS } from './backends/registry.js';
import { LogBackendError, type LogBackend, type LogBackendContext } from './backends/types.js';

/** The range a search without `start` covers: the hour before `end`. */
export const DEFAULT_LOG_RANGE_MS = 60 * 60 * 1000;

export interface LoggingBackendRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
}

interface LogResource {
  id: string;
  type: string | null;
  labels: Record<string, string>;
  logSelectors: { name?: string; type?: string; labels?: Record<string, string> }[];
}

type Route = { type?: string; idPrefix?: string; labels?: Record<string, string> };

/** The backend type a spec names (its first key among the known types). */
export function backendOf(
  spec: Record<string, unknown>,
): { backend: LogBackend; spec: Record<string, unknown> } | undefined {
  for (const backend of LOG_BACKENDS) {
    const value = spec[backend.type];
    if (value !== undefined && value !== null && typeof value === 'object')
      return { backend, spec: value as Record<string, unknown> };
  }
  return undefined;
}

async function backendByName(pool: Pool, name: string): Promise<LoggingBackendRow | undefined> {
  const { rows } = await pool.query<LoggingBackendRow>(
    `SELECT id, name, namespace, labels, spec FROM logging_backends
      WHERE name = $1 AND deleted_at IS NULL ORDER BY (namespace = 'default') DESC, created_at LIMIT 1`,
    [name],
  );
  return rows[0];
}

async function resourceOf(pool: Pool, id: string): Promise<LogResource | undefined> {
  const { rows } = await pool.query<{
    id: string;
    type: string | null;
    labels: Record<string, string> | null;
    log_selectors: unknown;
  }>(
    `SELECT id, type, labels, log_selectors FROM components WHERE id = $1 AND deleted_at IS NULL
     UNION ALL
     SELECT id, type, labels, NULL FROM config_items WHERE id = $1 AND deleted_at IS NULL
     LIMIT 1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const logSelectors = Array.isArray(row.log_selectors)
    ? (row.log_selectors as unknown[]).filter(
        (entry): entry is LogResource['logSelectors'][number] => entry !== null && typeof entry === 'object',
      )
    : [];
  return { id: row.id, type: row.type, labels: row.labels ?? {}, logSelectors };
}

function routeMatches(route: Route, resource: LogResource): boolean {
  if (route.type !== undefined && route.type !== resource.type) return false;
  if (route.idPrefix !== undefined && !resource.id.startsWith(route.idPrefix)) return false;
  return Object.entries(route.labels ?? {}).every(([key, value]) => resource.labels[key] === value);
}

async function backendByRoutes(pool: Pool, resource: LogResource): Promise<LoggingBackendRow | undefined> {
  const { rows } = await pool.query<LoggingBackendRow>(
    `SELECT id, name, namespace, labels, spec FROM logging_backends
      WHERE deleted_at IS NULL AND jsonb_typeof(spec->'routes') = 'array' ORDER BY name, namespace`,
  );
  return rows.find((row) =>
    (row.spec.routes as unknown[]).some(
      (route) => route !== null && typeof route === 'object' && routeMatches(route as Route, resource),
    ),
  );
}

/**
 * `POST /api/logs`: finds the backend (by name, or the component's log selector, or the first
 * backend whose routes match the component or config item), asks it, and answers newest first.
 */
export async function searchLogs(
  pool: Pool,
  request: LogsRequest,
  context: Omit<LogBackendContext, 'pool'>,
): Promise<LogsResponse> {
  const end = request.end ? new Date(request.end) : new Date();
  const start = request.start ? new Date(request.start) : new Date(end.getTime() - DEFAULT_LOG_RANGE_MS);
  let backendRow: LoggingBackendRow | undefined;
  let labels: Record<string, string> = {};
  if (request.id) {
    const resource = await resourceOf(pool, request.id);
    if (!resource) throw new HttpError(404, 'No component or config item has this id', 'id');
    const selector = resource.logSelectors.find((entry) => !request.name || entry.name === request.name);
    labels = { ...(selector?.labels ?? {}) };
    const name = request.name ?? selector?.name;
    backendRow = name ? await backendByName(pool, name) : await backendByRoutes(pool, resource);
    if (!backendRow)
      throw new HttpError(
        404,
        name
          ? `Logging backend ${name} not found`
          : 'No logging backend serves the logs of this component or config item',
        name && request.name ? 'name' : 'id',
      );
  } else if (request.name) {
    backendRow = await backendByName(pool, request.name);
    if (!backendRow) throw new HttpError(404, `Logging backend ${request.name} not found`, 'name');
  }
  if (!backendRow) throw new HttpError(400, 'name or id is required', 'name');
  const chosen = backendOf(backendRow.spec);
  if (!chosen)
    throw new HttpError(
      422,
      `Logging backend ${backendRow.name} names no backend type (file, opsdeck, postgres, loki or opensearch)`,
      'name',
    );
  try {
    return await chosen.backend.search(
      chosen.spec,
      {
        query: request.query ?? '',
        start,
        end,
        limit: request.limit ?? LOGS_DEFAULT_LIMIT,
        buckets: request.buckets ?? LOGS_HISTOGRAM_BUCKETS,
        labels,
      },
      { ...context, pool },
    );
  } catch (error) {
    if (error instanceof LogBackendError) throw new HttpError(error.statusCode, error.message, 'name');
    throw error;
  }
}

/** Most components and config items the sources list offers per backend route. */
export const SOURCES_LIMIT = 200;

/**
 * `GET /api/logs/sources`: every backend; the components with log selectors (components_with_logs)
 * and the components and config items a backend's routes reach.
 */
export async function logSources(pool: Pool): Promise<LogSourcesResponse> {
  const { rows: backends } = await pool.query<LoggingBackendRow>(
    `SELECT id, name, namespace, labels, spec FROM logging_backends WHERE deleted_at IS NULL ORDER BY name, namespace LIMIT 500`,
  );
  const components = new Map<string, LogSourcesResponse['components'][number]>();
  const configs = new Map<string, LogSourcesResponse['configs'][number]>();
  const { rows: withSelectors } = await pool.query<{
    id: string;
    name: string | null;
    type: string | null;
    log_selectors: unknown;
  }>(
    `SELECT id, name, type, log_selectors FROM components_with_logs ORDER BY name, id LIMIT ${SOURCES_LIMIT}`,
  );
  for (const row of withSelectors) {
    const first = Array.isArray(row.log_selectors)
      ? (row.log_selectors[0] as { name?: string } | undefined)
      : undefined;
    components.set(row.id, { id: row.id, name: row.name, type: row.type, backend: first?.name ?? '' });
  }
  for (const backend of backends) {
    const routes = Array.isArray(backend.spec.routes) ? (backend.spec.routes as Route[]) : [];
    for (const route of routes) {
      if (route === null || typeof route !== 'object') continue;
      const params: unknown[] = [
        route.type ?? null,
        JSON.stringify(route.labels ?? {}),
        `${route.idPrefix ?? ''}%`,
      ];
      const where = `deleted_at IS NULL AND ($1::text IS NULL OR type = $1) AND coalesce(labels, '{}'::jsonb) @> $2::jsonb AND id::text LIKE $3`;
      const [found, foundConfigs] = await Promise.all([
        pool.query<{ id: string; name: string | null; type: string | null }>(
          `SELECT id, name, type FROM components WHERE ${where} ORDER BY name, id LIMIT ${SOURCES_LIMIT}`,
          params,
        ),
        pool.query<{ id: string; name: string | null; type: string | null }>(
          `SELECT id, name, type FROM config_items WHERE ${where} ORDER BY name, id LIMIT ${SOURCES_LIMIT}`,
          params,
        ),
      ]);
      for (const row of found.rows)
        if (!components.has(row.id)) components.set(row.id, { ...row, backend: backend.name });
      for (const row of foundConfigs.rows)
        if (!configs.has(row.id)) configs.set(row.id, { ...row, backend: backend.name });
    }
  }
  return {
    backends: backends.map((backend) => ({
      id: backend.id,
      name: backend.name,
      namespace: backend.namespace,
      type: backendOf(backend.spec)?.backend.type ?? null,
    })),
    components: [...components.values()],
    configs: [...configs.values()],
  };
}
