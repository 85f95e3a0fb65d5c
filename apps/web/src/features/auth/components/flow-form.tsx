import clsx from 'clsx';
import { useId, type FormEvent } from 'react';
import type { Flow, UiNode } from '../api/flows';
import { FieldMessages } from './flow-messages';

/** Text nodes that show something (codes, secrets) rather than ask for input. */
const DISPLAY_NODES = new Set([
  'lookup_secret_codes',
  'lookup_secret_remaining',
  'totp_url',
  'totp_secret_key',
]);

function isDisplayNode(node: UiNode): boolean {
  return (
    node.type === 'text' &&
    (DISPLAY_NODES.has(node.name) || (node.value !== undefined && typeof node.value !== 'string'))
  );
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const INPUT_TYPES = new Set(['text', 'email', 'password', 'number', 'tel', 'url']);

function DisplayNode({ node }: { node: UiNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1" data-node={node.name}>
      {node.label && (
        <span id={id} className="text-sm font-medium text-gray-700">
          {node.label}
        </span>
      )}
      {Array.isArray(node.value) ? (
        <ul
          aria-labelledby={id}
          className="grid grid-cols-2 gap-1 rounded-md bg-gray-50 p-3 font-mono text-sm"
        >
          {node.value.map((entry, index) => (
            <li key={index}>{valueText(entry)}</li>
          ))}
        </ul>
      ) : (
        <code aria-labelledby={id} className="rounded-md bg-gray-50 px-3 py-2 text-sm break-all">
          {valueText(node.value)}
        </code>
      )}
      <FieldMessages messages={node.messages} id={`${id}-messages`} />
    </div>
  );
}

function InputNode({ node }: { node: UiNode }) {
  const id = useId();
  const messagesId = `${id}-messages`;
  const invalid = node.messages.some((message) => message.type === 'error');
  if (node.type === 'checkbox') {
    return (
      <div className="flex flex-col">
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input
            type="checkbox"
            name={node.name}
            defaultChecked={node.value === true}
            disabled={node.disabled}
          />
          {node.label ?? node.name}
        </label>
        <FieldMessages messages={node.messages} id={messagesId} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        {node.label ?? node.name}
      </label>
      <input
        id={id}
        name={node.name}
        type={INPUT_TYPES.has(node.type) ? node.type : 'text'}
        defaultValue={node.type === 'password' ? undefined : valueText(node.value)}
        readOnly={node.disabled}
        aria-readonly={node.disabled || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={node.messages.length > 0 ? messagesId : undefined}
        autoComplete={node.autocomplete}
        className={clsx(
          'rounded-md border px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none',
          invalid ? 'border-red-400' : 'border-gray-300',
          node.disabled && 'bg-gray-100',
        )}
      />
      <FieldMessages messages={node.messages} id={messagesId} />
    </div>
  );
}

function SubmitNode({ node, busy, index }: { node: UiNode; busy: boolean; index: number }) {
  return (
    <button
      type="submit"
      name={node.name}
      value={valueText(node.value)}
      data-node-index={index}
      disabled={busy || node.disabled}
      className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
    >
      {node.label ?? valueText(node.value)}
    </button>
  );
}

export interface FlowFormProps {
  flow: Flow;
  /** Node groups this form shows (the csrf token is always sent by the submit). */
  groups: string[];
  busy?: boolean;
  onSubmit: (body: Record<string, unknown>) => void;
  className?: string;
  'aria-label'?: string;
}

/**
 * Renders the server's `ui.nodes` of some groups as a form: inputs by type with their messages,
 * hidden fields, submit buttons carrying their name and value. Submits a JSON body; there is no
 * client-side validation (spec core §5: the server's messages are shown next to the fields).
 */
export function FlowForm({ flow, groups, busy = false, onSubmit, className, ...rest }: FlowFormProps) {
  const nodes = flow.ui.nodes.filter((node) => groups.includes(node.group) && node.name !== 'csrf_token');
  if (!nodes.some((node) => node.type === 'submit' || node.type === 'button')) return null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body: Record<string, unknown> = {};
    for (const node of nodes) {
      if (node.type === 'submit' || node.type === 'button' || node.type === 'script' || isDisplayNode(node))
        continue;
      const element = form.elements.namedItem(node.name);
      if (element instanceof HTMLInputElement) {
        body[node.name] = element.type === 'checkbox' ? element.checked : element.value;
      }
    }
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const index = submitter instanceof HTMLButtonElement ? Number(submitter.dataset.nodeIndex) : NaN;
    const pressed = Number.isInteger(index) ? nodes[index] : nodes.find((node) => node.type === 'submit');
    // a button's own value (true, an id, 'password') is sent as the server gave it
    if (pressed) body[pressed.name] = pressed.value ?? true;
    onSubmit(body);
  };

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className={clsx('flex flex-col gap-4', className)}
      aria-label={rest['aria-label']}
    >
      {nodes.map((node, index) => {
        const key = `${node.group}-${node.name}-${index}`;
        if (node.type === 'hidden')
          return <input key={key} type="hidden" name={node.name} defaultValue={valueText(node.value)} />;
        if (node.type === 'script') return null;
        if (node.type === 'submit' || node.type === 'button')
          return <SubmitNode key={key} node={node} busy={busy} index={index} />;
        if (isDisplayNode(node)) return <DisplayNode key={key} node={node} />;
        return <InputNode key={key} node={node} />;
      })}
    </form>
  );
}

/** Whether the flow has nodes of a group (a method the server offers). */
export function hasGroup(flow: Flow, group: string): boolean {
  return flow.ui.nodes.some((node) => node.group === group);
}
