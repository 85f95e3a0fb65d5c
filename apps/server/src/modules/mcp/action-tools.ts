import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { playbookParameterSchema, type PlaybookParameter } from '@opsdeck/contracts';
import { z } from 'zod';
import { evaluate, ExpressionError } from '../../expressions/index.js';
import { authorize, hasTokenScope, type AuthContext } from '../auth/index.js';
import { ToolError, type DataReader } from './data-reader.js';
import { defineTool, getConfigItem, id, type ToolDefinition } from './tools.js';

/**
 * The tools that act (issue 29): run a health check and run a playbook, one tool per playbook
 * the caller may run, with its parameters as the tool's input schema. They act through the
 * product's own HTTP routes (`POST /api/canary/run/check/{id}`, `POST /api/playbook/run`) as the
 * caller, so the health and playbooks modules decide exactly as for any other client: the
 * caller's roles and permissions, the token's scopes, parameter validation and approvals.
 */

/** What an acting tool gets: the caller's reads, and a call of one of the app's routes as the caller. */
export interface ActionContext {
  read: DataReader;
  auth: AuthContext;
  call(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown; raw: Buffer; contentType: string | undefined }>;
}

export interface ActionToolDefinition {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  /**
   * Runs a check or changes something elsewhere: clients ask before calling (MCP annotations).
   * False for a tool that only reads through a route (an artifact's content).
   */
  destructive: boolean;
  run(args: Record<string, unknown>, context: ActionContext): Promise<Record<string, unknown>>;
}

/** The message of a route's refusal (`{error}` or PostgREST's `{message}`). */
function refusal(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.error === 'string') return record.error;
    if (typeof record.message === 'string') return record.message;
  }
  return `refused with HTTP ${status}`;
}

const runHealthCheck: ActionToolDefinition = {
  name: 'run_health_check',
  title: 'Run a health check',
  description:
    'Runs one health check now (as Run Now does) and returns its result: total, success, failed and errors. ' +
    'The result is recorded in the check history and may change its status and open incidents. ' +
    'Needs a role that may run checks (viewers may not).',
  schema: z.strictObject({ id: id('health check') }),
  destructive: true,
  async run(args, { call }) {
    const checkId = String(args.id);
    const { status, body } = await call('POST', `/api/canary/run/check/${encodeURIComponent(checkId)}`);
    if (status === 404) throw new ToolError(`No health check has the id ${checkId}`);
    if (status >= 400) throw new ToolError(`Cannot run the health check: ${refusal(body, status)}`);
    return { check_id: checkId, ...(body as Record<string, unknown>) };
  },
};

/** The ecosystem's `get_playbook_run`: a run's status, timing and error, and its actions' statuses. */
export const getPlaybookRun: ToolDefinition = defineTool({
  name: 'get_playbook_run',
  title: 'Get a playbook run status',
  description:
    'The status of one playbook run (pending, scheduled, running, waiting, completed, failed, ...), its timing ' +
    'and error, and the status of each of its actions. Use it after running a playbook tool.',
  schema: z.strictObject({ run_id: id('playbook run') }),
  async run(args, read: DataReader) {
    const runs = await read('playbook_runs', [
      [
        'select',
        'id,playbook_id,status,error,config_id,component_id,check_id,scheduled_time,start_time,end_time,created_at,playbook:playbooks(id,name,namespace,title)',
      ],
      ['id', `eq.${args.run_id}`],
    ]);
    const run = runs.rows[0];
    if (!run) throw new ToolError(`No playbook run has the id ${args.run_id}`);
    const actions = await read('playbook_run_actions', [
      ['select', 'id,name,status,error,start_time,end_time'],
      ['playbook_run_id', `eq.${args.run_id}`],
      ['order', 'start_time.asc.nullslast,scheduled_time.asc'],
    ]);
    return { run, actions: actions.rows };
  },
});

/** Tool names allow letters, digits, `_` and `-`, at most 64 characters (the MCP SDK's rule). */
export function playbookToolName(namespace: string, name: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `playbook_${clean(namespace)}_${clean(name)}`.slice(0, 64);
}

