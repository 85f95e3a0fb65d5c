/**
 * The subset of the Kubernetes API that kubectl needs for Opsdeck's own kinds (issue 29):
 * discovery, and per kind list, get, create, replace, patch (merge, strategic merge treated as
 * merge, JSON patch, server-side apply) and delete, with resourceVersion conflicts, label and
 * field selectors, server-side dry runs and Table output. Permissions are those of every other
 * way in: the kind's table decides the resource of the role matrix.
 */
import { KUBE_API_PATH, resourceForRelation, type RequestedAction, type Resource } from '@opsdeck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseYaml } from 'yaml';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import { OPSDECK_VERSION } from '../../platform/version.js';
import type { ResourceKind, SecretBox } from '../../resource-kinds/index.js';
import { authorizeRequest } from '../auth/index.js';
import { resourceKinds } from '../resources/index.js';
import { jsonPatch, mergePatch, PatchError, type Json } from './json-patch.js';
import {
  groupOf,
  invalid,
  KubeStatusError,
  KUBERNETES_SOURCE,
  kubeList,
  kubeObject,
  kubeTable,
  notFound,
  qualifiedResource,
  successStatus,
  wantsTable,
  type KubeRow,
} from './kube-objects.js';
import { loadStatuses } from './kube-status.js';
import {
  namespacesInUse,
  readRows,
  refuseFileOwned,
  removeObject,
  storeObject,
  validObject,
} from './kube-store.js';
import { LabelSelectorError, matchesLabels, parseLabelSelector } from './label-selector.js';
import { openApiDocument, openApiIndex } from './openapi.js';

export interface KubeApiRoutesOptions {
  pool: Pool;
  logger?: Logger;
  /** Seals secret values of what is applied (Secrets, connections). */
  secrets?: SecretBox;
}

/** Kubernetes' own limit for an object is about 1.5 MiB; a little more for the JSON around it. */
export const KUBE_BODY_LIMIT = 3 * 1024 * 1024;

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update'];

const PATCH_TYPES = [
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/json-patch+json',
  'application/apply-patch+yaml',
] as const;

/** Secrets and ConfigMaps hold credentials: the connections resource guards them (as /api/resources). */
function matrixResource(kind: ResourceKind, action: 'read' | 'write'): Resource {
  if (kind.table === 'secrets' || kind.table === 'config_maps') return 'connections';
  return resourceForRelation(kind.table, action);
}

function groupVersions(): Map<string, ResourceKind[]> {
  const byGroupVersion = new Map<string, ResourceKind[]>();
  for (const kind of resourceKinds()) {
    const apiVersion = kind.apiVersions[0];
    byGroupVersion.set(apiVersion, [...(byGroupVersion.get(apiVersion) ?? []), kind]);
  }
  return byGroupVersion;
}

function resourceList(groupVersion: string, kinds: readonly ResourceKind[]) {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: kinds.map((kind) => ({
      name: kind.plural,
      singularName: kind.kind.toLowerCase(),
      namespaced: true,
      kind: kind.kind,
      verbs: VERBS,
      ...(kind.kind === 'ConfigMap' ? { shortNames: ['cm'] } : {}),
      categories: groupOf(groupVersion).group ? ['opsdeck'] : [],
    })),
  };
}

const NO_SUCH_RESOURCE = () =>
  new KubeStatusError(404, 'NotFound', 'the server could not find the requested resource');

