/**
 * The OpenAPI v3 documents kubectl reads before it writes: they say, per kind, that the server
 * validates fields itself (`fieldValidation`) and supports server-side dry runs (`dryRun`), so
 * `kubectl apply` sends its objects for the server's validation (the same as every other way
 * in) instead of refusing them for want of a client-side schema.
 */
import { KUBE_API_PATH } from '@opsdeck/contracts';
import { OPSDECK_VERSION } from '../../platform/version.js';
import type { ResourceKind } from '../../resource-kinds/index.js';
import { groupOf } from './kube-objects.js';

/** `apis/canaries.flanksource.com/v1` or `api/v1`: the key of a group version in `/openapi/v3`. */
export function openApiPathOf(groupVersion: string): string {
  return groupOf(groupVersion).group ? `apis/${groupVersion}` : `api/${groupVersion}`;
}

/** `/openapi/v3`: one entry per group version, pointing at its document. */
export function openApiIndex(groupVersions: Iterable<string>) {
  return {
    paths: Object.fromEntries(
      [...groupVersions].map((groupVersion) => [
        openApiPathOf(groupVersion),
        { serverRelativeURL: `${KUBE_API_PATH}/openapi/v3/${openApiPathOf(groupVersion)}` },
      ]),
    ),
  };
}

const QUERY_PARAMETERS = ['fieldValidation', 'dryRun', 'fieldManager'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string' },
  uniqueItems: true,
}));

function schemaName(kind: ResourceKind): string {
  const { group, version } = groupOf(kind.apiVersions[0]);
  const reversed = group ? group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${reversed}.${version}.${kind.kind}`;
}

/** The document of one group version: each kind's item path with its operations and a schema. */
export function openApiDocument(groupVersion: string, kinds: readonly ResourceKind[]) {
  const { group, version } = groupOf(groupVersion);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const kind of kinds) {
    const gvk = { group, version, kind: kind.kind };
    const operation = (description: string) => ({
      description,
      parameters: QUERY_PARAMETERS,
      'x-kubernetes-group-version-kind': gvk,
      responses: {
        '200': {
          description: 'OK',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(kind)}` } } },
        },
      },
    });
    const prefix = group ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
    paths[`${prefix}/namespaces/{namespace}/${kind.plural}/{name}`] = {
      get: operation(`read the specified ${kind.kind}`),
      put: operation(`replace the specified ${kind.kind}`),
      patch: operation(`partially update the specified ${kind.kind}`),
      delete: operation(`delete a ${kind.kind}`),
    };
    paths[`${prefix}/namespaces/{namespace}/${kind.plural}`] = {
      get: operation(`list or watch objects of kind ${kind.kind}`),
      post: operation(`create a ${kind.kind}`),
    };
    schemas[schemaName(kind)] = {
      type: 'object',
      description: `${kind.kind}: validated by Opsdeck when written (GET /api/schemas for its JSON Schema).`,
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-group-version-kind': [gvk],
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Opsdeck', version: OPSDECK_VERSION },
    paths,
    components: { schemas },
  };
}
