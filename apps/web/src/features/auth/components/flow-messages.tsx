import clsx from 'clsx';
import type { UiText } from '../api/flows';

const STYLE: Record<UiText['type'], string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-green-200 bg-green-50 text-green-800',
  info: 'border-blue-200 bg-blue-50 text-blue-800',
};

/** Messages of a whole flow (not of one field). */
export function FlowMessages({ messages }: { messages: UiText[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="flow-messages">
      {messages.map((message, index) => (
        <p
          key={`${message.id}-${index}`}
          role={message.type === 'error' ? 'alert' : 'status'}
          data-message-id={message.id}
          className={clsx('rounded-md border px-3 py-2 text-sm', STYLE[message.type])}
        >
          {message.text}
        </p>
      ))}
    </div>
  );
}

/** Messages the server put on one field, shown under it. */
export function FieldMessages({ messages, id }: { messages: UiText[]; id: string }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} className="mt-1 flex flex-col gap-0.5">
      {messages.map((message, index) => (
        <p
          key={`${message.id}-${index}`}
          data-message-id={message.id}
          className={clsx('text-sm', message.type === 'error' ? 'text-red-600' : 'text-gray-600')}
        >
          {message.text}
        </p>
      ))}
    </div>
  );
}
