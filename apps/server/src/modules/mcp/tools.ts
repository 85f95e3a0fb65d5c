import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CHECK_STATUSES } from '@opsdeck/contracts';
import { z } from 'zod';
import { likeLiteral, ToolError, type DataReader } from './data-reader.js';
import {
  exactFilter,
  jsonKeyFilter,
  parseQuery,
  textFilter,
  timeFilter,
  wordFilters,
} from './query-grammar.js';

/**
 * The MCP tools: read-only questions about health checks, the catalog and incidents, answered
 * through the data API engine with the caller's rights.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const id = (what: string) =>
  z
    .string({ error: `${what} id is required` })
    .regex(UUID, `${what} id must be a UUID`)
    .describe(`The ${what} id (UUID)`);

export const limit = (fallback: number, max: number) =>
  z
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback)
    .describe(`How many rows to return (1-${max}, default ${fallback})`);

export const text = (description: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .describe(description);

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  schema: S;
  run(args: z.output<S>, read: DataReader): Promise<unknown>;
}

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

export type Params = [string, string][];

export const CHECK_COLUMNS =
  'id,name,type,status,description,namespace,severity,endpoint,labels,last_runtime,last_transition_time,canary_id';

const listHealthChecks = defineTool({
  name: 'list_health_checks',
  title: 'List health checks',
  description:
    'Lists health checks with their current status (healthy, unhealthy, or unknown when they have not run). ' +
    'Filter by status, by part of the name (case-insensitive, * is a wildcard) or by check type (http, tcp, ...).',
  schema: z.strictObject({
    status: z
      .enum([...CHECK_STATUSES, 'unknown'], {
        error: "status must be 'healthy', 'unhealthy' or 'unknown'",
      })
      .optional()
      .describe('Only checks in this status'),
    name: text('Part of the check name').optional(),
    type: text('Check type, e.g. http, tcp, dns').optional(),
    limit: limit(50, 200),
  }),
  async run(args, read) {
    const params: Params = [
      ['select', CHECK_COLUMNS],
      ['deleted_at', 'is.null'],
      ['order', 'name.asc'],
      ['limit', String(args.limit)],
    ];
    if (args.status === 'unknown') params.push(['status', 'is.null']);
    else if (args.status) params.push(['status', `eq.${args.status}`]);
    if (args.name) params.push(['name', `ilike.*${likeLiteral(args.name)}*`]);
    if (args.type) params.push(['type', `ilike.${likeLiteral(args.type)}`]);
    const { rows, total } = await read('checks', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, checks: rows.map(withStatus) };
  },
});

export function withStatus<T extends Record<string, unknown>>(check: T): T {
  return { ...check, status: check.status ?? 'unknown' };
}

interface StatusRow {
  time: string;
  status: boolean;
  duration: number | null;
  message: string | null;
  error: string | null;
}

const getCheckStatus = defineTool({
  name: 'get_check_status',
  title: 'Get a health check status',
  description:
    'Shows one health check: its current status, its canary, and its most recent results (time, pass/fail, ' +
    'duration in ms, message, error) with a pass/fail count over those results.',
  schema: z.strictObject({
    id: id('health check'),
    results: z
      .number({ error: 'results must be a number' })
      .int('results must be a whole number')
      .min(1, 'results must be at least 1')
      .max(100, 'results must be at most 100')
      .default(10)
      .describe('How many recent results to include (1-100, default 10)'),
    limit: z
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(100, 'limit must be at most 100')
      .optional()
      .describe("The same as results (the ecosystem's name for it)"),
  }),
  async run(args, read) {
    const checks = await read('checks', [
      ['select', `${CHECK_COLUMNS},next_runtime,silenced_at,deleted_at,canary:canaries(id,name,namespace)`],
      ['id', `eq.${args.id}`],
    ]);
    const check = checks.rows[0];
    if (!check) throw new ToolError(`No health check has the id ${args.id}`);
    const statuses = await read<StatusRow>('check_statuses', [
      ['select', 'time,status,duration,message,error'],
      ['check_id', `eq.${args.id}`],
      ['order', 'time.desc'],
      ['limit', String(args.limit ?? args.results)],
    ]);
    const passed = statuses.rows.filter((row) => row.status).length;
    return {
      check: withStatus(check),
      latest: statuses.rows[0] ?? null,
      recent: { count: statuses.rows.length, passed, failed: statuses.rows.length - passed },
      results: statuses.rows,
    };
  },
});

export const CONFIG_COLUMNS =
  'id,name,type,config_class,namespace,status,health,ready,labels,tags,created_at,updated_at,last_scraped_time';

/** search_catalog's query fields (the ecosystem's grammar) and what each matches. */
function catalogQuery(query: string): { params: Params; limit?: number } {
  const parsed = parseQuery(query);
  const params: Params = wordFilters('name', parsed.words);
  for (const term of parsed.terms) {
    const { field } = term;
    const keyed = /^(labels?|tags?)\.(.+)$/.exec(field);
    if (keyed) params.push(jsonKeyFilter(keyed[1].startsWith('label') ? 'labels' : 'tags', keyed[2], term));
    else if (['name', 'type', 'namespace', 'status', 'health', 'config_class'].includes(field))
      params.push(textFilter(field, term));
    else if (field === 'id' || field === 'external_id') params.push(exactFilter(field, term));
    else if (['created_at', 'updated_at', 'deleted_at'].includes(field)) params.push(timeFilter(field, term));
    else
      throw new ToolError(
        `query: unknown field "${field}" (use type, name, namespace, status, health, id, label.<key>, tag.<key>, ` +
          'created_at, updated_at, limit or agent=all)',
      );
  }
  return { params, limit: parsed.limit };
}

