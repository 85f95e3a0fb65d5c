import {
  Popover as HeadlessPopover,
  PopoverButton,
  PopoverPanel,
  type PopoverPanelProps,
} from '@headlessui/react';
import clsx from 'clsx';
import type { ReactNode } from 'react';

export type PopoverPlacement = 'bottom start' | 'bottom end';

export interface PopoverProps {
  /** What the trigger button shows. */
  trigger: ReactNode;
  /** The trigger's accessible name when its content does not say it (an icon, a clipped chip). */
  triggerLabel?: string;
  /** The trigger's tooltip (the full text of a clipped label). */
  triggerTitle?: string;
  /** Classes of the trigger button; a plain button when absent. */
  triggerClassName?: string;
  /** The panel's accessible name. */
  panelLabel?: string;
  /** Classes added to the panel (width, padding, layout). */
  panelClassName?: string;
  /** Where the panel sits under the trigger. Default 'bottom start'. */
  placement?: PopoverPlacement;
  /** Classes of the wrapper. */
  className?: string;
  /** The panel's content; as a function it gets `close()`, which also puts focus back on the trigger. */
  children: ReactNode | ((api: { close(): void }) => ReactNode);
}

/**
 * The console's popover: a button that opens a panel anchored under it, drawn in a layer of its
 * own (a scrolling container does not clip it). Escape and a click outside close it, and closing
 * puts the focus back on the trigger (Headless UI's Popover). For choices use `SelectMenu`; for
 * a confirmation use `ConfirmationDialog`.
 */
export function Popover({
  trigger,
  triggerLabel,
  triggerTitle,
  triggerClassName,
  panelLabel,
  panelClassName,
  placement = 'bottom start',
  className,
  children,
}: PopoverProps) {
  const content: PopoverPanelProps['children'] =
    typeof children === 'function' ? ({ close }) => <>{children({ close: () => close() })}</> : children;
  return (
    <HeadlessPopover className={clsx('relative', className)}>
      <PopoverButton aria-label={triggerLabel} title={triggerTitle} className={triggerClassName}>
        {trigger}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: placement, gap: 4 }}
        aria-label={panelLabel}
        className={clsx(
          'z-40 rounded-lg border border-gray-200 bg-white text-sm shadow-xl focus:outline-none',
          panelClassName,
        )}
      >
        {content}
      </PopoverPanel>
    </HeadlessPopover>
  );
}
