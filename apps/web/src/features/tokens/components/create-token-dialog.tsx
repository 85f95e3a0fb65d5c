import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal/modal';
import {
  GENERIC_ERROR_MESSAGE,
  showErrorToast,
  showSuccessToast,
  toastErrorMessage,
} from '../../../components/toasts/toasts';
import { useCreateToken } from '../api/tokens';
import {
  DEFAULT_EXPIRY,
  EXPIRY_OPTIONS,
  MCP_SCOPE,
  orderedScopeKeys,
  SCOPE_ACTIONS,
  SCOPE_OBJECT_LABELS,
  SCOPE_OBJECTS,
  scopeFromKey,
  scopeKey,
} from '../lib/scopes';

export type TokenPreset = 'mcp';

export const NAME_REQUIRED_MESSAGE = 'Name is required';
export const CREATE_TOKEN_FAILED_MESSAGE = 'Failed to create token';
export const TOKEN_CREATED_MESSAGE = 'Token created successfully';
export const MCP_TOKEN_NAME = 'MCP';

export interface CreateTokenDialogProps {
  open: boolean;
  onClose(): void;
  /** Called with the new token (shown once by the next dialog). */
  onCreated(token: string): void;
  /** 'mcp' starts with the mcp:* scope and a name for the MCP client. */
  preset?: TokenPreset;
}

/** The message of a failed creation (settings §8): the error's message, or 'Failed to create token'. */
export function createTokenErrorMessage(error: unknown): string {
  const message = toastErrorMessage(error);
  return message === GENERIC_ERROR_MESSAGE ? CREATE_TOKEN_FAILED_MESSAGE : message;
}

/** 'Create new token' (settings §2.8): Name, Expiry and Scopes. */
export function CreateTokenDialog({ open, onClose, onCreated, preset }: CreateTokenDialogProps) {
  return (
    <Modal open={open} onClose={onClose} title="Create new token" size="small" enlargeable={false}>
      <CreateTokenForm onClose={onClose} onCreated={onCreated} preset={preset} />
    </Modal>
  );
}

function CreateTokenForm({ onClose, onCreated, preset }: Omit<CreateTokenDialogProps, 'open'>) {
  const ids = useId();
  const [name, setName] = useState(preset === 'mcp' ? MCP_TOKEN_NAME : '');
  const [touched, setTouched] = useState(false);
  const [expiry, setExpiry] = useState<string>(DEFAULT_EXPIRY);
  const [scopes, setScopes] = useState<Set<string>>(
    () => new Set(preset === 'mcp' ? [scopeKey(MCP_SCOPE)] : []),
  );
  const create = useCreateToken();
  const nameInvalid = name.trim() === '';
  const submitDisabled = nameInvalid || create.isPending;

  function toggle(key: string, checked: boolean) {
    setScopes((current) => {
      const next = new Set(current);
      if (checked) next.add(key);
      else next.delete(key);
      return next;
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (submitDisabled) return;
    try {
      const token = await create.mutateAsync({
        name: name.trim(),
        expiry,
        scope: orderedScopeKeys(scopes).map(scopeFromKey),
      });
      showSuccessToast(TOKEN_CREATED_MESSAGE);
      onCreated(token);
    } catch (error) {
      showErrorToast(createTokenErrorMessage(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      {preset === 'mcp' && (
        <p className="text-gray-600">
          Create a token for your MCP client. It carries the <code>mcp:*</code> scope: through the MCP
          endpoint it reads with your rights.
        </p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${ids}-name`} className="font-medium text-gray-900">
          Name
        </label>
        <input
          id={`${ids}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={touched && nameInvalid}
          aria-describedby={touched && nameInvalid ? `${ids}-name-error` : undefined}
          autoComplete="off"
          className="rounded-md border border-gray-300 px-3 py-1.5 focus:border-blue-500 focus:outline-none"
        />
        {touched && nameInvalid && (
          <p id={`${ids}-name-error`} className="text-xs text-red-600">
            {NAME_REQUIRED_MESSAGE}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${ids}-expiry`} className="font-medium text-gray-900">
          Expiry
        </label>
        <select
          id={`${ids}-expiry`}
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          className="rounded-md border border-gray-300 px-3 py-1.5"
        >
          {EXPIRY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="flex flex-col gap-1">
        <legend className="font-medium text-gray-900">Scopes</legend>
        <div className="max-h-64 overflow-y-auto rounded-md border border-gray-200">
          <table className="w-full">
            <tbody>
              {SCOPE_OBJECTS.map((object) => (
                <tr key={object} className="border-b border-gray-100 last:border-b-0">
                  <th scope="row" className="w-32 px-3 py-2 text-left font-normal text-gray-700">
                    {SCOPE_OBJECT_LABELS[object]}
                  </th>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-x-4 gap-y-1">
                      {SCOPE_ACTIONS[object].map((action) => {
                        const key = scopeKey({ object, action });
                        return (
                          <label key={key} className="inline-flex items-center gap-1.5 text-gray-700">
                            <input
                              type="checkbox"
                              checked={scopes.has(key)}
                              onChange={(event) => toggle(key, event.target.checked)}
                              aria-label={key}
                            />
                            {action}
                          </label>
                        );
                      })}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="text-xs text-gray-500">
          {scopes.size === 0
            ? 'No scope selected: the token acts with all your rights.'
            : `Selected: ${orderedScopeKeys(scopes).join(', ')}`}
        </p>
      </fieldset>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <button
          type="button"
          onClick={onClose}
          className="rounded-md border border-gray-300 bg-white px-4 py-2 font-medium text-gray-700 hover:bg-gray-50"
        >
          Cancel
        </button>
        <button
          type="submit"
          disabled={submitDisabled}
          className="rounded-md bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-50"
        >
          {create.isPending ? 'Creating...' : 'Create'}
        </button>
      </div>
    </form>
  );
}
