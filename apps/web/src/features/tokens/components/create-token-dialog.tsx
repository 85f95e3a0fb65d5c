import { zodResolver } from '@hookform/resolvers/zod';
import type { CreateTokenRequest } from '@opsdeck/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import {
  GENERIC_ERROR_MESSAGE,
  showErrorToast,
  showSuccessToast,
  toastErrorMessage,
} from '../../../components/toasts/toasts';
import { useCreateToken } from '../api/tokens';
import {
  EXPIRY_OPTIONS,
  orderedScopeKeys,
  SCOPE_ACTIONS,
  SCOPE_OBJECT_LABELS,
  SCOPE_OBJECTS,
  scopeKey,
} from '../lib/scopes';
import { tokenFormDefaults, tokenFormSchema, type TokenFormValues } from '../lib/token-form';

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
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<TokenFormValues, unknown, CreateTokenRequest>({
    resolver: zodResolver(tokenFormSchema),
    defaultValues: tokenFormDefaults(preset, MCP_TOKEN_NAME),
    // Settings §5: the name's message shows once the field was left, then follows each keystroke.
    mode: 'onTouched',
  });
  const create = useCreateToken();
  const [name, scopes] = useWatch({ control, name: ['name', 'scopes'] });
  const submitDisabled = (name ?? '').trim() === '' || create.isPending;

  const submit = handleSubmit(async (request) => {
    try {
      const token = await create.mutateAsync(request);
      showSuccessToast(TOKEN_CREATED_MESSAGE);
      onCreated(token);
    } catch (error) {
      showErrorToast(createTokenErrorMessage(error));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      {preset === 'mcp' && (
        <p className="text-gray-600">
          Create a token for your MCP client. It carries the <code>mcp:*</code> scope: through the MCP
          endpoint it reads with your rights.
        </p>
      )}
      <FormField label="Name" error={errors.name?.message}>
        <Input autoComplete="off" {...register('name')} />
      </FormField>
      <FormField label="Expiry">
        <Controller
          control={control}
          name="expiry"
          render={({ field }) => (
            <SelectMenu
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              options={EXPIRY_OPTIONS}
              className="w-full"
              floating
            />
          )}
        />
      </FormField>
      <fieldset className="flex flex-col gap-1">
        <legend className="font-medium text-gray-700">Scopes</legend>
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
                            <input type="checkbox" value={key} aria-label={key} {...register('scopes')} />
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
          {!scopes || scopes.length === 0
            ? 'No scope selected: the token acts with all your rights.'
            : `Selected: ${orderedScopeKeys(scopes).join(', ')}`}
        </p>
      </fieldset>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={submitDisabled}>
          {create.isPending ? 'Creating...' : 'Create'}
        </Button>
      </div>
    </form>
  );
}
