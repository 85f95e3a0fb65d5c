import type { ServerModule } from '../../server-module.js';
import { kubeApiRoutes } from './kube-routes.js';
import { kubeconfigRoutes } from './kubeconfig.js';

/**
 * kubectl against Opsdeck (issue 29): the Kubernetes-shaped API over every registered kind and
 * the kubeconfig download. It owns no tables: resources are read and written through the
 * resources module's store, with the permissions of the kind's table.
 */
export const kubeApiModule: ServerModule = {
  name: 'kube-api',
  async routes(app, { pool, logger, secrets, config }) {
    await app.register(kubeApiRoutes, { pool, logger, secrets });
    await app.register(kubeconfigRoutes, { pool, tlsCertificate: config.tls?.cert });
  },
};