function parameterSchema(parameter: PlaybookParameter): z.ZodType {
  const description = [parameter.label, parameter.description].filter(Boolean).join(': ') || parameter.name;
  const options = parameter.properties?.options?.map((option) => String(option.value)) ?? [];
  /** A missing required value is named as such; any other mismatch says what is expected. */
  const problem = (expected: string) => (issue: { input?: unknown }) =>
    issue.input === undefined ? `${parameter.name} is required` : `${parameter.name} must be ${expected}`;
  let schema: z.ZodType;
  if (parameter.type === 'checkbox') schema = z.boolean({ error: problem('true or false') });
  else if (parameter.type === 'list' && options.length > 0)
    schema = z.enum(options as [string, ...string[]], { error: problem(`one of ${options.join(', ')}`) });
  else schema = z.union([z.string(), z.number()], { error: problem('a string') });
  const optional = !parameter.required || parameter.default !== undefined;
  return (optional ? schema.optional() : schema).describe(description);
}

interface PlaybookRow {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  description: string | null;
  spec: Record<string, unknown> | null;
}

const resourceIdsOf = (spec: Record<string, unknown>) =>
  (['configs', 'components', 'checks'] as const).filter(
    (kind) => Array.isArray(spec[kind]) && (spec[kind] as unknown[]).length > 0,
  );

/** One tool for one playbook: its parameters (and the resource it runs on) as the input schema. */
export function playbookTool(playbook: PlaybookRow): ActionToolDefinition {
  const spec = playbook.spec ?? {};
  const parsed = z.array(playbookParameterSchema).safeParse(spec.parameters ?? []);
  const parameters = parsed.success ? parsed.data : [];
  const kinds = resourceIdsOf(spec);
  const resourceFields: Record<string, z.ZodType> = {};
  const idField = { configs: 'config_id', components: 'component_id', checks: 'check_id' } as const;
  for (const kind of kinds)
    resourceFields[idField[kind]] = id(kind.slice(0, -1).replace('config', 'catalog item'))
      .optional()
      .describe(
        `The ${kind.slice(0, -1)} to run on (UUID); give exactly one of ${kinds.map((k) => idField[k]).join(', ')}`,
      );
  const params: Record<string, z.ZodType> = {};
  for (const parameter of parameters) params[parameter.name] = parameterSchema(parameter);
  const title = playbook.title || playbook.name;
  return {
    name: playbookToolName(playbook.namespace, playbook.name),
    title: `Run playbook ${title}`,
    description:
      `Runs the playbook ${playbook.namespace}/${playbook.name}` +
      (playbook.description ? `: ${playbook.description}` : '') +
      `. Returns the run id and status; follow it with get_playbook_run.` +
      (kinds.length > 0
        ? ` It runs on a resource: give one of ${kinds.map((k) => idField[k]).join(', ')}.`
        : '') +
      ' Approval rules of the playbook apply.',
    schema: z.strictObject({
      ...resourceFields,
      ...(parameters.length > 0
        ? { params: z.strictObject(params).optional().describe('The playbook parameters') }
        : {}),
    }),
    destructive: true,
    async run(args, { call, read }) {
      const { params: values, ...target } = args as { params?: Record<string, unknown> } & Record<
        string,
        string
      >;
      const { status, body } = await call('POST', '/api/playbook/run', {
        id: playbook.id,
        ...target,
        params: values ?? {},
      });
      if (status >= 400) throw new ToolError(`Cannot run ${playbook.name}: ${refusal(body, status)}`);
      const runId = (body as { run_id: string }).run_id;
      const runs = await read<{ status: string }>('playbook_runs', [
        ['select', 'status'],
        ['id', `eq.${runId}`],
      ]);
      return {
        run_id: runId,
        starts_at: (body as { starts_at?: string }).starts_at,
        status: runs.rows[0]?.status ?? 'pending',
        playbook: { id: playbook.id, name: playbook.name, namespace: playbook.namespace },
      };
    },
  };
}

/**
 * The playbook tools of this caller: one per playbook they can read and run (write on
 * playbook_runs, a `playbook:run` permission on it, and a token scope that allows running).
 */
