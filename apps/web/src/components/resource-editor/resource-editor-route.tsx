import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api-client';
import { NoDetailsFound } from '../empty-state/empty-state';
import { PageSkeleton } from '../skeleton/skeleton';
import { showSuccessToast } from '../toasts/toasts';
import type { ResourceEditorDelete } from './resource-editor';

/**
 * The route part every resource editor page shares: `/…/new` renders the empty form at once; a
 * saved resource shows a skeleton while it loads, 'No details found' when it does not exist (no
 * row, or the server answers 404/400 for a malformed id), and the form keyed by the resource's id
 * (so moving from one resource to another starts a fresh form). Other failures reach the route's
 * error screen.
 */
export function ResourceEditorRoute<T extends { id: string }>({
  isNew,
  query,
  loadingLabel,
  children,
}: {
  isNew: boolean;
  /** The saved resource's query; disabled while `isNew`. */
  query: Pick<UseQueryResult<T | null | undefined>, 'isPending' | 'isError' | 'error' | 'data'>;
  /** The skeleton's accessible name ('Loading scraper'). */
  loadingLabel: string;
  /** The form: undefined for a new resource; render it with `key={resource.id}` done here. */
  children(resource: T | undefined): ReactNode;
}) {
  if (isNew) return <>{children(undefined)}</>;
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400))
      return <NoDetailsFound />;
    throw error;
  }
  if (query.isPending) return <PageSkeleton label={loadingLabel} />;
  if (!query.data) return <NoDetailsFound />;
  return <KeyedForm key={query.data.id}>{children(query.data)}</KeyedForm>;
}

function KeyedForm({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/**
 * The Delete action of a saved resource's editor: confirmation, the delete mutation, the
 * '{name} deleted successfully' toast and the way back to the list; a failure closes the dialog
 * and goes to `onError` (a toast, and whatever else the page shows).
 */
export function deleteAction({
  name,
  description,
  title = `Delete ${name}?`,
  pending,
  run,
  onDeleted,
  onError,
}: {
  name: string;
  description: string;
  title?: string;
  pending: boolean;
  /** Starts the delete; calls back as a mutation's `mutate` options do. */
  run(callbacks: { onSuccess(): void; onError(error: Error): void }): void;
  /** After the success toast: usually navigate to the list. */
  onDeleted(): void;
  onError(error: Error): void;
}): ResourceEditorDelete {
  return {
    title,
    description,
    isLoading: pending,
    onConfirm: (close) =>
      run({
        onSuccess: () => {
          close();
          showSuccessToast(`${name} deleted successfully`);
          onDeleted();
        },
        onError: (error) => {
          close();
          onError(error);
        },
      }),
  };
}
