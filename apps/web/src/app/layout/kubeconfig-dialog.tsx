import { Modal } from '../../components/modal/modal';

export const KUBECONFIG_PATH = '/api/kubeconfig';
export const KUBECONFIG_FILE = 'opsdeck-kubeconfig.yaml';
export const KUBECONFIG_COMMAND = `kubectl --kubeconfig ${KUBECONFIG_FILE} get canaries`;
export const KUBECONFIG_DOCS_URL =
  'https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/';

/**
 * Download kubeconfig (settings §2.8): download the file, then list canaries with it. Not in the
 * user menu yet: the server does not serve /api/kubeconfig, and a menu entry must not lead to a
 * 404. Mount it from UserMenu when the endpoint lands.
 */
export function KubeconfigDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Modal open={open} onClose={onClose} title="Download kubeconfig" size="small" enlargeable={false}>
      <ol className="flex flex-col gap-4 text-sm text-gray-700">
        <li>
          <p className="font-medium text-gray-900">Step 1: Download the kubeconfig file</p>
          <a
            href={KUBECONFIG_PATH}
            target="_blank"
            rel="noreferrer"
            className="mt-2 inline-block rounded-md bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700"
          >
            Download
          </a>
          <p className="mt-1 text-gray-500">Save it as {KUBECONFIG_FILE}.</p>
        </li>
        <li>
          <p className="font-medium text-gray-900">Step 2: Run a command against it</p>
          <pre className="mt-2 overflow-x-auto rounded-md bg-gray-900 p-3 text-xs text-gray-100">
            <code>{KUBECONFIG_COMMAND}</code>
          </pre>
        </li>
      </ol>
      <a
        href={KUBECONFIG_DOCS_URL}
        target="_blank"
        rel="noreferrer"
        className="mt-4 inline-block text-sm text-blue-600 hover:underline"
      >
        Read the kubeconfig documentation
      </a>
    </Modal>
  );
}
