import { z } from 'zod';
import { evaluateTemplate, getPlaybookRun, listArtifacts, playbookToolName } from './action-tools.js';
import { likeLiteral, ToolError } from './data-reader.js';
import {
  exactFilter,
  numberFilter,
  parseQuery,
  queryTime,
  textFilter,
  timeFilter,
  wordFilters,
} from './query-grammar.js';
import {
  CHECK_COLUMNS,
  CONFIG_COLUMNS,
  CORE_TOOLS,
  defineTool,
  id,
  limit,
  text,
  withStatus,
  type Params,
  type ToolDefinition,
} from './tools.js';

/**
 * Tools of the areas beyond the first six, named as the ecosystem's MCP server names them so
 * prompts written for it work: catalog types, changes, relations and insights; health check
 * search; connections (never their secrets); playbooks and their runs; notifications and what
 * was sent. All read through the data API with the caller's rights.
 */

const listCatalogTypes = defineTool({
  name: 'list_catalog_types',
  title: 'List catalog types',
  description: 'Lists every type of catalog item present (e.g. Kubernetes::Pod), to use with search_catalog.',
  schema: z.strictObject({}),
  async run(_args, read) {
    const { rows } = await read<{ type: string }>('config_types', [
      ['select', 'type'],
      ['order', 'type.asc'],
    ]);
    return { types: rows.map((row) => row.type).filter((type) => type !== null) };
  },
});

const CHANGE_COLUMNS = 'id,config_id,change_type,severity,source,summary,count,created_at,first_observed';

