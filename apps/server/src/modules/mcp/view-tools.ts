import { z } from 'zod';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/logger.js';
import { runView } from '../views/index.js';
import { likeLiteral, ToolError, type DataReader } from './data-reader.js';
import { defineTool, limit, text, type Params, type ToolDefinition } from './tools.js';

/**
 * View tools (issue 29), named and shaped as the ecosystem's MCP server's: `list_all_views`, and
 * `read_view` with its `withRows`, `withPanels`, `select`, `page` and `limit` (plus the view's
 * variables and column filters). Every read goes through the data reader, so a caller who may not
 * read views (a role, a deny permission, `views.disable`) gets the refusal, never rows: the view
 * row is read first as the caller, then the view is run (materialised as for `POST /api/view/{id}`),
 * then its rows are read as the caller from `view_<namespace>_<name>`.
 */

/** Rows per page of read_view: the view page size by default, 500 at most (as the ecosystem's). */
export const VIEW_TOOL_DEFAULT_LIMIT = 50;
export const VIEW_TOOL_MAX_LIMIT = 500;

interface ViewRow {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  spec: {
    description?: string;
    columns?: { name: string; type: string; filterable?: boolean; filter?: unknown }[];
    templating?: { key: string; label?: string; values?: string[]; default?: string }[];
  } | null;
}

/** The view `namespace/name` as the caller reads it, or a ToolError saying why not. */
export async function readViewRow(read: DataReader, namespace: string, name: string): Promise<ViewRow> {
  const { rows } = await read<ViewRow>('views', [
    ['select', 'id,name,namespace,title,spec'],
    ['namespace', `eq.${namespace}`],
    ['name', `eq.${name}`],
    ['deleted_at', 'is.null'],
  ]);
  if (!rows[0]) throw new ToolError(`No view is ${namespace}/${name}`);
  return rows[0];
}

const listAllViews = defineTool({
  name: 'list_all_views',
  title: 'List views',
  description:
    'Every view you may read, with its namespace, name, title, columns and variables; read one with read_view ' +
    '(or the resource view://<namespace>/<name> for its definition).',
  schema: z.strictObject({}),
  async run(_args, read) {
    const { rows } = await read<ViewRow>('views', [
      ['select', 'id,name,namespace,title,spec'],
      ['deleted_at', 'is.null'],
      ['order', 'namespace.asc,name.asc'],
      ['limit', '1000'],
    ]);
    return {
      views: rows.map((row) => ({
        id: row.id,
        namespace: row.namespace,
        name: row.name,
        title: row.title,
        description: row.spec?.description ?? null,
        resource: `view://${row.namespace}/${row.name}`,
        columns: (row.spec?.columns ?? []).map((column) => ({
          name: column.name,
          type: column.type,
          filterable: column.filterable ?? (column.filter !== undefined && column.filter !== null),
        })),
        variables: (row.spec?.templating ?? []).map((variable) => ({
          key: variable.key,
          label: variable.label ?? variable.key,
          values: variable.values ?? [],
          default: variable.default ?? null,
        })),
      })),
    };
  },
});

const readViewSchema = z.strictObject({
  namespace: text('The view namespace'),
  name: text('The view name'),
  variables: z
    .record(z.string(), z.string({ error: 'each variable must be a string' }), {
      error: 'variables must map variable keys to values',
    })
    .optional()
    .describe("The view's variables (templating keys) and the values to run it with"),
  withRows: z
    .boolean({ error: 'withRows must be true or false' })
    .default(true)
    .describe('Include table rows (paginated). Default true'),
  withPanels: z
    .boolean({ error: 'withPanels must be true or false' })
    .default(false)
    .describe('Include the panels (charts, numbers) computed over the rows. Default false'),
  select: z
    .array(z.string({ error: 'select must list column names' }), { error: 'select must list column names' })
    .max(100)
    .optional()
    .describe('Only these columns (ask for the ones you need to keep the answer short)'),
  filter: z
    .record(z.string(), z.string({ error: 'each filter must be a string' }), {
      error: 'filter must map column names to values',
    })
    .optional()
    .describe('Rows whose column equals the value (* is a wildcard, case-insensitive then)'),
  page: z
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1)
    .describe('Page number (1-based)'),
  limit: limit(VIEW_TOOL_DEFAULT_LIMIT, VIEW_TOOL_MAX_LIMIT),
});

/** The view tools, bound to the pool the view runs with. */
export function createViewTools(options: { pool: Pool; logger?: Logger }): ToolDefinition[] {
  const readView = defineTool({
    name: 'read_view',
    title: 'Read a view',
    description:
      "Runs a view (from list_all_views) with its variables and reads its table's rows, newest first by its first " +
      'column: select columns, filter by column values, page through with page and limit (at most ' +
      `${VIEW_TOOL_MAX_LIMIT}). withPanels=true adds the panels.`,
    schema: readViewSchema,
    async run(args, read) {
      const view = await readViewRow(read, args.namespace, args.name);
      let result;
      try {
        result = await runView(options.pool, view.id, { variables: args.variables, logger: options.logger });
      } catch (error) {
        if (error instanceof HttpError && error.statusCode < 500) throw new ToolError(error.message);
        throw error;
      }
      const names = result.columns.map((column) => column.name);
      const unknown = [...(args.select ?? []), ...Object.keys(args.filter ?? {})].filter(
        (column) => !names.includes(column),
      );
      if (unknown.length > 0)
        throw new ToolError(
          `${view.namespace}/${view.name} has no column ${unknown.join(', ')} (columns: ${names.join(', ')})`,
        );
      const answer: Record<string, unknown> = {
        view: { id: view.id, namespace: view.namespace, name: view.name, title: view.title },
        columns: result.columns.map((column) => ({ name: column.name, type: column.type })),
        variables: result.variables.map((variable) => ({
          key: variable.key,
          value: variable.value ?? null,
          options: variable.options,
        })),
        lastRefreshedAt: result.lastRefreshedAt ?? null,
      };
      if (args.withRows) {
        const selected = args.select?.length ? args.select : names;
        const params: Params = [
          ['select', selected.join(',')],
          ['request_fingerprint', `eq.${result.requestFingerprint}`],
          ['order', `${names[0]}.desc.nullslast`],
          ['limit', String(args.limit)],
          ['offset', String((args.page - 1) * args.limit)],
        ];
        for (const [column, value] of Object.entries(args.filter ?? {}))
          params.push([column, value.includes('*') ? `ilike.${likeLiteral(value)}` : `eq.${value}`]);
        const { rows, total } = await read(result.table, params, { count: true });
        Object.assign(answer, { total: total ?? rows.length, page: args.page, limit: args.limit, rows });
      }
      if (args.withPanels) answer.panels = result.panels;
      return answer;
    },
  });
  return [listAllViews, readView];
}
