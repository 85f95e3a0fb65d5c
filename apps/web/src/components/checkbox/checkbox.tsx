import clsx from 'clsx';
import type { ComponentPropsWithRef, ReactNode } from 'react';

export interface CheckboxProps extends Omit<ComponentPropsWithRef<'input'>, 'type'> {
  /** Text beside the box; clicking it toggles the box. */
  label: ReactNode;
}

/**
 * A native checkbox (the browser's keyboard and screen-reader behaviour, and react-hook-form's
 * `register` work as they are) drawn in the console's colours, with its label.
 */
export function Checkbox({ label, className, disabled, ...rest }: CheckboxProps) {
  return (
    <label
      className={clsx(
        'inline-flex items-center gap-2 text-sm text-gray-700',
        disabled && 'cursor-not-allowed opacity-60',
        className,
      )}
    >
      <input
        type="checkbox"
        disabled={disabled}
        className="size-4 rounded border-gray-300 accent-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500"
        {...rest}
      />
      {label}
    </label>
  );
}
