import { TriangleAlert } from 'lucide-react';

export const SORRY_MESSAGE = 'Sorry.. there was an error';
export const SOMETHING_WENT_WRONG_MESSAGE = 'Something went wrong';

export interface ErrorScreenProps {
  /** Offers a retry button when given. */
  onRetry?(): void;
}

/** The short error screen: 'Sorry.. there was an error'. */
export function ErrorFallback({ onRetry }: ErrorScreenProps) {
  return (
    <div role="alert" className="flex flex-col items-center justify-center gap-3 p-12 text-center">
      <TriangleAlert className="size-10 text-red-500" aria-hidden />
      <p className="text-base font-medium text-gray-800">{SORRY_MESSAGE}</p>
      {onRetry && <RetryButton onRetry={onRetry} />}
    </div>
  );
}

export interface ErrorDetailsProps extends ErrorScreenProps {
  error: unknown;
  /** Hides the stack (for users who cannot act on it). Default false. */
  hideStack?: boolean;
}

/** The detailed error screen: 'Something went wrong', the message and the stack unless hidden. */
export function ErrorDetails({ error, hideStack = false, onRetry }: ErrorDetailsProps) {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  const stack = error instanceof Error ? error.stack : undefined;
  return (
    <div role="alert" className="mx-auto flex max-w-3xl flex-col gap-3 p-8">
      <div className="flex items-center gap-2">
        <TriangleAlert className="size-6 text-red-500" aria-hidden />
        <h2 className="text-lg font-semibold text-gray-900">{SOMETHING_WENT_WRONG_MESSAGE}</h2>
      </div>
      {message && <p className="text-sm text-gray-700">{message}</p>}
      {!hideStack && stack && (
        <pre
          aria-label="Error stack"
          className="max-h-96 overflow-auto rounded-md bg-gray-50 p-3 text-xs text-gray-700"
        >
          {stack}
        </pre>
      )}
      {onRetry && (
        <div>
          <RetryButton onRetry={onRetry} />
        </div>
      )}
    </div>
  );
}

function RetryButton({ onRetry }: { onRetry(): void }) {
  return (
    <button
      type="button"
      onClick={onRetry}
      className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50"
    >
      Try again
    </button>
  );
}