function kindAt(groupVersion: string, plural: string): ResourceKind {
  const kind = groupVersions()
    .get(groupVersion)
    ?.find((candidate) => candidate.plural === plural);
  if (!kind) throw NO_SUCH_RESOURCE();
  return kind;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Params {
  group?: string;
  version?: string;
  namespace?: string;
  plural: string;
  name?: string;
}

interface Query {
  labelSelector?: string;
  fieldSelector?: string;
  dryRun?: string;
  watch?: string;
}

function paramsOf(request: FastifyRequest): { kind: ResourceKind; namespace?: string; name?: string } {
  const params = request.params as Params;
  const groupVersion = params.group ? `${params.group}/${params.version}` : (params.version ?? 'v1');
  return { kind: kindAt(groupVersion, params.plural), namespace: params.namespace, name: params.name };
}

/** `metadata.name=x,metadata.namespace!=y`: the two fields kubectl filters on. */
function fieldFilter(selector: string | undefined): (row: KubeRow) => boolean {
  if (!selector) return () => true;
  const tests = selector
    .split(',')
    .filter((term) => term.trim() !== '')
    .map((term) => {
      const match = /^\s*(metadata\.name|metadata\.namespace)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
      if (!match)
        throw new KubeStatusError(
          400,
          'BadRequest',
          `field label not supported: "${term.trim()}" (only metadata.name and metadata.namespace)`,
        );
      const field = match[1] === 'metadata.name' ? 'name' : 'namespace';
      const negate = match[2] === '!=';
      return (row: KubeRow) => (row[field] === match[3]) !== negate;
    });
  return (row) => tests.every((test) => test(row));
}

export async function kubeApiRoutes(app: FastifyInstance, options: KubeApiRoutesOptions): Promise<void> {
  const { pool, secrets, logger } = options;
  const base = KUBE_API_PATH;

  app.addContentTypeParser(
    [...PATCH_TYPES, 'application/yaml'],
    { parseAs: 'string', bodyLimit: KUBE_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  async function authorize(
    request: FastifyRequest,
    kind: ResourceKind,
    action: RequestedAction,
  ): Promise<void> {
    const matrix = action === 'read' ? 'read' : 'write';
    const decision = await authorizeRequest(pool, request, matrixResource(kind, matrix), action);
    if (!decision.allow)
      throw new KubeStatusError(
        decision.status,
        decision.status === 401 ? 'Unauthorized' : 'Forbidden',
        decision.status === 401
          ? 'Unauthorized'
          : `${qualifiedResource(kind)} is forbidden: ${decision.message}`,
        { kind: kind.plural },
      );
  }

  /** Runs a handler; a KubeStatusError (or a bad patch) becomes a Kubernetes Status answer. */
  function handle(handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const body = await handler(request, reply);
        return reply.type('application/json').send(body);
      } catch (error) {
        const status =
          error instanceof KubeStatusError
            ? error
            : error instanceof PatchError
              ? new KubeStatusError(422, 'Invalid', `the patch could not be applied: ${error.message}`)
              : error instanceof LabelSelectorError
                ? new KubeStatusError(400, 'BadRequest', error.message)
                : undefined;
        if (!status) throw error;
        if (status.code >= 500) logger?.error({ err: error }, 'Kubernetes API request failed');
        return reply.status(status.code).type('application/json').send(status.toStatus());
      }
    };
  }

  async function current(kind: ResourceKind, namespace: string, name: string): Promise<KubeRow> {
    const [row] = await readRows(pool, kind, { namespace, name });
    if (!row) throw notFound(kind, name);
    return row;
  }

  /** Validates, refuses a changed identity or a stale resourceVersion, then stores (unless a dry run). */
  async function write(
    request: FastifyRequest,
    kind: ResourceKind,
    target: { namespace: string; name: string },
    object: Json,
    existing: KubeRow | undefined,
  ) {
    if (!isObject(object))
      throw new KubeStatusError(400, 'BadRequest', 'the body must be a JSON or YAML object');
    const metadata = isObject(object.metadata) ? object.metadata : {};
    const namespace =
      typeof metadata.namespace === 'string' && metadata.namespace ? metadata.namespace : target.namespace;
    if (namespace !== target.namespace)
      throw new KubeStatusError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (metadata.name !== target.name)
      throw invalid(kind, target.name, [
        {
          field: 'metadata.name',
          message: `must be "${target.name}", the name in the request path`,
          reason: 'FieldValueInvalid',
        },
      ]);
    const version = metadata.resourceVersion;
    if (existing && typeof version === 'string' && version !== '' && version !== existing.resource_version)
      throw new KubeStatusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${target.name}": the object has been modified; please apply your changes to the latest version and try again`,
        { name: target.name, kind: kind.plural },
      );
    if (existing) refuseFileOwned(kind, existing);
    const resource = validObject(kind, { ...object, metadata: { ...metadata, namespace } }, target.name);
    if (kind.kind === 'Secret' && existing && object.data === undefined && object.stringData === undefined)
      throw invalid(kind, target.name, [
        {
          field: 'data',
          message: "a Secret's values are not served by this API, so a change must send data or stringData",
          reason: 'FieldValueRequired',
        },
      ]);
    const query = request.query as Query;
    if (query.dryRun) {
      const preview: KubeRow = existing ?? {
        id: '',
        name: target.name,
        namespace,
        labels: {},
        spec: {},
        source: KUBERNETES_SOURCE,
        created_at: new Date(),
        resource_version: '0',
      };
      return kubeObject(kind, {
        ...preview,
        labels: resource.labels,
        spec: resource.spec as Record<string, Json>,
      });
    }
    await storeObject(pool, resource, { source: existing?.source ?? KUBERNETES_SOURCE, secrets });
    logger?.info(
      { resource: `${kind.kind.toLowerCase()}/${namespace}/${target.name}` },
      `resource ${existing ? 'updated' : 'created'} through the Kubernetes API`,
    );
    return kubeObject(kind, await current(kind, namespace, target.name));
  }

  // Discovery.
  app.get(`${base}/version`, async () => ({
    major: '1',
    minor: '30',
    gitVersion: `v1.30.0+opsdeck-${OPSDECK_VERSION}`,
    platform: `${process.platform}/${process.arch}`,
  }));
  app.get(
    `${base}/api`,
    handle(async (request) => ({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: request.host }],
    })),
  );
  app.get(
    `${base}/api/v1`,
    handle(async () => {
      const list = resourceList('v1', groupVersions().get('v1') ?? []);
      return {
        ...list,
        resources: [
          ...list.resources,
          {
            name: 'namespaces',
            singularName: 'namespace',
            namespaced: false,
            kind: 'Namespace',
            verbs: ['get', 'list'],
            shortNames: ['ns'],
          },
        ],
      };
    }),
  );
  // Namespaces are implicit in Opsdeck: any name is one (kubectl apply asks before it creates).
  const namespaceObject = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
    status: { phase: 'Active' },
  });
  app.get(
    `${base}/api/v1/namespaces`,
    handle(async () => {
      const names = new Set(['default', ...(await namespacesInUse(pool, resourceKinds()))]);
      return {
        apiVersion: 'v1',
        kind: 'NamespaceList',
        metadata: {},
        items: [...names].sort().map(namespaceObject),
      };
    }),
  );
  app.get(
    `${base}/api/v1/namespaces/:name`,
    handle(async (request) => namespaceObject((request.params as { name: string }).name)),
  );
  app.get(
    `${base}/apis`,
    handle(async () => {
      const groups = new Map<string, string[]>();
      for (const groupVersion of groupVersions().keys()) {
        const { group, version } = groupOf(groupVersion);
        if (group) groups.set(group, [...(groups.get(group) ?? []), version]);
      }
      return {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [...groups].map(([name, versions]) => ({
          name,
          versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
          preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
        })),
      };
    }),
  );
  app.get(
    `${base}/apis/:group/:version`,
    handle(async (request) => {
      const { group, version } = request.params as { group: string; version: string };
      const kinds = groupVersions().get(`${group}/${version}`);
      if (!kinds) throw NO_SUCH_RESOURCE();
      return resourceList(`${group}/${version}`, kinds);
    }),
  );

  app.get(
    `${base}/openapi/v3`,
    handle(async () => openApiIndex(groupVersions().keys())),
  );
  const openApiGroupVersion = handle(async (request) => {
    const { group, version } = request.params as { group?: string; version: string };
    const groupVersion = group ? `${group}/${version}` : version;
    const kinds = groupVersions().get(groupVersion);
    if (!kinds) throw NO_SUCH_RESOURCE();
    return openApiDocument(groupVersion, kinds);
  });
  app.get(`${base}/openapi/v3/apis/:group/:version`, openApiGroupVersion);
  app.get(`${base}/openapi/v3/api/:version`, openApiGroupVersion);

  const collections = [
    `${base}/api/:version/:plural`,
    `${base}/api/:version/namespaces/:namespace/:plural`,
    `${base}/apis/:group/:version/:plural`,
    `${base}/apis/:group/:version/namespaces/:namespace/:plural`,
  ];
  const items = [
    `${base}/api/:version/namespaces/:namespace/:plural/:name`,
    `${base}/apis/:group/:version/namespaces/:namespace/:plural/:name`,
  ];

  const list = handle(async (request) => {
    const { kind, namespace } = paramsOf(request);
    const query = request.query as Query;
    if (query.watch === 'true' || query.watch === '1')
      throw new KubeStatusError(
        405,
        'MethodNotAllowed',
        'watch is not supported by Opsdeck: list again instead',
      );
    await authorize(request, kind, 'read');
    const labels = parseLabelSelector(query.labelSelector ?? '');
    const fields = fieldFilter(query.fieldSelector);
    const rows = (await readRows(pool, kind, { namespace })).filter(
      (row) => matchesLabels(labels, row.labels) && fields(row),
    );
    const statuses = await loadStatuses(pool, kind, rows);
    return wantsTable(request.headers.accept)
      ? kubeTable(kind, rows, statuses)
      : kubeList(kind, rows, statuses);
  });

  const create = handle(async (request, reply) => {
    const { kind, namespace } = paramsOf(request);
    if (!namespace)
      throw new KubeStatusError(
        400,
        'BadRequest',
        `${kind.kind} resources are namespaced: create them under /namespaces/{namespace}`,
      );
    await authorize(request, kind, 'create');
    const body = request.body as Json;
    const name = isObject(body) && isObject(body.metadata) ? body.metadata.name : undefined;
    if (typeof name !== 'string' || name === '')
      throw invalid(kind, '', [
        { field: 'metadata.name', message: 'name is required', reason: 'FieldValueRequired' },
      ]);
    const [existing] = await readRows(pool, kind, { namespace, name });
    if (existing)
      throw new KubeStatusError(409, 'AlreadyExists', `${qualifiedResource(kind)} "${name}" already exists`, {
        name,
        kind: kind.plural,
      });
    const created = await write(request, kind, { namespace, name }, body, undefined);
    reply.status(201);
    return created;
  });

  const get = handle(async (request) => {
    const { kind, namespace, name } = paramsOf(request);
    await authorize(request, kind, 'read');
    const row = await current(kind, namespace as string, name as string);
    const statuses = await loadStatuses(pool, kind, [row]);
    return wantsTable(request.headers.accept)
      ? kubeTable(kind, [row], statuses)
      : kubeObject(kind, row, statuses?.get(row.id));
  });

  const replace = handle(async (request) => {
    const { kind, namespace, name } = paramsOf(request);
    await authorize(request, kind, 'update');
    const existing = await current(kind, namespace as string, name as string);
    return write(
      request,
      kind,
      { namespace: namespace as string, name: name as string },
      request.body as Json,
      existing,
    );
  });

  const patch = handle(async (request, reply) => {
    const { kind, namespace, name } = paramsOf(request);
    const target = { namespace: namespace as string, name: name as string };
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim();
    const text = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
    let patchBody: Json;
    try {
      patchBody = (type === 'application/apply-patch+yaml' ? parseYaml(text) : JSON.parse(text)) as Json;
    } catch (error) {
      throw new KubeStatusError(
        400,
        'BadRequest',
        `the patch body is not valid ${type.endsWith('yaml') ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
      );
    }
    const [existing] = await readRows(pool, kind, target);
    if (type === 'application/apply-patch+yaml') {
      // Server-side apply: the body is the whole wanted object; it creates what is missing.
      await authorize(request, kind, existing ? 'update' : 'create');
      const wanted = existing ? mergePatch(kubeObject(kind, existing), patchBody) : patchBody;
      const result = await write(request, kind, target, wanted, existing);
      if (!existing) reply.status(201);
      return result;
    }
    await authorize(request, kind, 'update');
    if (!existing) throw notFound(kind, target.name);
    const base = kubeObject(kind, existing);
    const patched =
      type === 'application/json-patch+json'
        ? jsonPatch(base, patchBody)
        : type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json'
          ? mergePatch(base, patchBody)
          : undefined;
    if (patched === undefined)
      throw new KubeStatusError(
        415,
        'UnsupportedMediaType',
        `the patch type "${type}" is not supported: use ${PATCH_TYPES.join(', ')}`,
      );
    // A stale resourceVersion in a patch is a conflict; none (the usual case) patches the latest.
    return write(request, kind, target, patched, existing);
  });

  const remove = handle(async (request) => {
    const { kind, namespace, name } = paramsOf(request);
    await authorize(request, kind, 'delete');
    const existing = await current(kind, namespace as string, name as string);
    refuseFileOwned(kind, existing);
    if (!(request.query as Query).dryRun) {
      await removeObject(pool, kind, existing.namespace, existing.name);
      logger?.info(
        { resource: `${kind.kind.toLowerCase()}/${existing.namespace}/${existing.name}` },
        'resource deleted through the Kubernetes API',
      );
    }
    return successStatus(kind, existing.name, existing.id);
  });

  for (const path of collections) {
    app.get(path, list);
    app.post(path, { bodyLimit: KUBE_BODY_LIMIT }, create);
  }
  for (const path of items) {
    app.get(path, get);
    app.put(path, { bodyLimit: KUBE_BODY_LIMIT }, replace);
    app.patch(path, { bodyLimit: KUBE_BODY_LIMIT }, patch);
    app.delete(path, remove);
  }
}
