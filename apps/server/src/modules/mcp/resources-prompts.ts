import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolError, type DataReader } from './data-reader.js';
import { getConfigItem } from './tools.js';
import { readViewRow } from './view-tools.js';

/**
 * MCP resources (`config_item://{id}`, `playbook://{idOrName}`, `connection://{namespace}/{name}`,
 * `view://{namespace}/{name}`)
 * and prompts, read with the caller's rights like the tools.
 */

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'config_item://{id}',
    name: 'Config Item',
    description: 'A catalog item with its scraped configuration, recent changes and open insights',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'playbook://{idOrName}',
    name: 'Playbook',
    description: 'A playbook: its spec, parameters and actions (by id, name or namespace/name)',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'connection://{namespace}/{name}',
    name: 'Connection',
    description: 'A connection without its credentials',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'view://{namespace}/{name}',
    name: 'View',
    description: 'A view: its title, columns, queries, panels and variables (its rows: the read_view tool)',
    mimeType: 'application/json',
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
}

/** Reads one resource; an unknown scheme or a missing resource is a ToolError with the reason. */
export async function readResource(uri: string, read: DataReader): Promise<ReadResourceResult> {
  const match = /^([a-z_]+):\/\/(.+)$/.exec(uri);
  if (!match) throw new ToolError(`Not a resource URI: ${uri}`);
  const [, scheme, rest] = match;
  const path = decodeURIComponent(rest);
  if (scheme === 'config_item') {
    if (!UUID.test(path)) throw new ToolError('config_item:// needs a catalog item id (UUID)');
    return json(uri, await getConfigItem.run({ id: path, include_config: true, changes: 10 }, read));
  }
  if (scheme === 'playbook') {
    const [namespace, name] = path.includes('/') ? path.split('/', 2) : [undefined, path];
    const params: [string, string][] = [
      ['select', 'id,name,namespace,title,description,spec,source,created_at,updated_at'],
      ['deleted_at', 'is.null'],
      UUID.test(path) ? ['id', `eq.${path}`] : ['name', `eq.${name}`],
    ];
    if (namespace) params.push(['namespace', `eq.${namespace}`]);
    const { rows } = await read('playbooks', params);
    if (rows.length === 0) throw new ToolError(`No playbook is ${path}`);
    return json(uri, rows[0]);
  }
  if (scheme === 'connection') {
    const [namespace, name] = path.split('/', 2);
    if (!namespace || !name) throw new ToolError('connection:// needs <namespace>/<name>');
    const { rows } = await read('connections', [
      ['select', 'id,name,namespace,type,created_at,updated_at'],
      ['deleted_at', 'is.null'],
      ['namespace', `eq.${namespace}`],
      ['name', `eq.${name}`],
    ]);
    if (rows.length === 0) throw new ToolError(`No connection is ${namespace}/${name}`);
    return json(uri, rows[0]);
  }
  if (scheme === 'view') {
    const [namespace, name] = path.split('/', 2);
    if (!namespace || !name) throw new ToolError('view:// needs <namespace>/<name>');
    return json(uri, await readViewRow(read, namespace, name));
  }
  throw new ToolError(`Unknown resource scheme ${scheme}:// (use config_item, playbook, connection or view)`);
}

/** What troubleshoot_kubernetes_resource searches for when no query is given (the ecosystem's). */
export const KUBERNETES_DEFAULT_QUERY = 'health!=healthy type=Kubernetes::* agent=all';

export const PROMPTS: Prompt[] = [
  {
    name: 'unhealthy_catalog_items',
    title: 'Unhealthy catalog items',
    description: 'Search for unhealthy catalog items',
  },
  {
    name: 'troubleshoot_resource',
    title: 'Troubleshoot a resource',
    description: 'Investigate why a catalog item or health check is unhealthy, step by step',
    arguments: [{ name: 'id', description: 'The catalog item or health check id', required: true }],
  },
  {
    name: 'troubleshoot_kubernetes_resource',
    title: 'Troubleshoot Kubernetes resources',
    description:
      'Find the Kubernetes resources that are not healthy and investigate each, evidence first (the ecosystem prompt)',
    arguments: [
      {
        name: 'query',
        description: `The search_catalog query of the items to troubleshoot (default: ${KUBERNETES_DEFAULT_QUERY})`,
        required: false,
      },
    ],
  },
  {
    name: 'failing_health_checks',
    title: 'Failing health checks',
    description: 'Summarise the failing health checks and what they have in common',
  },
];

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  const user = (text: string): GetPromptResult['messages'][number] => ({
    role: 'user',
    content: { type: 'text', text },
  });
  // The ecosystem names its prompts by title too ("Unhealthy catalog items"): both are accepted.
  const key = name.trim().toLowerCase().replace(/\s+/g, '_');
  switch (key) {
    case 'unhealthy_catalog_items':
      return {
        description: 'Search for unhealthy catalog items',
        messages: [
          user(
            'Query the catalog with the search_catalog tool for every item that is not healthy, with the query: ' +
              'health!=healthy agent=all. List the items by type and health, and for the five most important ones ' +
              'call describe_catalog and summarise what is wrong.',
          ),
        ],
      };
    case 'troubleshoot_kubernetes_resource': {
      const query = args?.query?.trim() || KUBERNETES_DEFAULT_QUERY;
      return {
        description: 'Troubleshoot Kubernetes resources',
        messages: [
          user(
            [
              'You are troubleshooting Kubernetes resources with the Opsdeck MCP tools. Work from evidence only: ' +
                'every conclusion must rest on data a tool returned, and say which tool returned it.',
              `1. Find: call search_catalog with the query: ${query}`,
              '2. Observe: for each item found, call describe_catalog with its id and state the problem it shows ' +
                '(health, status, the scraped configuration, open insights).',
              '3. Hypothesis: state one testable cause.',
              '4. Experiment: call search_catalog_changes with the query config_id=<id> for recent changes, ' +
                'get_related_configs for its owners and dependents, list_catalog_insights, and ' +
                'get_notifications_for_resource for what was already sent about it.',
              '5. Analyse what those answers show, and conclude whether they support the hypothesis; if not, ' +
                'return to step 3 with a new one.',
              '6. Recommend a specific fix. A playbook tool (playbook_<namespace>_<name>, see playbooks_list_all) ' +
                'may apply it: ask the user for explicit consent before calling any tool that changes something.',
            ].join('\n'),
          ),
        ],
      };
    }
    case 'troubleshoot_resource': {
      const id = args?.id?.trim();
      if (!id) throw new ToolError('troubleshoot_resource needs the argument id');
      return {
        description: 'Troubleshoot a resource',
        messages: [
          user(
            `Troubleshoot the resource ${id}. If it is a catalog item, call describe_catalog, then ` +
              'search_catalog_changes with its config_id, get_related_configs and list_catalog_insights, and look ' +
              'for the change or the related item that explains its health. If it is a health check, call ' +
              'get_check_status and read the recent errors. Check get_notifications_for_resource for what was ' +
              'already sent about it, and list_incidents for an open incident. End with the likely cause and the ' +
              'next step, and name a playbook from playbooks_list_all if one fits.',
          ),
        ],
      };
    }
    case 'failing_health_checks':
      return {
        description: 'Failing health checks',
        messages: [
          user(
            'Call search_health_checks with the query "status=unhealthy". Group the checks by type and namespace, ' +
              'call get_check_status for the first few to read their errors, and say what the failures have in common.',
          ),
        ],
      };
    default:
      throw new ToolError(
        `Unknown prompt: ${name}. Prompts: ${PROMPTS.map((prompt) => prompt.name).join(', ')}`,
      );
  }
}
