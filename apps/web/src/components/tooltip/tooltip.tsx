import clsx from 'clsx';
import { cloneElement, useId, useState, type ReactElement, type ReactNode } from 'react';

export interface TooltipProps {
  /** What the tooltip says; it also describes the trigger (`aria-describedby`). */
  content: ReactNode;
  /** One focusable element (a button, a link, a `time` with tabIndex). */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  /** Default 'top'. */
  placement?: 'top' | 'bottom';
  className?: string;
}

/**
 * A tooltip shown while the trigger is hovered or focused, hidden with Escape; role tooltip,
 * tied to the trigger with aria-describedby so screen readers read it after the name.
 */
export function Tooltip({ content, children, placement = 'top', className }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span
      className="relative inline-flex"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false);
      }}
    >
      {cloneElement(children, { 'aria-describedby': open ? id : undefined })}
      {open && (
        <span
          id={id}
          role="tooltip"
          className={clsx(
            'pointer-events-none absolute left-1/2 z-50 w-max max-w-xs -translate-x-1/2 rounded bg-gray-900 px-2 py-1 text-xs text-white shadow',
            placement === 'top' ? 'bottom-full mb-1' : 'top-full mt-1',
            className,
          )}
        >
          {content}
        </span>
      )}
    </span>
  );
}
