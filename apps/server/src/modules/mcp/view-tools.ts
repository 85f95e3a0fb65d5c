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
    columns?: {
      name: string;
      type: string;
      description?: string | null;
      filterable?: boolean | null;
      filter?: unknown;
    }[];
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
    'Every view you may read, with its namespace, name, title, columns and variables, and the tool that reads it ' +
    '(view_<name>_<namespace>); read one with that tool or read_view (the resource view://<namespace>/<name> is ' +
    'its definition).',
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
        tool: viewToolName(row.namespace, row.name),
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

/** What a view is read with, from read_view's or a view tool's arguments. */
interface ViewReadArgs {
  variables?: Record<string, string>;
  withRows: boolean;
  withPanels: boolean;
  select?: string[];
  filter?: Record<string, string>;
  page: number;
  limit: number;
}

/** Arguments of every view tool; a variable with one of these keys is set through `variables`. */
const RESERVED_VIEW_ARGUMENTS = new Set([
  'withrows',
  'withpanels',
  'select',
  'filter',
  'page',
  'limit',
  'variables',
]);

/**
 * A view's tool name as the ecosystem's MCP server makes it: `view_<name>_<namespace>`, lower
 * case, spaces in the name as `-`, any character outside `[a-zA-Z0-9_-]` as `-`, at most 64
 * characters (MCP clients refuse longer tool names).
 */
export function viewToolName(namespace: string, name: string): string {
  const tool = `view_${name.replaceAll(' ', '-')}_${namespace}`.toLowerCase();
  return tool.replace(/[^a-zA-Z0-9_-]/g, '-').slice(0, 64);
}

