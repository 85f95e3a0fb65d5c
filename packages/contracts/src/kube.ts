/**
 * The Kubernetes-shaped API (issue 29): where it is served, and the kubeconfig that points
 * kubectl at it (`GET /api/kubeconfig`, spec settings §2.8).
 */

/** kubectl's cluster `server`: this server's origin plus this path. */
export const KUBE_API_PATH = '/api/kubernetes';

/** The kubeconfig download of the user menu. */
export const KUBECONFIG_PATH = '/api/kubeconfig';

/** The file name the download is saved as, used by the dialog's kubectl command. */
export const KUBECONFIG_FILE_NAME = 'opsdeck-kubeconfig.yaml';

/** The context, cluster and user name inside the kubeconfig. */
export const KUBECONFIG_CONTEXT = 'opsdeck';
