import clsx from 'clsx';
import type { ComponentPropsWithRef } from 'react';

/** How a button looks: the one filled action of a form, the quiet ones beside it, a destructive one. */
export const BUTTON_VARIANTS = ['primary', 'secondary', 'danger', 'ghost', 'link'] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];
export type ButtonSize = 'sm' | 'md';

const VARIANT_CLASSES: Record<ButtonVariant, string> = {
  primary: 'bg-blue-600 font-medium text-white hover:bg-blue-700',
  secondary: 'border border-gray-300 bg-white text-gray-700 hover:bg-gray-50',
  danger: 'border border-red-300 bg-white text-red-700 hover:bg-red-50',
  ghost: 'text-gray-600 hover:bg-gray-100 hover:text-gray-800',
  link: 'font-medium text-blue-600 hover:underline',
};

const SIZE_CLASSES: Record<ButtonSize, string> = {
  sm: 'px-2 py-0.5 text-xs',
  md: 'px-3 py-1.5 text-sm',
};

/** The classes of a button, for a link or a Headless UI trigger that must look like one. */
export function buttonClasses({
  variant = 'secondary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return clsx(
    'inline-flex items-center justify-center gap-1.5 rounded disabled:cursor-not-allowed disabled:opacity-60',
    VARIANT_CLASSES[variant],
    variant !== 'link' && SIZE_CLASSES[size],
    variant === 'link' && (size === 'sm' ? 'text-xs' : 'text-sm'),
    className,
  );
}

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** Default 'secondary'. */
  variant?: ButtonVariant;
  /** Default 'md'. */
  size?: ButtonSize;
}

/**
 * A button of the console. `type` defaults to 'button', so a button inside a form submits only
 * when it says `type="submit"`.
 */
export function Button({ variant, size, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses({ variant, size, className })} {...rest} />;
}
