import type { GenerateAgentResponse } from '@opsdeck/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { copyToClipboard } from '../../../components/toasts/copy-to-clipboard';
import { useGenerateAgent } from '../api/agents';

interface AgentFormValues {
  name: string;
  description: string;
  /** 'key=value' lines. */
  properties: string;
}

type AgentInput = { name: string; description?: string; properties: Record<string, string> };

const resolver = validationResolver(
  (
    values: AgentFormValues,
  ):
    | { ok: true; value: AgentInput }
    | { ok: false; errors: Partial<Record<keyof AgentFormValues, string>> } => {
    const name = values.name.trim();
    if (!name) return { ok: false, errors: { name: 'Name is required' } };
    const properties: Record<string, string> = {};
    for (const line of values.properties
      .split('\n')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [key, ...rest] = line.split('=');
      if (!key?.trim() || rest.length === 0)
        return { ok: false, errors: { properties: `Properties are key=value lines: '${line}'` } };
      properties[key.trim()] = rest.join('=').trim();
    }
    const description = values.description.trim();
    return { ok: true, value: { name, ...(description ? { description } : {}), properties } };
  },
);

/** Add Agent: name, description and properties; the token is shown once afterwards. */
export function AddAgentDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [created, setCreated] = useState<(GenerateAgentResponse & { name: string }) | null>(null);
  function close() {
    setCreated(null);
    onClose();
  }
  return (
    <Modal
      open={open}
      onClose={close}
      title={created ? 'Agent Created' : 'Add Agent'}
      size="small"
      enlargeable={false}
    >
      {created ? (
        <AgentCreated agent={created} onClose={close} />
      ) : (
        open && <AgentForm onClose={close} onCreated={setCreated} />
      )}
    </Modal>
  );
}

function AgentForm({
  onClose,
  onCreated,
}: {
  onClose(): void;
  onCreated(agent: GenerateAgentResponse & { name: string }): void;
}) {
  const generate = useGenerateAgent();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AgentFormValues, unknown, AgentInput>({
    resolver,
    defaultValues: { name: '', description: '', properties: '' },
  });
  const submit = handleSubmit(async (input) => {
    try {
      const answer = await generate.mutateAsync(input);
      showSuccessToast(`${input.name} created successfully`);
      onCreated({ ...answer, name: input.name });
    } catch (error) {
      showErrorToast(error);
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      <FormField label="Name" required error={errors.name?.message}>
        <Input autoComplete="off" {...register('name')} />
      </FormField>
      <FormField label="Description">
        <Input autoComplete="off" {...register('description')} />
      </FormField>
      <FormField label="Properties" hint="One key=value per line" error={errors.properties?.message}>
        <Textarea code rows={3} {...register('properties')} />
      </FormField>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={generate.isPending}>
          {generate.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

/** The token, shown this once, and the command that checks it against this server. */
function AgentCreated({
  agent,
  onClose,
}: {
  agent: GenerateAgentResponse & { name: string };
  onClose(): void;
}) {
  const command = `curl -H "Authorization: Bearer ${agent.access_token}" ${window.location.origin}/api/auth/whoami`;
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="text-gray-700">
        Agent <strong>{agent.name}</strong> authenticates as <code>{agent.username}</code>. Copy its token
        now: it is shown only once.
      </p>
      <FormField label="Access token">
        <Input readOnly value={agent.access_token} className="font-mono text-xs" />
      </FormField>
      <FormField label="Command" hint="Checks the token: the answer names the agent's user.">
        <Textarea code readOnly rows={3} value={command} />
      </FormField>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button onClick={() => void copyToClipboard(agent.access_token, 'Token copied to clipboard')}>
          Copy token
        </Button>
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}