/** search_catalog_changes' query: the change's fields, and its item's through an inner embed. */
function changeQuery(query: string): { params: Params; limit?: number; byItem: boolean } {
  const parsed = parseQuery(query);
  const params: Params = wordFilters('summary', parsed.words);
  let byItem = false;
  for (const term of parsed.terms) {
    const { field } = term;
    const uuid = field === 'config_id' || field === 'id';
    if (uuid && !UUID.test(term.value)) throw new ToolError(`query: ${field} must be a UUID`);
    if (uuid) params.push(exactFilter(field, term));
    else if (['change_type', 'severity', 'summary', 'source'].includes(field))
      params.push(textFilter(field, term));
    else if (field === 'count') params.push(numberFilter('count', term));
    else if (['created_at', 'first_observed'].includes(field)) params.push(timeFilter(field, term));
    else if (['type', 'name', 'namespace', 'health', 'status'].includes(field)) {
      byItem = true;
      params.push(textFilter(`config.${field}`, term));
    } else
      throw new ToolError(
        `query: unknown field "${field}" (use config_id, change_type, severity, summary, source, count, ` +
          'created_at, first_observed, type, name, namespace, health, status, limit or agent=all)',
      );
  }
  return { params, limit: parsed.limit, byItem };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const searchCatalogChanges = defineTool({
  name: 'search_catalog_changes',
  title: 'Search catalog changes',
  description:
    'Changes of catalog items, newest first: of one item (config_id), or across the catalog by a query (the ' +
    "ecosystem's grammar), change type, severity and a start time (ISO date or date-time).",
  schema: z.strictObject({
    config_id: id('catalog item').optional(),
    change_type: text('Change type, e.g. diff, CREATE, Pulled (* is a wildcard)').optional(),
    severity: text('Severity, e.g. high').optional(),
    query: z
      .string({ error: 'query must be a string' })
      .max(1000, 'query must be at most 1000 characters')
      .optional()
      .describe(
        'Search query in the ecosystem grammar: field=value (or !=) terms over the change (config_id, change_type, ' +
          'severity, summary, source; count and created_at/first_observed compared with <, >, <=, >=, e.g. ' +
          'created_at>now-24h) and its item (type, name, namespace, health, status); * is a wildcard; bare words ' +
          'match part of the summary. E.g. "config_id=<uuid>" or "type=Kubernetes::* severity=high"',
      ),
    since: z
      .string({ error: 'since must be an ISO date or date-time' })
      .refine(
        (value) =>
          /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
          !Number.isNaN(Date.parse(value)),
        {
          message: 'since must be an ISO date or date-time, e.g. 2026-01-31 or 2026-01-31T00:00:00Z',
        },
      )
      .optional()
      .describe('Only changes created at or after this time'),
    limit: limit(30, 200),
  }),
  async run(args, read) {
    const query = changeQuery(args.query ?? '');
    const params: Params = [
      ['select', `${CHANGE_COLUMNS},config:config_items${query.byItem ? '!inner' : ''}(id,name,type)`],
      ['order', 'created_at.desc'],
      ['limit', String(Math.min(query.limit ?? args.limit, 200))],
      ...query.params,
    ];
    if (args.config_id) params.push(['config_id', `eq.${args.config_id}`]);
    if (args.change_type) params.push(['change_type', `ilike.${likeLiteral(args.change_type)}`]);
    if (args.severity) params.push(['severity', `ilike.${likeLiteral(args.severity)}`]);
    if (args.since) params.push(['created_at', `gte.${args.since}`]);
    const { rows, total } = await read('config_changes', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, changes: rows };
  },
});

interface RelationshipRow {
  config_id: string;
  related_id: string;
  relation: string | null;
}

const getRelatedConfigs = defineTool({
  name: 'get_related_configs',
  title: 'Get related catalog items',
  description:
    'The catalog items directly related to one item, each with the relation and its direction ' +
    '(outgoing: the item points at it, e.g. a Deployment to its ReplicaSet; incoming: it points at the item).',
  schema: z.strictObject({ id: id('catalog item'), limit: limit(100, 500) }),
  async run(args, read) {
    const relations = await read<RelationshipRow>('config_relationships', [
      ['select', 'config_id,related_id,relation'],
      ['or', `(config_id.eq.${args.id},related_id.eq.${args.id})`],
      ['limit', String(args.limit)],
    ]);
    const others = [
      ...new Set(relations.rows.map((row) => (row.config_id === args.id ? row.related_id : row.config_id))),
    ];
    if (others.length === 0) return { related: [] };
    const items = await read<{ id: string }>('configs', [
      ['select', CONFIG_COLUMNS],
      ['id', `in.(${others.join(',')})`],
    ]);
    const byId = new Map(items.rows.map((item) => [item.id, item]));
    return {
      related: relations.rows.flatMap((row) => {
        const outgoing = row.config_id === args.id;
        const item = byId.get(outgoing ? row.related_id : row.config_id);
        return item
          ? [{ ...item, relation: row.relation, direction: outgoing ? 'outgoing' : 'incoming' }]
          : [];
      }),
    };
  },
});

const listConfigInsights = defineTool({
  name: 'list_catalog_insights',
  title: 'List catalog insights',
  description:
    'Insights (analysis) of catalog items, newest first: security, cost, performance and other findings, open ' +
    'unless status says otherwise. Filter by item, analysis type, severity or status.',
  schema: z.strictObject({
    config_id: id('catalog item').optional(),
    analysis_type: text('Analysis type, e.g. security, cost').optional(),
    severity: text('Severity, e.g. critical, high').optional(),
    status: text('Status, e.g. open or closed').optional(),
    limit: limit(30, 200),
  }),
  async run(args, read) {
    const params: Params = [
      [
        'select',
        'id,config_id,analyzer,analysis_type,severity,status,summary,message,first_observed,last_observed,config:config_items(id,name,type)',
      ],
      ['order', 'first_observed.desc'],
      ['limit', String(args.limit)],
    ];
    if (args.config_id) params.push(['config_id', `eq.${args.config_id}`]);
    if (args.analysis_type) params.push(['analysis_type', `ilike.${likeLiteral(args.analysis_type)}`]);
    if (args.severity) params.push(['severity', `ilike.${likeLiteral(args.severity)}`]);
    if (args.status) params.push(['status', `ilike.${likeLiteral(args.status)}`]);
    else params.push(['or', '(status.is.null,status.neq.closed)']);
    const { rows, total } = await read('config_analysis', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, insights: rows };
  },
});

/** `name=api* status=unhealthy type=http namespace=x label.app=web`, or a bare word for the name. */
function healthCheckQuery(query: string): Params {
  const params: Params = [];
  for (const term of query.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z_.]+)(=|!=)(.+)$/i.exec(term);
    if (!match) {
      params.push(['name', `ilike.*${likeLiteral(term)}*`]);
      continue;
    }
    const [, field, operator, value] = match;
    const negate = operator === '!=';
    const pattern = likeLiteral(value);
    const label = /^labels?\.(.+)$/.exec(field);
    if (label) {
      params.push([`labels->>${label[1]}`, `${negate ? 'not.' : ''}ilike.${pattern}`]);
    } else if (['name', 'type', 'namespace', 'status', 'severity'].includes(field)) {
      if (field === 'status' && value === 'unknown')
        params.push(['status', negate ? 'not.is.null' : 'is.null']);
      else params.push([field, `${negate ? 'not.' : ''}ilike.${pattern}`]);
    } else if (field === 'canary_id' || field === 'id') {
      params.push([field, `${negate ? 'neq' : 'eq'}.${value}`]);
    } else {
      throw new ToolError(
        `query: unknown field "${field}" (use name, type, namespace, status, severity, id, canary_id or label.<key>)`,
      );
    }
  }
  return params;
}

