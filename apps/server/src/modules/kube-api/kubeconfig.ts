/**
 * `GET /api/kubeconfig` (spec settings §2.8, API.md): a kubeconfig for the signed-in person whose
 * cluster is this server's Kubernetes-shaped API and whose user holds a token issued for it.
 */
import { KUBE_API_PATH, KUBECONFIG_CONTEXT, KUBECONFIG_FILE_NAME, KUBECONFIG_PATH } from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import type { Pool } from '../../platform/db/pool.js';
import { issueTokenForCaller } from '../auth/index.js';

/** The origin kubectl should call: the one the browser downloaded the file from. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The kubeconfig. `certificate` is the PEM chain Opsdeck serves itself (TLS_CERT_FILE): its first
 * certificate is trusted as the cluster's, so a self-signed one works without more setup.
 */
export function kubeconfigDocument(
  server: string,
  user: string,
  token: string,
  certificate?: string,
): string {
  const served = certificate?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/)?.[0];
  const cluster = served
    ? { server, 'certificate-authority-data': Buffer.from(`${served}\n`).toString('base64') }
    : { server };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: KUBECONFIG_CONTEXT, cluster }],
    users: [{ name: user, user: { token } }],
    contexts: [
      { name: KUBECONFIG_CONTEXT, context: { cluster: KUBECONFIG_CONTEXT, user, namespace: 'default' } },
    ],
    'current-context': KUBECONFIG_CONTEXT,
    preferences: {},
  });
}

export async function kubeconfigRoutes(
  app: FastifyInstance,
  options: { pool: Pool; tlsCertificate?: string },
): Promise<void> {
  app.get(KUBECONFIG_PATH, async (request, reply) => {
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const token = await issueTokenForCaller(options.pool, request, `kubeconfig ${stamp}`);
    const user = request.auth?.person.email ?? request.auth?.person.name ?? 'opsdeck';
    return reply
      .header('content-type', 'application/yaml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${KUBECONFIG_FILE_NAME}"`)
      .header('cache-control', 'no-store')
      .send(kubeconfigDocument(`${originOf(request)}${KUBE_API_PATH}`, user, token, options.tlsCertificate));
  });
}
