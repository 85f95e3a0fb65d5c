import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import clsx from 'clsx';
import { Maximize2, Minimize2, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { IconButton } from '../icon-button/icon-button';

/** Modal sizes (settings §9); medium is the default. */
export const MODAL_SIZES = ['very-small', 'small', 'medium', 'large', 'full'] as const;
export type ModalSize = (typeof MODAL_SIZES)[number];

// Widths step up at the spec's breakpoints: 768 (md), 1024 (lg), 1280 (xl) and 1600 px.
const SIZE_CLASSES: Record<ModalSize, string> = {
  'very-small': 'w-full max-w-sm md:max-w-md max-h-[90vh]',
  small: 'w-full md:max-w-lg lg:max-w-xl xl:max-w-2xl min-[1600px]:max-w-3xl max-h-[90vh]',
  medium: 'w-full md:max-w-2xl lg:max-w-3xl xl:max-w-4xl min-[1600px]:max-w-5xl max-h-[90vh]',
  large: 'w-full md:max-w-4xl lg:max-w-5xl xl:max-w-6xl min-[1600px]:max-w-7xl max-h-[90vh]',
  full: 'h-full w-full max-w-none',
};

export interface ModalProps {
  open: boolean;
  /** Called by the close button, Escape, and a background click when allowed. */
  onClose(): void;
  title: ReactNode;
  /** Default 'medium'. */
  size?: ModalSize;
  /** Whether a click on the background closes the modal. Default true. */
  allowBackgroundClose?: boolean;
  /** Shows the enlarge/restore button. Default true. */
  enlargeable?: boolean;
  /** Buttons shown under the body. */
  footer?: ReactNode;
  /** Extra classes for the body. */
  bodyClassName?: string;
  children?: ReactNode;
}

/** An accessible dialog that can be enlarged to full size and restored. */
export function Modal({ open, onClose, allowBackgroundClose = true, ...rest }: ModalProps) {
  return (
    <Dialog
      open={open}
      // Headless UI reports Escape and outside clicks here; Escape is handled on the panel so a
      // modal that refuses background clicks can still be dismissed from the keyboard.
      onClose={() => {
        if (allowBackgroundClose) onClose();
      }}
      className="relative z-50"
    >
      {/* Mounted only while open, so an enlarged modal opens at its own size next time. */}
      <ModalFrame onClose={onClose} allowBackgroundClose={allowBackgroundClose} {...rest} />
    </Dialog>
  );
}

function ModalFrame({
  onClose,
  title,
  size = 'medium',
  allowBackgroundClose,
  enlargeable = true,
  footer,
  bodyClassName,
  children,
}: Omit<ModalProps, 'open'>) {
  const [enlarged, setEnlarged] = useState(false);
  const effectiveSize = enlarged ? 'full' : size;

  return (
    <>
      <DialogBackdrop className="fixed inset-0 bg-gray-900/40" />
      <div
        className={clsx(
          'fixed inset-0 flex items-center justify-center',
          effectiveSize === 'full' ? 'p-0' : 'p-4',
        )}
      >
        <DialogPanel
          data-size={effectiveSize}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !allowBackgroundClose) onClose();
          }}
          className={clsx(
            'flex flex-col overflow-hidden bg-white shadow-xl',
            effectiveSize === 'full' ? 'rounded-none' : 'rounded-lg',
            SIZE_CLASSES[effectiveSize],
          )}
        >
          <div className="flex items-center gap-2 border-b border-gray-200 px-4 py-3">
            <DialogTitle className="min-w-0 flex-1 truncate text-lg font-semibold text-gray-900">
              {title}
            </DialogTitle>
            {enlargeable && size !== 'full' && (
              <IconButton
                aria-label={enlarged ? 'Restore size' : 'Enlarge'}
                aria-pressed={enlarged}
                onClick={() => setEnlarged((value) => !value)}
              >
                {enlarged ? (
                  <Minimize2 className="size-4" aria-hidden />
                ) : (
                  <Maximize2 className="size-4" aria-hidden />
                )}
              </IconButton>
            )}
            <IconButton aria-label="Close" onClick={onClose}>
              <X className="size-4" aria-hidden />
            </IconButton>
          </div>
          <div className={clsx('min-h-0 flex-1 overflow-auto p-4', bodyClassName)}>{children}</div>
          {footer && (
            <div className="flex justify-end gap-2 border-t border-gray-200 px-4 py-3">{footer}</div>
          )}
        </DialogPanel>
      </div>
    </>
  );
}