const searchHealthChecks = defineTool({
  name: 'search_health_checks',
  title: 'Search health checks',
  description:
    'Searches health checks with a query of space-separated field=value (or field!=value) pairs: name, type, ' +
    'namespace, status (healthy, unhealthy, unknown), severity, id, canary_id and label.<key>; * is a wildcard and ' +
    'a bare word matches part of the name. Example: "status=unhealthy type=http label.team=payments".',
  schema: z.strictObject({ query: text('The search query'), limit: limit(30, 500) }),
  async run(args, read) {
    const params: Params = [
      ['select', CHECK_COLUMNS],
      ['deleted_at', 'is.null'],
      ['order', 'name.asc'],
      ['limit', String(args.limit)],
      ...healthCheckQuery(args.query),
    ];
    const { rows, total } = await read('checks', params, { count: true });
    return { total: total ?? rows.length, returned: rows.length, checks: rows.map(withStatus) };
  },
});

const listAllChecks = defineTool({
  name: 'list_all_checks',
  title: 'List all health checks',
  description: 'Every health check with its id, name, type and current status (up to 1000).',
  schema: z.strictObject({}),
  async run(_args, read) {
    const { rows, total } = await read(
      'checks',
      [
        ['select', 'id,name,type,status,namespace,canary_id,last_runtime'],
        ['deleted_at', 'is.null'],
        ['order', 'name.asc'],
        ['limit', '1000'],
      ],
      { count: true },
    );
    return { total: total ?? rows.length, returned: rows.length, checks: rows.map(withStatus) };
  },
});

const listConnections = defineTool({
  name: 'list_connections',
  title: 'List connections',
  description:
    'Connections (databases, HTTP endpoints, notification channels, ...) with id, name, namespace and type, ' +
    'to reference as connection://<namespace>/<name>. Credentials are never returned.',
  schema: z.strictObject({
    type: text('Connection type, e.g. postgres, slack').optional(),
    name: text('Part of the name').optional(),
    limit: limit(100, 500),
  }),
  async run(args, read) {
    const params: Params = [
      ['select', 'id,name,namespace,type,created_at,updated_at'],
      ['deleted_at', 'is.null'],
      ['order', 'namespace.asc,name.asc'],
      ['limit', String(args.limit)],
    ];
    if (args.type) params.push(['type', `ilike.${likeLiteral(args.type)}`]);
    if (args.name) params.push(['name', `ilike.*${likeLiteral(args.name)}*`]);
    const { rows } = await read<{ name: string; namespace: string }>('connections', params);
    return {
      connections: rows.map((row) => ({ ...row, reference: `connection://${row.namespace}/${row.name}` })),
    };
  },
});

const PLAYBOOK_COLUMNS = 'id,name,namespace,title,description,category:spec->>category,created_at,updated_at';

const listPlaybooks = defineTool({
  name: 'playbooks_list_all',
  title: 'List playbooks',
  description:
    'Every playbook with its id, name, namespace, title, category and description, and the tool that runs it ' +
    '(playbook_<namespace>_<name>, offered when you may run it).',
  schema: z.strictObject({}),
  async run(_args, read) {
    const { rows } = await read<{ name: string; namespace: string }>('playbooks', [
      ['select', PLAYBOOK_COLUMNS],
      ['deleted_at', 'is.null'],
      ['order', 'name.asc'],
      ['limit', '1000'],
    ]);
    return { playbooks: rows.map((row) => ({ ...row, tool: playbookToolName(row.namespace, row.name) })) };
  },
});

const RUN_COLUMNS =
  'id,playbook_id,status,error,config_id,component_id,check_id,parameters,scheduled_time,start_time,end_time,created_at,playbook:playbooks(id,name,title)';

function runTool(name: string, title: string, description: string, failedOnly: boolean): ToolDefinition {
  return defineTool({
    name,
    title,
    description,
    schema: z.strictObject({ playbook_id: id('playbook').optional(), limit: limit(20, 200) }),
    async run(args, read) {
      const params: Params = [
        ['select', RUN_COLUMNS],
        ['order', 'created_at.desc'],
        ['limit', String(args.limit)],
      ];
      if (args.playbook_id) params.push(['playbook_id', `eq.${args.playbook_id}`]);
      if (failedOnly) params.push(['status', 'eq.failed']);
      const { rows } = await read('playbook_runs', params);
      return { runs: rows };
    },
  });
}

const playbookRecentRuns = runTool(
  'playbook_recent_runs',
  'Recent playbook runs',
  'Recent playbook runs, newest first, with status, timing, parameters and error; optionally of one playbook.',
  false,
);

const playbookFailedRuns = runTool(
  'playbook_failed_runs',
  'Failed playbook runs',
  'Recent failed playbook runs, newest first, with their error; optionally of one playbook.',
  true,
);

