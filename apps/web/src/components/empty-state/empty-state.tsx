import clsx from 'clsx';
import { Inbox } from 'lucide-react';
import type { ReactNode } from 'react';

export const NO_DATA_MESSAGE = 'No data available';
export const NO_DETAILS_MESSAGE = 'No details found';

export interface EmptyStateProps {
  /** Default 'No data available'. */
  message?: ReactNode;
  /** Optional actions under the message. */
  children?: ReactNode;
  className?: string;
}

/** What a list or panel shows when there is nothing in it (core §2). */
export function EmptyState({ message = NO_DATA_MESSAGE, children, className }: EmptyStateProps) {
  return (
    <div
      role="status"
      className={clsx(
        'flex flex-col items-center justify-center gap-2 p-8 text-center text-gray-500',
        className,
      )}
    >
      <Inbox className="size-8 text-gray-300" aria-hidden />
      <p className="text-sm">{message}</p>
      {children}
    </div>
  );
}

/** The empty state of a details panel: 'No details found'. */
export function NoDetailsFound({ className }: { className?: string }) {
  return <EmptyState message={NO_DETAILS_MESSAGE} className={className} />;
}
