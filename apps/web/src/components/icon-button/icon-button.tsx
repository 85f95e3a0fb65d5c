import clsx from 'clsx';
import type { ComponentPropsWithRef } from 'react';

export type IconButtonSize = 'sm' | 'md';

/**
 * The classes of an icon button, for a link or a Headless UI trigger (`MenuButton`,
 * `PopoverButton`) that must look like one; give it an `aria-label` too.
 */
export function iconButtonClasses({
  size = 'sm',
  bordered = false,
  className,
}: { size?: IconButtonSize; bordered?: boolean; className?: string } = {}): string {
  return clsx(
    'inline-flex shrink-0 items-center justify-center text-gray-500 hover:bg-gray-100 hover:text-gray-700 disabled:cursor-not-allowed disabled:opacity-60',
    size === 'sm' ? 'rounded p-1' : 'rounded-md p-2',
    bordered && 'border border-gray-300 bg-white',
    className,
  );
}

export interface IconButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'aria-label'> {
  /** The button's name: an icon alone says nothing to a screen reader. */
  'aria-label': string;
  /** 'sm' in dialogs and rows, 'md' in the shell's bars. Default 'sm'. */
  size?: IconButtonSize;
  /** 'bordered' draws the outline of a secondary button. Default 'plain'. */
  appearance?: 'plain' | 'bordered';
}

/** A square button holding one icon (close, enlarge, refresh, ...). `type` defaults to 'button'. */
export function IconButton({
  size,
  appearance = 'plain',
  className,
  type = 'button',
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      className={iconButtonClasses({ size, bordered: appearance === 'bordered', className })}
      {...rest}
    />
  );
}
