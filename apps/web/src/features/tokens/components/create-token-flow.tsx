import { useState } from 'react';
import { CreateTokenDialog, type TokenPreset } from './create-token-dialog';
import { TokenCreatedDialog } from './token-created-dialog';

export interface CreateTokenFlowProps {
  open: boolean;
  onClose(): void;
  /** 'mcp': Setup MCP from the user menu (mcp:* scope, client configurations). */
  preset?: TokenPreset;
}

/**
 * Token creation (settings §4): the form, submitting ('Creating...'), the success dialog, close.
 * The token lives only in this state: closing the success dialog forgets it.
 */
export function CreateTokenFlow({ open, onClose, preset }: CreateTokenFlowProps) {
  const [token, setToken] = useState<string | null>(null);
  return (
    <>
      <CreateTokenDialog
        open={open && token === null}
        onClose={onClose}
        onCreated={setToken}
        preset={preset}
      />
      <TokenCreatedDialog
        token={open ? token : null}
        mcp={preset === 'mcp'}
        onClose={() => {
          setToken(null);
          onClose();
        }}
      />
    </>
  );
}