export async function playbookTools(read: DataReader, auth: AuthContext): Promise<ActionToolDefinition[]> {
  if (!hasTokenScope(auth, 'playbooks', 'playbook:run')) return [];
  const { rows } = await read<PlaybookRow>('playbooks', [
    ['select', 'id,name,namespace,title,description,spec'],
    ['deleted_at', 'is.null'],
    ['order', 'namespace.asc,name.asc'],
    ['limit', '200'],
  ]);
  const seen = new Set<string>();
  const tools: ActionToolDefinition[] = [];
  for (const row of rows) {
    const allowed = authorize(auth, 'playbook_runs', 'playbook:run', {
      object: 'playbooks',
      target: { playbook_id: row.id },
    }).allow;
    const tool = allowed ? playbookTool(row) : undefined;
    if (!tool || seen.has(tool.name)) continue;
    seen.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

/** Longer artifact contents are cut here (they would swamp the model's context). */
export const MAX_ARTIFACT_CHARS = 100_000;

const TEXT_TYPES = /^(text\/|application\/(json|yaml|x-yaml|xml|x-ndjson|javascript))/;

const getArtifact: ActionToolDefinition = {
  name: 'get_artifact',
  title: 'Read an artifact',
  description:
    'One artifact a playbook action or a check saved (list them with list_artifacts): its file name, type and ' +
    `size, and its content when it is text (the first ${MAX_ARTIFACT_CHARS.toLocaleString('en')} characters).`,
  schema: z.strictObject({ id: id('artifact') }),
  destructive: false,
  async run(args, { read, call }) {
    const artifactId = String(args.id);
    const { rows } = await read('artifacts', [
      [
        'select',
        'id,filename,path,content_type,size,playbook_run_id,playbook_run_action_id,check_id,created_at',
      ],
      ['id', `eq.${artifactId}`],
      ['deleted_at', 'is.null'],
    ]);
    const artifact = rows[0];
    if (!artifact) throw new ToolError(`No artifact has the id ${artifactId}`);
    const response = await call('GET', `/api/artifacts/download/${encodeURIComponent(artifactId)}`);
    if (response.status >= 400)
      throw new ToolError(`Cannot read the artifact: ${refusal(response.body, response.status)}`);
    const type = response.contentType ?? 'application/octet-stream';
    if (!TEXT_TYPES.test(type))
      return {
        artifact,
        content: null,
        note: `The content is ${type} (${response.raw.length} bytes), not text`,
      };
    const text = response.raw.toString('utf8');
    return text.length > MAX_ARTIFACT_CHARS
      ? { artifact, content: text.slice(0, MAX_ARTIFACT_CHARS), truncated: true }
      : { artifact, content: text, truncated: false };
  },
};

/** Artifacts of a playbook run or a check, newest first (metadata only). */
export const listArtifacts: ToolDefinition = defineTool({
  name: 'list_artifacts',
  title: 'List artifacts',
  description:
    'The artifacts (saved files) of a playbook run or of a health check, newest first; read one with get_artifact.',
  schema: z
    .strictObject({ run_id: id('playbook run').optional(), check_id: id('health check').optional() })
    .refine((value) => Boolean(value.run_id) !== Boolean(value.check_id), {
      message: 'give exactly one of run_id and check_id',
      path: ['run_id'],
    }),
  async run(args, read: DataReader) {
    const { rows } = await read('artifacts', [
      [
        'select',
        'id,filename,path,content_type,size,playbook_run_id,playbook_run_action_id,check_id,created_at',
      ],
      args.run_id ? ['playbook_run_id', `eq.${args.run_id}`] : ['check_id', `eq.${args.check_id}`],
      ['deleted_at', 'is.null'],
      ['order', 'created_at.desc'],
      ['limit', '200'],
    ]);
    return { artifacts: rows };
  },
});

/**
 * describe_catalog: the item in full and, as the ecosystem's server gives them, the tools of the
 * playbooks the caller may run on it (`available_tools`, from `GET /api/playbook/list` as the
 * caller: the playbook's config selectors, its run permission and the token's scopes decide).
 */
const describeCatalog: ActionToolDefinition = {
  name: 'describe_catalog',
  title: 'Describe a catalog item',
  description:
    'The full record of one catalog item (from search_catalog results): fields, scraped configuration, ' +
    'recent changes and open insights, and available_tools: the playbook tools you may run on it (call one ' +
    'with config_id=<id>).',
  schema: z.strictObject({ id: id('catalog item') }),
  destructive: false,
  async run(args, { read, call }) {
    const configId = String(args.id);
    const item = (await getConfigItem.run(
      { id: configId, include_config: true, changes: 10 },
      read,
    )) as Record<string, unknown>;
    const listed = await call('GET', `/api/playbook/list?config_id=${encodeURIComponent(configId)}`);
    // A caller who may not read or run playbooks has none to offer.
    const playbooks =
      listed.status === 200 && Array.isArray(listed.body)
        ? (listed.body as { name: string; namespace: string }[])
        : [];
    return {
      ...item,
      available_tools: playbooks.map((playbook) => playbookToolName(playbook.namespace, playbook.name)),
    };
  },
};

export const STATIC_ACTION_TOOLS: readonly ActionToolDefinition[] = [
  runHealthCheck,
  getArtifact,
  describeCatalog,
];

/** An acting tool as tools/list describes it: not read-only, destructive (clients confirm first). */
export function describeActionTool(tool: ActionToolDefinition): Tool {
  const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as Tool['inputSchema'];
  delete schema.$schema;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema,
    annotations: {
      title: tool.title,
      readOnlyHint: !tool.destructive,
      destructiveHint: tool.destructive,
      idempotentHint: false,
      openWorldHint: false,
    },
  };
}

const EXPRESSION_RESOURCES = {
  config_id: { relation: 'config_items', variable: 'config', noun: 'catalog item' },
  check_id: { relation: 'checks', variable: 'check', noun: 'health check' },
  component_id: { relation: 'components', variable: 'component', noun: 'component' },
} as const;

/**
 * Evaluates a CEL expression or a Go template as resource specs write them (`expr`, `template`),
 * over a catalog item, a check or a component the caller can read (`.config`, `.check`,
 * `.component`) and any extra variables. Nothing is written; the expression engines are the ones
 * checks, scrapers and playbooks use.
 */
export const evaluateTemplate: ToolDefinition = defineTool({
  name: 'evaluate_template',
  title: 'Evaluate a template or expression',
  description:
    'Evaluates a CEL expression (expr) or a Go template (template), as Canary, ScrapeConfig and Playbook specs ' +
    'write them, over one resource: config_id gives .config (the catalog item with its scraped config), ' +
    'check_id .check, component_id .component; variables adds more. Returns the value (CEL) or the text (template).',
  schema: z
    .strictObject({
      expr: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(10_000, 'must be at most 10000 characters')
        .optional()
        .describe('A CEL expression, e.g. config.type == "Kubernetes::Pod"'),
      template: z
        .string()
        .min(1, 'must not be empty')
        .max(10_000, 'must be at most 10000 characters')
        .optional()
        .describe('A Go template, e.g. {{ .config.name }}'),
      config_id: id('catalog item').optional(),
      check_id: id('health check').optional(),
      component_id: id('component').optional(),
      variables: z.record(z.string(), z.unknown()).optional().describe('More variables by name'),
    })
    .refine((value) => (value.expr === undefined) !== (value.template === undefined), {
      message: 'give exactly one of expr and template',
      path: ['expr'],
    }),
  async run(args, read: DataReader) {
    const variables: Record<string, unknown> = { ...(args.variables ?? {}) };
    for (const [field, resource] of Object.entries(EXPRESSION_RESOURCES)) {
      const resourceId = args[field as keyof typeof EXPRESSION_RESOURCES];
      if (!resourceId) continue;
      const { rows } = await read(resource.relation, [
        ['select', '*'],
        ['id', `eq.${resourceId}`],
      ]);
      if (!rows[0]) throw new ToolError(`No ${resource.noun} has the id ${resourceId}`);
      variables[resource.variable] = rows[0];
    }
    try {
      const result = await evaluate(args.expr ? { expr: args.expr } : { template: args.template }, variables);
      return { language: args.expr ? 'cel' : 'template', result };
    } catch (error) {
      if (error instanceof ExpressionError) throw new ToolError(error.message);
      throw error;
    }
  },
});
