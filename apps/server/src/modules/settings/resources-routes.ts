import {
  SETTINGS_RESOURCE_LIST_LIMIT,
  SETTINGS_RESOURCE_TABLES,
  SETTINGS_RESOURCE_UPDATES,
  settingsResourceListSchema,
  settingsResourceSchema,
  settingsResourceTableSchema,
  type SettingsResource,
  type SettingsResourceList,
  type SettingsResourceTable,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../platform/http/errors.js';

/**
 * The generic settings resources (spec core §2, `/settings/{table}`): a narrow door over the data
 * API for an allowlist of tables and, per table, the columns an editor may change. Every read and
 * write is made through the data API as the caller (same credentials), so the role matrix, the
 * permission rows (row-limited and deny ones), token scopes, feature flags and the tables' own
 * write checks decide exactly as they do on `/api/db/{table}`: this route adds no rights.
 */

const SUMMARY_COLUMNS = ['id', 'name', 'namespace', 'labels', 'source', 'created_at', 'updated_at'];
/** Extra columns the editor reads, by table (only where the table has them). */
const DETAIL_COLUMNS: Readonly<Record<SettingsResourceTable, readonly string[]>> = {
  canaries: ['spec', 'icon', 'schedule'],
  incident_rules: ['spec'],
  logging_backends: ['spec'],
  teams: ['spec', 'icon'],
  topologies: ['spec', 'icon', 'schedule'],
};

/** The caller's credentials, carried to the data API unchanged. */
const FORWARDED_HEADERS = [
  'authorization',
  'cookie',
  'x-csrf-token',
  'origin',
  'referer',
  'host',
  'user-agent',
];

const idSchema = z.uuid({ error: 'id must be a UUID' });

function tableOf(params: unknown): SettingsResourceTable {
  const table = (params as { table?: string }).table;
  const parsed = settingsResourceTableSchema.safeParse(table);
  if (!parsed.success)
    throw new HttpError(
      404,
      `table must be one of ${SETTINGS_RESOURCE_TABLES.join(', ')} (config scrapers have their own page)`,
      'table',
    );
  return parsed.data;
}

function idOf(params: unknown): string {
  const parsed = idSchema.safeParse((params as { id?: string }).id);
  if (!parsed.success) throw new HttpError(400, 'id must be a UUID', 'id');
  return parsed.data;
}

function forwardedHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

async function viaDataApi(
  app: FastifyInstance,
  request: FastifyRequest,
  method: 'GET' | 'PATCH',
  url: string,
  payload?: Record<string, unknown>,
): Promise<unknown[]> {
  const response = await app.inject({
    method,
    url,
    headers: {
      ...forwardedHeaders(request),
      accept: 'application/json',
      ...(payload ? { 'content-type': 'application/json', prefer: 'return=representation' } : {}),
    },
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 400) {
    let body: { error?: unknown; message?: unknown; field?: unknown } = {};
    try {
      body = response.json();
    } catch {
      // not JSON: answered with a plain message below
    }
    const message =
      typeof body.error === 'string'
        ? body.error
        : typeof body.message === 'string'
          ? body.message
          : `The request was refused (${response.statusCode})`;
    throw new HttpError(
      response.statusCode,
      message,
      typeof body.field === 'string' ? body.field : undefined,
    );
  }
  const rows: unknown = response.json();
  return Array.isArray(rows) ? rows : [];
}

function detailSelect(table: SettingsResourceTable): string {
  return [...SUMMARY_COLUMNS, ...DETAIL_COLUMNS[table]].join(',');
}

export async function settingsResourcesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/settings/resources/:table', async (request): Promise<SettingsResourceList> => {
    const table = tableOf(request.params);
    const rows = await viaDataApi(
      app,
      request,
      'GET',
      `/api/db/${table}?select=${SUMMARY_COLUMNS.join(',')}&deleted_at=is.null` +
        `&order=created_at.desc,id.desc&limit=${SETTINGS_RESOURCE_LIST_LIMIT}`,
    );
    return settingsResourceListSchema.parse({ table, rows });
  });

  app.get('/api/settings/resources/:table/:id', async (request): Promise<SettingsResource> => {
    const table = tableOf(request.params);
    const id = idOf(request.params);
    const rows = await viaDataApi(
      app,
      request,
      'GET',
      `/api/db/${table}?select=${detailSelect(table)}&id=eq.${id}&deleted_at=is.null`,
    );
    if (rows.length === 0) throw new HttpError(404, `No ${table} row has id ${id}`, 'id');
    return settingsResourceSchema.parse(rows[0]);
  });

  app.patch('/api/settings/resources/:table/:id', async (request): Promise<SettingsResource> => {
    const table = tableOf(request.params);
    const id = idOf(request.params);
    const parsed = SETTINGS_RESOURCE_UPDATES[table].safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field =
        issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.map(String).join('.') || 'body';
      const message =
        issue.code === 'unrecognized_keys'
          ? `${field} cannot be changed here; editable: ${Object.keys(SETTINGS_RESOURCE_UPDATES[table].shape).join(', ')}`
          : `${field}: ${issue.message}`;
      throw new HttpError(400, message, field);
    }
    const changes = Object.fromEntries(
      Object.entries(parsed.data).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(changes).length === 0)
      throw new HttpError(400, 'Nothing to update: send at least one field', 'body');
    const rows = await viaDataApi(
      app,
      request,
      'PATCH',
      `/api/db/${table}?select=${detailSelect(table)}&id=eq.${id}&deleted_at=is.null`,
      changes,
    );
    if (rows.length === 0) throw new HttpError(404, `No ${table} row has id ${id}`, 'id');
    return settingsResourceSchema.parse(rows[0]);
  });
}
