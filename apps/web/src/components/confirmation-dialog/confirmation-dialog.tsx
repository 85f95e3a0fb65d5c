import { Dialog, DialogBackdrop, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import clsx from 'clsx';
import { CircleCheck, LoaderCircle, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

export type ConfirmationVariant = 'delete' | 'approve';

export interface ConfirmationDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  /** Called with the confirm button. */
  onConfirm(): void;
  /** Called with Cancel, Escape or a background click. */
  onClose(): void;
  /** Default 'Delete'. */
  confirmLabel?: string;
  /** Default 'Cancel'. */
  cancelLabel?: string;
  /** 'delete' (red, the default) or 'approve' (green). */
  variant?: ConfirmationVariant;
  /** Disables both buttons and shows a spinner while the action runs. */
  isLoading?: boolean;
}

/** Asks the user to confirm a destructive or approving action (settings §2.10). */
export function ConfirmationDialog({
  open,
  title,
  description,
  onConfirm,
  onClose,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  variant = 'delete',
  isLoading = false,
}: ConfirmationDialogProps) {
  const Icon = variant === 'delete' ? TriangleAlert : CircleCheck;
  return (
    <Dialog open={open} onClose={() => !isLoading && onClose()} role="alertdialog" className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-gray-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
          <div className="flex gap-4">
            <span
              className={clsx(
                'flex size-10 shrink-0 items-center justify-center rounded-full',
                variant === 'delete' ? 'bg-red-100 text-red-600' : 'bg-green-100 text-green-600',
              )}
            >
              <Icon className="size-5" aria-hidden />
            </span>
            <div className="min-w-0">
              <DialogTitle className="text-base font-semibold text-gray-900">{title}</DialogTitle>
              {description && <Description className="mt-2 text-sm text-gray-600">{description}</Description>}
            </div>
          </div>
          <div className="mt-6 flex justify-end gap-2">
            <button
              type="button"
              onClick={onClose}
              disabled={isLoading}
              className="rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
            >
              {cancelLabel}
            </button>
            <button
              type="button"
              onClick={onConfirm}
              disabled={isLoading}
              className={clsx(
                'inline-flex items-center gap-2 rounded-md px-4 py-2 text-sm font-medium text-white disabled:opacity-50',
                variant === 'delete' ? 'bg-red-600 hover:bg-red-700' : 'bg-green-600 hover:bg-green-700',
              )}
            >
              {isLoading && <LoaderCircle className="size-4 animate-spin" aria-hidden />}
              {confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