const columnList = z
  .array(
    z
      .string({ error: 'select must list column names' })
      .regex(/^[a-z_][a-z0-9_]*$/, 'select must list column names (letters, digits and _)'),
    { error: 'select must list column names' },
  )
  .min(1, 'select must list at least one column')
  .max(50);

const searchCatalog = defineTool({
  name: 'search_catalog',
  title: 'Search the catalog',
  description:
    'Searches catalog (configuration) items, not health checks. Either a query in the ecosystem grammar, ' +
    'space-separated field=value (or !=) terms: type (Kubernetes::Pod, Kubernetes::*), name, namespace, ' +
    'health (healthy, unhealthy, warning, unknown), status, id, label.<key>, tag.<key>, created_at/updated_at ' +
    'compared with <, >, <=, >= against a date or now-24h, limit=N, agent=all; * is a wildcard, a bare word ' +
    'matches part of the name; e.g. "type=Kubernetes::Pod health!=healthy" or "created_at>now-24h" (no ' +
    'parentheses, | or labelSelector expressions: use label.<key>=value). Or the ' +
    'arguments name (part, case-insensitive), type, health, status. Use select to return only the columns you ' +
    'need. Deleted items are left out; describe_catalog gives one item in full.',
  schema: z.strictObject({
    query: z
      .string({ error: 'query must be a string' })
      .max(1000, 'query must be at most 1000 characters')
      .optional()
      .describe('Search query, e.g. "type=Kubernetes::Deployment health=unhealthy name=api*"'),
    name: text('Part of the item name').optional(),
    type: text('Item type, e.g. Kubernetes::Pod or Kubernetes::*').optional(),
    health: text('Health, e.g. healthy, unhealthy, warning, unknown').optional(),
    status: text('Status, e.g. Running').optional(),
    select: columnList
      .optional()
      .describe(`Columns to return (default ${CONFIG_COLUMNS}); ask only for the ones you need`),
    limit: limit(50, 200),
  }),
  async run(args, read) {
    const query = args.query ? catalogQuery(args.query) : { params: [] as Params, limit: undefined };
    const params: Params = [
      ['select', args.select?.join(',') ?? CONFIG_COLUMNS],
      ['deleted_at', 'is.null'],
      ['order', 'name.asc'],
      ['limit', String(Math.min(query.limit ?? args.limit, 200))],
      ...query.params,
    ];
    if (args.name) params.push(['name', `ilike.*${likeLiteral(args.name)}*`]);
    if (args.type) params.push(['type', `ilike.${likeLiteral(args.type)}`]);
    if (args.health) params.push(['health', `ilike.${likeLiteral(args.health)}`]);
    if (args.status) params.push(['status', `ilike.${likeLiteral(args.status)}`]);
    const { rows, total } = await read('configs', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, items: rows };
  },
});

/** Bigger scraped documents are left out of the answer (they would swamp the model's context). */
export const MAX_CONFIG_CHARS = 100_000;

