import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import clsx from 'clsx';
import { Copy, Eye, EyeOff, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button/button';
import { IconButton } from '../../../components/icon-button/icon-button';
import { Modal } from '../../../components/modal/modal';
import { copyToClipboard } from '../lib/clipboard';
import { mcpClientConfigs, mcpEndpoint } from '../lib/mcp-configs';
import { maskToken } from '../lib/scopes';

export const TOKEN_COPIED_MESSAGE = 'Token copied to clipboard';
export const COPIED_MESSAGE = 'Copied to clipboard';

export interface TokenCreatedDialogProps {
  /** The new token; the dialog is open while it is set. */
  token: string | null;
  onClose(): void;
  /** Shows the MCP client configurations. */
  mcp?: boolean;
  /** The backend base address; default the page's origin. */
  backendBase?: string;
}

/**
 * 'Token Created Successfully' (settings §2.8): the masked token with reveal and copy, shown
 * this once; for MCP setup also the client configurations in tabs.
 */
export function TokenCreatedDialog({ token, onClose, mcp = false, backendBase }: TokenCreatedDialogProps) {
  return (
    <Modal
      open={token !== null}
      onClose={onClose}
      title="Token Created Successfully"
      size={mcp ? 'large' : 'small'}
      enlargeable={mcp}
      // A stray click must not throw away a token that is never shown again.
      allowBackgroundClose={false}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {token !== null && (
        <TokenCreatedBody token={token} mcp={mcp} backendBase={backendBase ?? window.location.origin} />
      )}
    </Modal>
  );
}

function TokenCreatedBody({ token, mcp, backendBase }: { token: string; mcp: boolean; backendBase: string }) {
  const [revealed, setRevealed] = useState(false);
  const shown = revealed ? token : maskToken(token);
  const hide = (text: string) => (revealed ? text : text.split(token).join(maskToken(token)));

  return (
    <div className="flex flex-col gap-4 text-sm">
      <p className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-amber-800">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        Copy this token now. It is shown only once: it cannot be displayed again after you close this dialog.
      </p>
      <div className="flex items-center gap-2">
        <code
          aria-label="Token"
          className="min-w-0 flex-1 overflow-x-auto rounded-md border border-gray-200 bg-gray-50 px-3 py-2 font-mono text-xs whitespace-nowrap text-gray-900"
        >
          {shown}
        </code>
        <IconButton
          appearance="bordered"
          aria-label={revealed ? 'Hide token' : 'Show token'}
          aria-pressed={revealed}
          onClick={() => setRevealed((value) => !value)}
        >
          {revealed ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
        </IconButton>
        <IconButton
          appearance="bordered"
          aria-label="Copy token"
          onClick={() => void copyToClipboard(token, TOKEN_COPIED_MESSAGE)}
        >
          <Copy className="size-4" aria-hidden />
        </IconButton>
      </div>
      {mcp && <McpClientTabs token={token} backendBase={backendBase} hide={hide} />}
    </div>
  );
}

function McpClientTabs({
  token,
  backendBase,
  hide,
}: {
  token: string;
  backendBase: string;
  hide(text: string): string;
}) {
  const configs = mcpClientConfigs(backendBase, token);
  return (
    <section aria-label="MCP client configuration" className="flex flex-col gap-2">
      <p className="text-gray-700">
        MCP endpoint: <code className="font-mono text-xs">{mcpEndpoint(backendBase)}</code>. Configure your
        client:
      </p>
      <TabGroup>
        <TabList className="flex flex-wrap gap-1 border-b border-gray-200">
          {configs.map((config) => (
            <Tab
              key={config.client}
              className={({ selected }) =>
                clsx(
                  '-mb-px border-b-2 px-3 py-1.5 text-sm focus:outline-none',
                  selected
                    ? 'border-blue-600 font-medium text-blue-700'
                    : 'border-transparent text-gray-600 hover:text-gray-900',
                )
              }
            >
              {config.client}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="pt-3">
          {configs.map((config) => (
            <TabPanel key={config.client} className="flex flex-col gap-2">
              <p className="text-gray-600">{config.hint}</p>
              <div className="relative">
                <pre
                  aria-label={`${config.client} configuration`}
                  className="max-h-80 overflow-auto rounded-md bg-gray-900 p-3 pr-12 font-mono text-xs text-gray-100"
                >
                  <code>{hide(config.text)}</code>
                </pre>
                <button
                  type="button"
                  aria-label={`Copy ${config.client} configuration`}
                  onClick={() => void copyToClipboard(config.text, COPIED_MESSAGE)}
                  className="absolute top-2 right-2 rounded-md bg-gray-700 p-1.5 text-gray-100 hover:bg-gray-600"
                >
                  <Copy className="size-4" aria-hidden />
                </button>
              </div>
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
    </section>
  );
}
