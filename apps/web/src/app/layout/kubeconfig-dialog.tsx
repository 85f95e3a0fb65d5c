import { KUBECONFIG_FILE_NAME, KUBECONFIG_PATH } from '@opsdeck/contracts';
import { Modal } from '../../components/modal/modal';

export const KUBECONFIG_COMMAND = `kubectl --kubeconfig ${KUBECONFIG_FILE_NAME} get canaries`;
export const KUBECONFIG_DOCS_URL =
  'https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/';

/**
 * Download kubeconfig (spec settings §2.8): step 1 downloads the file (a new token with the
 * person's rights, listed under their tokens), step 2 runs kubectl get canaries against it.
 */
export function KubeconfigDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const plainHttp = window.location.protocol === 'http:';
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
          <p className="mt-1 text-gray-500">
            It is saved as {KUBECONFIG_FILE_NAME} and holds a new API token, which you can revoke from your
            tokens.
          </p>
        </li>
        <li>
          <p className="font-medium text-gray-900">Step 2: Run a command against it</p>
          <pre className="mt-2 overflow-x-auto rounded-md bg-gray-900 p-3 text-xs text-gray-100">
            <code>{KUBECONFIG_COMMAND}</code>
          </pre>
        </li>
      </ol>
      {plainHttp && (
        <p role="note" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-800">
          kubectl sends credentials only over HTTPS. This page is served over HTTP: run Opsdeck with
          TLS_CERT_FILE and TLS_KEY_FILE, or behind a proxy that terminates TLS, before using kubectl.
        </p>
      )}
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