const getPlaybookRunDetails = defineTool({
  name: 'get_playbook_run_details',
  title: 'Get a playbook run',
  description:
    'One playbook run with its actions in start order: each action’s status, timing, retries, error and ' +
    '(unless withResult is false) its result such as stdout and stderr.',
  schema: z.strictObject({
    run_id: id('playbook run'),
    withResult: z
      .boolean({ error: 'withResult must be true or false' })
      .default(true)
      .describe('Include each action’s result (default true)'),
  }),
  async run(args, read) {
    const runs = await read('playbook_runs', [
      ['select', RUN_COLUMNS],
      ['id', `eq.${args.run_id}`],
    ]);
    const run = runs.rows[0];
    if (!run) throw new ToolError(`No playbook run has the id ${args.run_id}`);
    const actions = await read('playbook_run_actions', [
      [
        'select',
        `id,name,status,error,retry_count,scheduled_time,start_time,end_time${args.withResult ? ',result' : ''}`,
      ],
      ['playbook_run_id', `eq.${args.run_id}`],
      ['order', 'start_time.asc.nullslast,scheduled_time.asc'],
    ]);
    return { run, actions: actions.rows };
  },
});

const listNotifications = defineTool({
  name: 'list_notifications',
  title: 'List notification rules',
  description: 'Notification rules with the events they send on, their title and recipients.',
  schema: z.strictObject({ limit: limit(100, 500) }),
  async run(args, read) {
    const { rows } = await read('notifications', [
      ['select', 'id,name,namespace,events,title,filter,source,created_at,updated_at'],
      ['deleted_at', 'is.null'],
      ['order', 'name.asc'],
      ['limit', String(args.limit)],
    ]);
    return { notifications: rows };
  },
});

/** A notification send status, as the ecosystem lists them. */
const SEND_COLUMNS =
  'id,status,source_event,resource_id,resource_type,error,count,first_observed,created_at,notification_id';

const getNotificationsForResource = defineTool({
  name: 'get_notifications_for_resource',
  title: 'Notifications sent about a resource',
  description:
    'What was sent (or silenced, or failed) about one resource (a check, catalog item or component), newest ' +
    'first, with the event, status, error and the rule that sent it. since/before take now-24h, now-7d or a date; ' +
    'get_notification_detail gives one in full (its body).',
  schema: z.strictObject({
    resource_id: id('resource'),
    limit: limit(30, 200),
    since: text('Only those sent at or after this time: now-24h, now-7d, 2026-01-31').optional(),
    before: text('Only those sent at or before this time: now-1h, 2026-01-31').optional(),
    status: text('Only this send status, e.g. sent, error, failed, silenced, repeat-interval').optional(),
    select: z
      .array(
        z.enum(SEND_COLUMNS.split(',') as [string, ...string[]], { error: `select takes ${SEND_COLUMNS}` }),
        {
          error: 'select must list column names',
        },
      )
      .min(1, 'select must list at least one column')
      .optional()
      .describe(`Columns to return (default ${SEND_COLUMNS}, with the rule)`),
  }),
  async run(args, read) {
    const params: Params = [
      ['select', args.select?.join(',') ?? `${SEND_COLUMNS},notification:notifications(id,name,namespace)`],
      ['resource_id', `eq.${args.resource_id}`],
      ['order', 'created_at.desc'],
      ['limit', String(args.limit)],
    ];
    if (args.since) params.push(['created_at', `gte.${queryTime('since', args.since)}`]);
    if (args.before) params.push(['created_at', `lte.${queryTime('before', args.before)}`]);
    if (args.status) params.push(['status', `ilike.${likeLiteral(args.status)}`]);
    const { rows } = await read('notification_send_history', params);
    return { sent: rows };
  },
});

const getNotificationDetail = defineTool({
  name: 'get_notification_detail',
  title: 'A notification that was sent',
  description:
    'One notification send (send_id from get_notifications_for_resource) in full: status, event, the body that ' +
    'was sent, its error, the resource, the rule and who it went to.',
  schema: z.strictObject({ send_id: id('notification send') }),
  async run(args, read) {
    const { rows } = await read('notification_send_history', [
      [
        'select',
        `${SEND_COLUMNS},body,duration_millis,parent_id,person_id,team_id,connection_id,playbook_run_id,` +
          'silenced_by,notification:notifications(id,name,namespace,title,events)',
      ],
      ['id', `eq.${args.send_id}`],
    ]);
    if (!rows[0]) throw new ToolError(`No notification send has the id ${args.send_id}`);
    return { notification: rows[0] };
  },
});

export const MCP_TOOLS: readonly ToolDefinition[] = [
  ...CORE_TOOLS,
  listCatalogTypes,
  searchCatalogChanges,
  getRelatedConfigs,
  listConfigInsights,
  searchHealthChecks,
  listAllChecks,
  listConnections,
  listPlaybooks,
  playbookRecentRuns,
  playbookFailedRuns,
  getPlaybookRunDetails,
  getPlaybookRun,
  listNotifications,
  getNotificationsForResource,
  getNotificationDetail,
  listArtifacts,
  evaluateTemplate,
];