export const getConfigItem = defineTool({
  name: 'get_config_item',
  title: 'Get a catalog item',
  description:
    'Shows one catalog item: its fields, labels and tags, its scraped configuration document (optional), ' +
    'its most recent changes and its open insights (analysis).',
  schema: z.strictObject({
    id: id('catalog item'),
    include_config: z
      .boolean({ error: 'include_config must be true or false' })
      .default(true)
      .describe('Include the scraped configuration document (default true)'),
    changes: z
      .number({ error: 'changes must be a number' })
      .int('changes must be a whole number')
      .min(0, 'changes must be at least 0')
      .max(50, 'changes must be at most 50')
      .default(10)
      .describe('How many recent changes to include (0-50, default 10)'),
  }),
  async run(args, read) {
    const columns = `${CONFIG_COLUMNS},description,properties,parent_id,path,deleted_at,delete_reason${
      args.include_config ? ',config' : ''
    }`;
    const items = await read('config_items', [
      ['select', columns],
      ['id', `eq.${args.id}`],
    ]);
    const item = items.rows[0];
    if (!item) throw new ToolError(`No catalog item has the id ${args.id}`);
    if (args.include_config && item.config !== undefined && item.config !== null) {
      const size = JSON.stringify(item.config).length;
      if (size > MAX_CONFIG_CHARS) {
        item.config = null;
        item.config_omitted = `The configuration document has ${size} characters, more than ${MAX_CONFIG_CHARS}; it is left out`;
      }
    }
    const changes =
      args.changes === 0
        ? { rows: [] }
        : await read('config_changes', [
            ['select', 'id,change_type,severity,source,summary,count,created_at'],
            ['config_id', `eq.${args.id}`],
            ['order', 'created_at.desc'],
            ['limit', String(args.changes)],
          ]);
    const analysis = await read('config_analysis', [
      ['select', 'id,analyzer,analysis_type,severity,status,summary,message,first_observed,last_observed'],
      ['config_id', `eq.${args.id}`],
      ['or', '(status.is.null,status.neq.closed)'],
      ['order', 'first_observed.desc'],
      ['limit', '20'],
    ]);
    return { item, changes: changes.rows, insights: analysis.rows };
  },
});

const INCIDENT_COLUMNS =
  'id,title,type,severity,status,created_at,updated_at,acknowledged,resolved,closed,commander,creator,responders_count,hypotheses_count,comments_count';

const listIncidents = defineTool({
  name: 'list_incidents',
  title: 'List incidents',
  description:
    'Lists incidents, newest first, with severity, status, commander and counts. Filter by status ' +
    '(e.g. open, closed), severity (e.g. low, medium, high, critical) or part of the title.',
  schema: z.strictObject({
    status: text('Incident status, e.g. open').optional(),
    severity: text('Incident severity, e.g. high').optional(),
    title: text('Part of the title').optional(),
    limit: limit(20, 100),
  }),
  async run(args, read) {
    const params: Params = [
      ['select', INCIDENT_COLUMNS],
      ['order', 'created_at.desc'],
      ['limit', String(args.limit)],
    ];
    if (args.status) params.push(['status', `ilike.${likeLiteral(args.status)}`]);
    if (args.severity) params.push(['severity', `ilike.${likeLiteral(args.severity)}`]);
    if (args.title) params.push(['title', `ilike.*${likeLiteral(args.title)}*`]);
    const { rows, total } = await read('incident_summary', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, incidents: rows };
  },
});

const getIncident = defineTool({
  name: 'get_incident',
  title: 'Get an incident',
  description:
    'Shows one incident: its fields, people and durations, its hypotheses with their evidence, and its comments.',
  schema: z.strictObject({ id: id('incident') }),
  async run(args, read) {
    const incidents = await read('incident_summary', [
      ['select', '*'],
      ['id', `eq.${args.id}`],
    ]);
    const incident = incidents.rows[0];
    if (!incident) throw new ToolError(`No incident has the id ${args.id}`);
    const hypotheses = await read('hypotheses', [
      [
        'select',
        'id,parent_id,title,type,status,created_at,evidences(id,type,description,done,definition_of_done,config_id,component_id,check_id,created_at)',
      ],
      ['incident_id', `eq.${args.id}`],
      ['order', 'created_at.asc'],
    ]);
    const comments = await read('comments', [
      ['select', 'id,comment,hypothesis_id,created_at,author:people!comments_created_by_fkey(id,name)'],
      ['incident_id', `eq.${args.id}`],
      ['order', 'created_at.asc'],
      ['limit', '100'],
    ]);
    return { incident, hypotheses: hypotheses.rows, comments: comments.rows };
  },
});

/** The first six tools; `index` of this module lists them with the areas' tools (area-tools.ts). */
export const CORE_TOOLS: readonly ToolDefinition[] = [
  listHealthChecks,
  getCheckStatus,
  searchCatalog,
  getConfigItem,
  listIncidents,
  getIncident,
];

/** A tool as tools/list describes it (JSON Schema of its arguments, read-only hint). */
export function describeTool(tool: ToolDefinition): Tool {
  const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as Tool['inputSchema'];
  delete schema.$schema;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema,
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
  };
}