/** The view tools, bound to the pool the view runs with. */
export function createViewTools(options: { pool: Pool; logger?: Logger }): {
  /** list_all_views and read_view. */
  tools: ToolDefinition[];
  /** One view_<name>_<namespace> tool per view the caller reads (none when views are refused). */
  perView(read: DataReader): Promise<ToolDefinition[]>;
} {
  /** Runs the view and reads its rows (and panels) as the caller. */
  async function answerView(
    read: DataReader,
    view: ViewRow,
    args: ViewReadArgs,
  ): Promise<Record<string, unknown>> {
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
  }

  const readView = defineTool({
    name: 'read_view',
    title: 'Read a view',
    description:
      "Runs a view (from list_all_views) with its variables and reads its table's rows, newest first by its first " +
      'column: select columns, filter by column values, page through with page and limit (at most ' +
      `${VIEW_TOOL_MAX_LIMIT}). withPanels=true adds the panels.`,
    schema: readViewSchema,
    async run(args, read) {
      return answerView(read, await readViewRow(read, args.namespace, args.name), args);
    },
  });

  /** The tool of one view: its variables, columns and filters are the input schema. */
  function toolOfView(view: ViewRow): ToolDefinition {
    const columns = view.spec?.columns ?? [];
    const variables = view.spec?.templating ?? [];
    const columnNames = columns.map((column) => column.name);
    const columnList = columns.map((column) => `${column.name} (${column.type})`).join(', ');
    const shape: Record<string, z.ZodType> = {
      withRows: readViewSchema.shape.withRows,
      withPanels: readViewSchema.shape.withPanels,
      page: readViewSchema.shape.page,
      limit: readViewSchema.shape.limit,
    };
    if (columnNames.length > 0) {
      const [first, ...rest] = columnNames;
      const column = z.enum([first, ...rest], {
        error: `select must list columns of ${view.namespace}/${view.name}: ${columnNames.join(', ')}`,
      });
      shape.select = z
        .array(column, { error: 'select must list column names' })
        .max(100)
        .optional()
        .describe(`Only these columns (ask for the ones you need). Columns: ${columnList}`);
      shape.filter = z
        .strictObject(
          Object.fromEntries(
            columns.map((entry) => [
              entry.name,
              z
                .string({ error: `filter.${entry.name} must be a string` })
                .max(200, `filter.${entry.name} must be at most 200 characters`)
                .optional()
                .describe(
                  `Rows whose ${entry.name} (${entry.type}) equals this (* is a wildcard, case-insensitive then)` +
                    (entry.filterable || (entry.filter !== undefined && entry.filter !== null)
                      ? '; the view offers this column as a filter'
                      : '') +
                    (entry.description ? `. ${entry.description}` : ''),
                ),
            ]),
          ),
          { error: 'filter must map column names to values' },
        )
        .optional()
        .describe('Filter the rows by column values');
    }
    const reservedVariables: string[] = [];
    for (const variable of variables) {
      if (RESERVED_VIEW_ARGUMENTS.has(variable.key.toLowerCase())) {
        reservedVariables.push(variable.key);
        continue;
      }
      const values = variable.values ?? [];
      const base =
        values.length > 0
          ? z.enum(values as [string, ...string[]], {
              error: `${variable.key} must be one of ${values.join(', ')}`,
            })
          : z.string({ error: `${variable.key} must be a string` }).max(500);
      shape[variable.key] = base
        .optional()
        .describe(
          `${variable.label ?? variable.key} (a variable of the view${variable.default ? `, default ${variable.default}` : ''})`,
        );
    }
    if (reservedVariables.length > 0)
      shape.variables = z
        .record(z.string(), z.string({ error: 'each variable must be a string' }), {
          error: 'variables must map variable keys to values',
        })
        .optional()
        .describe(`Values of the view's variables ${reservedVariables.join(', ')}`);
    const title = view.title ?? view.name;
    return defineTool({
      name: viewToolName(view.namespace, view.name),
      title: `View ${title}`,
      description:
        `Runs the view ${title} [${view.namespace}/${view.name}] with your permissions and returns its rows ` +
        `(withRows, default true; newest first by its first column, ${VIEW_TOOL_DEFAULT_LIMIT} per page, at most ` +
        `${VIEW_TOOL_MAX_LIMIT}) and its panels (withPanels, default false).` +
        (view.spec?.description ? ` ${view.spec.description}.` : '') +
        (columnList ? ` Columns: ${columnList}; select only the ones you need.` : '') +
        (variables.length > 0 ? ` Variables: ${variables.map((variable) => variable.key).join(', ')}.` : ''),
      schema: z.strictObject(shape),
      async run(args: Record<string, unknown>, read) {
        const given: Record<string, string> = {
          ...((args.variables as Record<string, string> | undefined) ?? {}),
        };
        for (const variable of variables)
          if (typeof args[variable.key] === 'string' && !reservedVariables.includes(variable.key))
            given[variable.key] = args[variable.key] as string;
        const filter = Object.fromEntries(
          Object.entries((args.filter as Record<string, string | undefined> | undefined) ?? {}).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        );
        // Read afresh as the caller: the view may have been deleted or refused since tools/list.
        const current = await readViewRow(read, view.namespace, view.name);
        return answerView(read, current, {
          variables: given,
          withRows: args.withRows as boolean,
          withPanels: args.withPanels as boolean,
          select: args.select as string[] | undefined,
          filter,
          page: args.page as number,
          limit: args.limit as number,
        });
      },
    });
  }

  return {
    tools: [listAllViews, readView],
    async perView(read) {
      const { rows } = await read<ViewRow>('views', [
        ['select', 'id,name,namespace,title,spec'],
        ['deleted_at', 'is.null'],
        ['order', 'namespace.asc,name.asc'],
        ['limit', '1000'],
      ]);
      const seen = new Set<string>();
      const tools: ToolDefinition[] = [];
      for (const view of rows) {
        const tool = toolOfView(view);
        // Two views whose names differ only where the tool name cannot: the first keeps it.
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        tools.push(tool);
      }
      return tools;
    },
  };
}
