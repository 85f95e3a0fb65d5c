/** kubectl against Opsdeck: the Kubernetes-shaped API and the kubeconfig download. */
export { kubeApiRoutes, KUBE_BODY_LIMIT, type KubeApiRoutesOptions } from './kube-routes.js';
export { kubeconfigDocument, kubeconfigRoutes } from './kubeconfig.js';
export { KUBERNETES_SOURCE, LAST_APPLIED_ANNOTATION } from './kube-objects.js';
export { kubeApiModule } from './module.js';
