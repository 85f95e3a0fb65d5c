import clsx from 'clsx';
import type { ComponentPropsWithRef } from 'react';

export interface IconButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'aria-label'> {
  /** The button's name: an icon alone says nothing to a screen reader. */
  'aria-label': string;
  /** 'bordered' draws the outline of a secondary button. Default 'plain'. */
  appearance?: 'plain' | 'bordered';
}

/** A square button holding one icon (close, enlarge, refresh, ...). `type` defaults to 'button'. */
export function IconButton({ appearance = 'plain', className, type = 'button', ...rest }: IconButtonProps) {
  return (
    <button
      type={type}
      className={clsx(
        'inline-flex shrink-0 items-center justify-center rounded p-1 text-gray-500 hover:bg-gray-100 hover:text-gray-700 disabled:cursor-not-allowed disabled:opacity-60',
        appearance === 'bordered' && 'border border-gray-300 bg-white',
        className,
      )}
      {...rest}
    />
  );
}
