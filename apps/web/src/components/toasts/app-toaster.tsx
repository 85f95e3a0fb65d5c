import { X } from 'lucide-react';
import toast, { ToastBar, Toaster } from 'react-hot-toast';
import { TOAST_DURATION_MS } from './toasts';

/** The one toast outlet of the app: bottom right, 5000 ms, close buttons except on loading toasts. */
export function AppToaster() {
  return (
    <Toaster position="bottom-right" toastOptions={{ duration: TOAST_DURATION_MS, className: 'text-sm' }}>
      {(current) => (
        <ToastBar toast={current}>
          {({ icon, message }) => (
            <>
              {icon}
              {message}
              {current.type !== 'loading' && (
                <button
                  type="button"
                  aria-label="Dismiss notification"
                  onClick={() => toast.dismiss(current.id)}
                  className="rounded p-1 text-gray-400 hover:bg-gray-100 hover:text-gray-600"
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              )}
            </>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
